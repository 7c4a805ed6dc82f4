import { PGlite } from '@electric-sql/pglite';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { columnList, placeholders, reusable, rowValues, typedValueRows } from '../../src/db/reusable.js';
import { wrapPglite } from '../../src/db/pglite.js';
import { sandboxSettings } from '../../src/db/schema/index.js';
import { freshDatabase, type FreshDatabase } from '../helpers/database.js';

describe('reusable statements', () => {
  let fresh: FreshDatabase;
  beforeAll(async () => {
    fresh = await freshDatabase();
  });
  afterAll(() => fresh.drop());

  const insert = reusable((db) =>
    db
      .insert(sandboxSettings)
      .values({ name: sql.placeholder('name'), value: sql.placeholder('value') })
      .returning(),
  );
  const read = reusable((db) =>
    db
      .select()
      .from(sandboxSettings)
      .where(eq(sandboxSettings.name, sql.placeholder('name'))),
  );

  test('an insert written in SQL: typed VALUES rows from placeholders, columns by name, one statement', async () => {
    const insertRows = reusable((db) => {
      const added$ = db.$with('added', { name: sandboxSettings.name, value: sandboxSettings.value }).as(
        sql`insert into ${sandboxSettings} (${columnList(sandboxSettings, ['name', 'value'])})
            select * from (values ${typedValueRows(sandboxSettings, ['name', 'value'], 2)}) as v returning *`,
      );
      return db.with(added$).select().from(added$);
    });
    const rows = await insertRows(
      fresh.database.db,
      rowValues([
        { name: 'typed.a', value: 1 },
        { name: 'typed.b', value: 2 },
      ]),
    );
    expect(rows.sort((x, y) => x.value - y.value)).toEqual([
      { name: 'typed.a', value: 1 },
      { name: 'typed.b', value: 2 },
    ]);
  });

  test('bind new values on every run, on the pool and inside a transaction', async () => {
    const { db } = fresh.database;
    expect(await insert(db, { name: 'a', value: 1 })).toEqual([{ name: 'a', value: 1 }]);
    expect(await read(db, { name: 'a' })).toEqual([{ name: 'a', value: 1 }]);
    await db.transaction(async (tx) => {
      expect(await insert(tx, { name: 'b', value: 2 })).toEqual([{ name: 'b', value: 2 }]);
      // The transaction's own connection: it sees its uncommitted row.
      expect(await read(tx, { name: 'b' })).toEqual([{ name: 'b', value: 2 }]);
    });
    expect(await read(db, { name: 'b' })).toEqual([{ name: 'b', value: 2 }]);
  });

  test('a run inside a transaction that rolls back leaves nothing', async () => {
    const { db } = fresh.database;
    await expect(
      db.transaction(async (tx) => {
        await insert(tx, { name: 'c', value: 3 });
        expect(await read(tx, { name: 'c' })).toHaveLength(1);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await read(db, { name: 'c' })).toEqual([]);
  });

  test('a multi-row insert binds each row to its own placeholders', async () => {
    const columns = ['name', 'value'] as const;
    const insertTwo = reusable((db) =>
      db
        .insert(sandboxSettings)
        .values([0, 1].map((i) => placeholders(columns, `${i}.`)) as never)
        .returning(),
    );
    const rows = [
      { name: 'd', value: 4 },
      { name: 'e', value: 5 },
    ];
    expect(await insertTwo(fresh.database.db, rowValues(rows))).toEqual(rows);
    expect(
      await insertTwo(
        fresh.database.db,
        rowValues([
          { name: 'f', value: 6 },
          { name: 'g', value: 7 },
        ]),
      ),
    ).toEqual([
      { name: 'f', value: 6 },
      { name: 'g', value: 7 },
    ]);
  });

  // The bench runs PostgreSQL then PGlite in one process: a statement built on one driver must
  // not be run through the other's prepared-query class.
  test.skipIf(!process.env.TEST_DATABASE_URL)(
    'one statement serves both drivers in one process',
    async () => {
      const pglite = wrapPglite(new PGlite());
      await pglite.migrate();
      try {
        await insert(fresh.database.db, { name: 'pg', value: 8 });
        await insert(pglite.db, { name: 'pglite', value: 9 });
        await pglite.db.transaction(async (tx) => {
          expect(await read(tx, { name: 'pglite' })).toEqual([{ name: 'pglite', value: 9 }]);
        });
        expect(await read(fresh.database.db, { name: 'pg' })).toEqual([{ name: 'pg', value: 8 }]);
        expect(await read(fresh.database.db, { name: 'pglite' })).toEqual([]);
      } finally {
        await pglite.close();
      }
    },
  );
});
