import { PGlite, type QueryOptions } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { date, interval, numeric, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { withDrizzleParsers } from '../../src/db/pglite.js';

/**
 * drizzle passes the same text parsers with every PGlite query, and PGlite copies its whole type
 * table for each query that passes parsers (docs/performance.md, "PGlite: the parsers of every
 * query"). `withDrizzleParsers` puts them in the client's table once and drops them from drizzle's
 * queries: the results must not change, and any other parsers must still apply.
 */
const samples = pgTable('samples', {
  id: text('id').primaryKey(),
  at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
  localAt: timestamp('local_at', { mode: 'string' }).notNull(),
  day: date('day').notNull(),
  period: interval('period').notNull(),
  amounts: numeric('amounts').array().notNull(),
  times: timestamp('times', { mode: 'string' }).array().notNull(),
});

const SCHEMA = `
  create table samples (
    id text primary key, at timestamptz not null, local_at timestamp not null, day date not null,
    period interval not null, amounts numeric[] not null, times timestamp[] not null
  );
  insert into samples values
    ('a', '2026-11-26 10:11:12.345+00', '2026-11-26 10:11:12', '2026-11-26', '1 day 02:03:04',
     '{1.50,2.25}', '{"2026-01-01 00:00:00","2026-02-01 12:00:00"}');
`;

/** What the wrapped client's underlying query received, per call. */
let received: Array<QueryOptions | undefined>;
let plain: PGlite;
let wrapped: PGlite;

beforeAll(async () => {
  plain = await PGlite.create();
  wrapped = await PGlite.create();
  for (const client of [plain, wrapped]) await client.exec(SCHEMA);
  received = [];
  const query = wrapped.query.bind(wrapped);
  wrapped.query = ((text: string, params?: unknown[], options?: QueryOptions) => {
    received.push(options);
    return query(text, params, options);
  }) as PGlite['query'];
  withDrizzleParsers(wrapped);
});
afterAll(async () => {
  await plain.close();
  await wrapped.close();
});

/** The same reads through drizzle: typed select (array rows), raw SQL (object rows), in a transaction. */
async function reads(client: PGlite) {
  const db = drizzle(client);
  return {
    select: await db.select().from(samples),
    raw: (await db.execute(sql`select * from samples`)).rows,
    inTransaction: await db.transaction(async (tx) => tx.select().from(samples)),
  };
}

describe('withDrizzleParsers', () => {
  test("drizzle's results are the same as on a plain PGlite", async () => {
    const expected = await reads(plain);
    expect(expected.select[0]!.at).toEqual(new Date('2026-11-26T10:11:12.345Z'));
    expect(await reads(wrapped)).toEqual(expected);
  });

  test("drizzle's queries reach PGlite without their parsers", async () => {
    received = [];
    await drizzle(wrapped).select().from(samples);
    expect(received).toHaveLength(1);
    expect(received[0]?.rowMode).toBe('array');
    expect(received[0]?.parsers).toBeUndefined();
  });

  test('other parsers still apply, and raw queries get those types as text', async () => {
    const doubled = await wrapped.query<{ n: number }>('select 21 as n', [], {
      parsers: { 23: (value: string) => Number(value) * 2 },
    });
    expect(doubled.rows[0]!.n).toBe(42);
    const raw = await wrapped.query<{ at: unknown; n: unknown }>('select at, 7 as n from samples');
    expect(raw.rows[0]).toEqual({ at: '2026-11-26 10:11:12.345+00', n: 7 });
  });
});
