import { eq } from 'drizzle-orm';
import type { Clock } from '../lib/clock.js';
import { randomToken } from '../lib/crypto.js';
import type { Db } from './database.js';
import { appSecrets } from './schema/index.js';

/**
 * A secret generated once and shared through the database: the first caller inserts 32 random
 * bytes (or what `generate` makes, such as a key pair), every later caller (on any instance)
 * reads the same row. Memoised per process.
 */
export function databaseSecret(
  deps: { db: Db; clock: Clock },
  name: string,
  generate: () => string = () => randomToken(32),
): () => Promise<string> {
  let pending: Promise<string> | undefined;
  const load = async (): Promise<string> => {
    await deps.db
      .insert(appSecrets)
      .values({ name, value: generate(), createdAt: deps.clock.now() })
      .onConflictDoNothing();
    const [row] = await deps.db
      .select({ value: appSecrets.value })
      .from(appSecrets)
      .where(eq(appSecrets.name, name));
    if (!row) throw new Error(`secret ${name} could not be stored`);
    return row.value;
  };
  return () => {
    pending ??= load().catch((err: unknown) => {
      pending = undefined;
      throw err;
    });
    return pending;
  };
}
