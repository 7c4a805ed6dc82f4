import { sql } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { freshDatabase, pooledClientOf } from '../helpers/database.js';

// The PGlite run hands a dropped test database to the next test, reset (test/helpers/database.ts).
// What a test sees must still be a database exactly as migrated.
describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('PGlite test databases', () => {
  const client = (fresh: Awaited<ReturnType<typeof freshDatabase>>) => pooledClientOf(fresh.database);

  test('a reused database comes back empty, with its sequences restarted', async () => {
    const first = await freshDatabase();
    await first.database.db.execute(sql`insert into sandbox_settings (name, value) values ('x', 1)`);
    await first.database.db.execute(sql`select nextval('jobs_id_seq')`);
    await first.database.db.execute(sql`set statement_timeout = 1234`);
    await first.drop();

    const second = await freshDatabase();
    try {
      expect(client(second)).toBe(client(first));
      const rows = await second.database.db.execute(sql`select count(*)::int as n from sandbox_settings`);
      expect((rows as { rows: Array<{ n: number }> }).rows[0]!.n).toBe(0);
      const next = await second.database.db.execute(sql`select nextval('jobs_id_seq')::int as id`);
      expect((next as { rows: Array<{ id: number }> }).rows[0]!.id).toBe(1);
      const timeout = await second.database.db.execute(sql`show statement_timeout`);
      expect((timeout as { rows: Array<{ statement_timeout: string }> }).rows[0]).toEqual({
        statement_timeout: '0',
      });
    } finally {
      await second.drop();
    }
  });

  test('a database whose schema a test left changed is not reused', async () => {
    const changed = await freshDatabase();
    await changed.database.db.execute(sql`alter table accounts add column extra int`);
    await changed.drop();
    const next = await freshDatabase();
    try {
      expect(client(next)).not.toBe(client(changed));
      const columns = await next.database.db.execute(
        sql`select count(*)::int as n from information_schema.columns where table_name = 'accounts' and column_name = 'extra'`,
      );
      expect((columns as { rows: Array<{ n: number }> }).rows[0]!.n).toBe(0);
    } finally {
      await next.drop();
    }
  });

  test('a dropped database refuses its old handle, so nothing left running writes into the next test', async () => {
    const first = await freshDatabase();
    const { db } = first.database;
    await first.drop();
    // Drizzle wraps the driver's error ("Failed query: …") with it as the cause.
    const error = await db.execute(sql`select 1`).then(
      () => null,
      (e: unknown) => e as Error & { cause?: Error },
    );
    expect(error?.cause?.message).toBe('test database used after it was dropped');
    const next = await freshDatabase();
    try {
      expect(client(next)).toBe(client(first));
      await next.database.db.execute(sql`select 1`);
    } finally {
      await next.drop();
    }
  });
});
