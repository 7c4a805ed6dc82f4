import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { accounts } from '../../src/db/schema/index.js';
import { freshDatabase, type FreshDatabase } from '../helpers/database.js';

// PostgreSQL only: PGlite runs in process, with no connection to prepare statements on.
describe.skipIf(!process.env.TEST_DATABASE_URL)('statements named by their text (PostgreSQL)', () => {
  let fresh: FreshDatabase;
  beforeAll(async () => {
    fresh = await freshDatabase();
  });
  afterAll(() => fresh.drop());

  const preparedOnThisConnection = async (
    tx: Parameters<Parameters<FreshDatabase['database']['db']['transaction']>[0]>[0],
  ) =>
    (
      (await tx.execute<Record<string, unknown>>(
        sql`select name, statement from pg_prepared_statements`,
      )) as {
        rows: Array<{ name: string; statement: string }>;
      }
    ).rows;

  test('a parameterised statement is prepared once per connection and reused; BEGIN and parameterless ones are not', async () => {
    const { db } = fresh.database;
    await db.transaction(async (tx) => {
      for (const email of ['a@example.com', 'b@example.com', 'c@example.com'])
        expect(await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.email, email))).toEqual(
          [],
        );
      const prepared = await preparedOnThisConnection(tx);
      const ours = prepared.filter((p) =>
        p.statement.includes('from "accounts" where "accounts"."email" = $1'),
      );
      // Three executions, one prepared statement, named after its text.
      expect(ours).toHaveLength(1);
      expect(ours[0]!.name).toMatch(/^s_[0-9a-f]{24}$/);
      expect(prepared.some((p) => /pg_prepared_statements|^begin/i.test(p.statement))).toBe(false);
    });
  });

  test('the same text gets the same name on every connection; another text another name', async () => {
    const { db } = fresh.database;
    const nameOn = () =>
      db.transaction(async (tx) => {
        await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, 'acc_missing'));
        await tx.select({ email: accounts.email }).from(accounts).where(eq(accounts.id, 'acc_missing'));
        return (await preparedOnThisConnection(tx))
          .filter((p) => p.statement.includes('where "accounts"."id" = $1'))
          .map((p) => p.name)
          .sort();
      });
    const [first, second] = await Promise.all([nameOn(), nameOn()]);
    expect(first).toHaveLength(2);
    expect(second).toEqual(first);
  });
});
