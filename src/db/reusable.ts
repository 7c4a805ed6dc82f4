import { getTableColumns, is, Param, Placeholder, sql, type SQL, type Table } from 'drizzle-orm';
import type { DbOrTx } from './database.js';

/**
 * Drizzle binds a placeholder with its column's encoder even when the value is null (a nullable
 * timestamp would call null.toISOString()), where a value given to the builder skips the encoder
 * for null. Here null and undefined bind as NULL, as they do through the builder.
 */
function nullSafe<P>(prepared: P): P {
  const target = prepared as P & { params?: unknown[] };
  if (!Array.isArray(target.params)) return prepared;
  target.params = target.params.map((p) => {
    if (!is(p, Param) || !is(p.value, Placeholder)) return p;
    const encoder = p.encoder;
    return new Param(p.value, {
      mapToDriverValue: (value: unknown) =>
        value === null || value === undefined ? null : encoder.mapToDriverValue(value),
    });
  });
  return prepared;
}

interface Prepared<R> {
  execute(values?: Record<string, unknown>): Promise<R>;
}

interface Preparable<R> {
  prepare(name: string): Prepared<R>;
  toSQL(): { sql: string; params: unknown[] };
}

/** A statement built once, run with its values; `toSQL(db)` is its text (the SQL snapshots, sql/). */
export interface Reusable<R> {
  (db: DbOrTx, values: Record<string, unknown>): Promise<R>;
  toSQL(db: DbOrTx): { sql: string; params: unknown[] };
}

/**
 * A statement Drizzle builds once. `build` writes it with `sql.placeholder(name)` for every
 * value; each call binds `values` and runs it on the database or transaction it is given, with
 * the same results as the builder's own execute.
 *
 * Why: building a statement (Drizzle walking its SQL chunks) was the largest share of the
 * service's CPU per order (docs/performance.md, "Statements built once and named"). Drizzle's own
 * `.prepare()` keeps the built statement but is bound to the session it was made on (the pool),
 * so it cannot run inside a transaction; here the built statement is kept and the caller's connection is swapped in. That
 * reaches into the driver sessions' `client` field (drizzle-orm is pinned to an exact version);
 * test/db/reusable.test.ts checks on both databases that a run inside a transaction uses that
 * transaction.
 */
export function reusable<R>(build: (db: DbOrTx) => Preparable<R>): Reusable<R> {
  // One built statement per driver (node-postgres, PGlite): the prepared object is the driver's
  // own class, and one process may hold both (the bench, tests).
  const templates = new Map<unknown, Prepared<R>>();
  const run = (db: DbOrTx, values: Record<string, unknown>): Promise<R> => {
    const session = (db as unknown as { session: { client: unknown } }).session;
    let template = templates.get(session.constructor);
    if (!template) {
      // Unnamed: on PostgreSQL src/db/named-statements.ts names it after its text.
      template = nullSafe(build(db).prepare(''));
      templates.set(session.constructor, template);
    }
    const bound = Object.create(template) as Prepared<R> & { client: unknown };
    bound.client = session.client;
    return bound.execute(values);
  };
  return Object.assign(run, { toSQL: (db: DbOrTx) => build(db).toSQL() });
}

/**
 * An insert's values for `reusable`: `{ column: sql.placeholder(prefix + column) }` for each
 * column (a prefix keeps two inserts of one statement apart; bind them with `prefixed`).
 */
export function placeholders<C extends string>(columns: readonly C[], prefix = ''): Record<C, Placeholder> {
  return Object.fromEntries(columns.map((c) => [c, sql.placeholder(`${prefix}${c}`)])) as unknown as Record<
    C,
    Placeholder
  >;
}

/** Placeholder names by prefix and column (both from code: a fixed set). */
const prefixedNames = new Map<string, Map<string, string>>();

/**
 * The values of `placeholders(columns, prefix)` from a row. The names are built once: composing
 * them per call would make fresh strings for every key of every order.
 */
export function prefixed(prefix: string, row: Record<string, unknown>): Record<string, unknown> {
  let names = prefixedNames.get(prefix);
  if (!names) {
    names = new Map();
    prefixedNames.set(prefix, names);
  }
  const values: Record<string, unknown> = {};
  for (const column in row) {
    let name = names.get(column);
    if (name === undefined) {
      name = prefix + column;
      names.set(column, name);
    }
    values[name] = row[column];
  }
  return values;
}

/**
 * A placeholder where Drizzle's types want a value (update `.set()`): at run time Drizzle binds it
 * with the column's encoder like any value; only its types do not list placeholders there.
 */
export function placeholderAs<T>(name: string): T {
  return sql.placeholder(name) as unknown as T;
}

/** The values of the placeholders `<i>.<column>` (typedValueRows) for these rows. */
export function rowValues(rows: ReadonlyArray<Record<string, unknown>>): Record<string, unknown> {
  return Object.assign({}, ...rows.map((row, i) => prefixed(`${i}.`, row))) as Record<string, unknown>;
}

/**
 * The row an insert built with `placeholders(columns)` takes: every listed column of the table,
 * each one required (a placeholder without a value fails the statement).
 */
export type InsertRow<
  T extends { $inferInsert: object },
  C extends ReadonlyArray<keyof T['$inferInsert']>,
> = Required<Pick<T['$inferInsert'], C[number]>>;

/** A table's columns by property name, for the helpers below. */
function columnsOf(table: Table) {
  return getTableColumns(table) as Record<string, { name: string; getSQLType(): string }>;
}

/** `"column_a", "column_b", …`: the named columns of `table`, for an insert written in SQL. */
export function columnList<T extends Table>(table: T, columns: ReadonlyArray<keyof T['$inferInsert']>): SQL {
  const all = columnsOf(table);
  return sql.join(
    columns.map((c) => sql.identifier(all[c as string]!.name)),
    sql`, `,
  );
}

/**
 * `count` VALUES rows of the placeholders `<i>.<column>` (bind them with `rowValues`), each value
 * cast to its column's type: a VALUES list takes no type from the columns it is inserted into.
 */
export function typedValueRows<T extends Table>(
  table: T,
  columns: ReadonlyArray<keyof T['$inferInsert']>,
  count: number,
  /** The placeholder of a name (a step's own, src/db/steps.ts); default `sql.placeholder`. */
  placeholder: (name: string) => unknown = (name) => sql.placeholder(name),
): SQL {
  const all = columnsOf(table);
  const rows = Array.from(
    { length: count },
    (_, i) =>
      sql`(${sql.join(
        columns.map((c) => {
          const column = all[c as string]!;
          return sql`${placeholder(`${i}.${String(c)}`)}::${sql.raw(column.getSQLType())}`;
        }),
        sql`, `,
      )})`,
  );
  return sql.join(rows, sql`, `);
}

/**
 * Statements built once per shape (a profile count, which CTEs ride along): `build(...shape)` on
 * the first call with that shape, the same statement on every later one.
 */
export function perShape<A extends Array<string | number | boolean>, S>(
  build: (...shape: A) => S,
): (...shape: A) => S {
  const built = new Map<string, S>();
  return (...shape) => {
    const key = shape.join(':');
    let statement = built.get(key);
    if (!statement) built.set(key, (statement = build(...shape)));
    return statement;
  };
}
