import { sql, type Placeholder } from 'drizzle-orm';
import type { DbOrTx } from './database.js';

interface Prepared<R> {
  execute(values?: Record<string, unknown>): Promise<R>;
}

interface Preparable<R> {
  prepare(name: string): Prepared<R>;
}

/**
 * A statement Drizzle builds once. `build` writes it with `sql.placeholder(name)` for every
 * value; each call binds `values` and runs it on the database or transaction it is given, with
 * the same results as the builder's own execute.
 *
 * Why: building a statement (Drizzle walking its SQL chunks) cost about a third of the service's
 * CPU per order (docs/performance.md, Order path). Drizzle's own `.prepare()` keeps the built
 * statement but is bound to the session it was made on (the pool), so it cannot run inside a
 * transaction; here the built statement is kept and the caller's connection is swapped in. That
 * reaches into the driver sessions' `client` field (drizzle-orm is pinned to an exact version);
 * test/db/reusable.test.ts checks on both databases that a run inside a transaction uses that
 * transaction.
 */
export function reusable<R>(build: (db: DbOrTx) => Preparable<R>) {
  let template: Prepared<R> | undefined;
  return (db: DbOrTx, values: Record<string, unknown>): Promise<R> => {
    // Unnamed: on PostgreSQL src/db/named-statements.ts names it after its text.
    template ??= build(db).prepare('');
    const run = Object.create(template) as Prepared<R> & { client: unknown };
    run.client = (db as unknown as { session: { client: unknown } }).session.client;
    return run.execute(values);
  };
}

/** An insert's values for `reusable`: `{ column: sql.placeholder(column) }` for each column. */
export function placeholders<C extends string>(columns: readonly C[]): Record<C, Placeholder> {
  return Object.fromEntries(columns.map((c) => [c, sql.placeholder(c)])) as unknown as Record<C, Placeholder>;
}

/**
 * A placeholder where Drizzle's types want a value (update `.set()`): at run time Drizzle binds it
 * with the column's encoder like any value; only its types do not list placeholders there.
 */
export function placeholderAs<T>(name: string): T {
  return sql.placeholder(name) as unknown as T;
}
