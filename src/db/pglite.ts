import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { MIGRATIONS_FOLDER, type Database, type Db } from './client.js';
import { localNotifications } from './notifications.js';
import * as schema from './schema/index.js';

/** Embedded PGlite: files in `dataDir`, or in memory when `dataDir` is undefined. */
export function openPglite(dataDir: string | undefined): Database & { client: PGlite } {
  if (dataDir === undefined) return wrapPglite(new PGlite());
  mkdirSync(dataDir, { recursive: true });
  return wrapPglite(new PGlite(dataDir));
}

/** Several app instances in one process (tests of "two instances, one database") share one PGlite. */
export function wrapPglite(client: PGlite, ownsClient = true): Database & { client: PGlite } {
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  const notifications = localNotifications();
  return {
    db,
    client,
    kind: 'pglite',
    notifications,
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    migrate: () => migratePglite(db as never, { migrationsFolder: MIGRATIONS_FOLDER }),
    close: async () => {
      await notifications.close();
      if (ownsClient && !client.closed) await client.close();
    },
  };
}
