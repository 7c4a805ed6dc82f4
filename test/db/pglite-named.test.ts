import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { withNamedStatements } from '../../src/db/pglite.js';

/**
 * PGlite parses and plans every unnamed statement again; `withNamedStatements` prepares each
 * parameterised statement once under a name (docs/performance.md, "Named statements on PGlite").
 * The answers must be PGlite's own, in and out of transactions, errors included.
 */
let client: PGlite;
let plain: PGlite;

/** How many statements the session has prepared (a query without parameters: PGlite's own path). */
const prepared = async () =>
  (await client.query<{ n: number }>('select count(*)::int as n from pg_prepared_statements')).rows[0]!.n;

beforeAll(async () => {
  plain = await PGlite.create();
  client = withNamedStatements(await PGlite.create());
  for (const db of [plain, client]) {
    await db.exec(`
      create table items (id text primary key, qty int not null, at timestamptz not null, tags text[]);
      insert into items values ('a', 1, '2026-11-26 10:00:00+00', '{x,y}'), ('b', 2, '2026-11-26 11:00:00+00', null);
    `);
  }
});
afterAll(async () => {
  await client.close();
  await plain.close();
});

describe('withNamedStatements', () => {
  test('a parameterised statement is prepared at its second run and answers as PGlite itself does', async () => {
    const before = await prepared();
    // A text run once is not named (one-off statements would only fill the session).
    expect((await client.query('select $1::int + 1 as n', [41])).rows).toEqual([{ n: 42 }]);
    expect(await prepared()).toBe(before);
    const text = 'select id, qty, at, tags from items where qty >= $1 order by id';
    for (const qty of [1, 2, 1]) {
      expect(await client.query(text, [qty])).toEqual(await plain.query(text, [qty]));
      expect(await client.query(text, [qty], { rowMode: 'array' })).toEqual(
        await plain.query(text, [qty], { rowMode: 'array' }),
      );
    }
    expect(await prepared()).toBe(before + 1);
    // Writes report their row count; nulls and arrays bind as PGlite binds them.
    const insert = 'insert into items (id, qty, at, tags) values ($1, $2, $3, $4)';
    const written = await client.query(insert, ['c', 3, new Date('2026-11-26T12:00:00Z'), ['z']]);
    expect(written.affectedRows).toBe(1);
    await client.query(insert, ['d', 4, '2026-11-26 13:00:00+00', null]);
    expect((await client.query('select tags from items where id = $1', ['c'])).rows).toEqual([
      { tags: ['z'] },
    ]);
  });

  test('the same text with other declared parameter types is another statement', async () => {
    const text = 'select $1 as v';
    const asText = { paramTypes: [25] };
    const asInt = { paramTypes: [23] };
    for (let i = 0; i < 2; i++) {
      expect((await client.query(text, ['7'], asText)).rows).toEqual([{ v: '7' }]);
      expect((await client.query(text, ['7'], asInt)).rows).toEqual([{ v: 7 }]);
    }
  });

  test('inside a transaction, and a rollback undoes it', async () => {
    await client.transaction(async (tx) => {
      await tx.query('update items set qty = qty + $1 where id = $2', [10, 'a']);
      expect((await tx.query('select qty from items where id = $1', ['a'])).rows).toEqual([{ qty: 11 }]);
      await tx.rollback();
    });
    expect((await client.query('select qty from items where id = $1', ['a'])).rows).toEqual([{ qty: 1 }]);
  });

  test('an error keeps its SQLSTATE and leaves the client usable', async () => {
    await expect(
      client.query('insert into items (id, qty, at) values ($1, $2, now())', ['a', 1]),
    ).rejects.toMatchObject({ code: '23505' });
    await expect(client.query('select qty from items where id = $1', ['a'])).resolves.toMatchObject({
      rows: [{ qty: 1 }],
    });
  });

  test('statements dropped by DISCARD ALL or changed by the schema are prepared again', async () => {
    const text = 'select * from items where id = $1';
    await client.query(text, ['a']);
    await client.exec('discard all');
    expect(await prepared()).toBe(0);
    expect((await client.query(text, ['a'])).rows).toHaveLength(1);

    await client.exec('alter table items add column note text');
    // PostgreSQL refuses the stale plan once ("cached plan must not change result type")…
    await expect(client.query(text, ['a'])).rejects.toMatchObject({ code: '0A000' });
    // …and the next run prepares it again.
    expect(Object.keys((await client.query(text, ['a'])).rows[0]!)).toContain('note');
  });
});
