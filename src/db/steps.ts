import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from './database.js';
import { prefixed } from './reusable.js';

/**
 * One write (or check) of one repository inside another operation's statement: a CTE of that
 * statement. The repository that owns the table writes its SQL (a step factory next to its other
 * statements); the operation composing the statement names each step and chooses which earlier
 * step's rows a later one reads. A step's values are placeholders under its own name
 * (`<name>.<field>`), filled by `bind(step, values)`: no module writes another's CTE names or
 * placeholders, and the statement is still built once (src/db/reusable.ts).
 *
 * Why one statement and not a transaction of repository calls: an order's writes span five
 * tables; as separate statements they cost 10–11 round trips and commits instead of 2, which took
 * orders from 0.52× to 0.36–0.43× of the raw-SQL floor (docs/performance.md, "One statement per
 * write"). The SQL each statement produces is checked in under sql/ (npm run generate).
 */
export interface Step<V extends object, W = unknown> {
  readonly name: string;
  /** The CTE, built inside the statement's build function. */
  cte(db: DbOrTx): W;
  /** Type only: the values `bind` takes. */
  readonly values?: V;
}

/**
 * Defines a step named `name`: `build(db, p, name)` returns `db.$with(name, …).as(…)`, writing
 * `p(field)` for each value.
 */
export function step<V extends object, W>(
  name: string,
  build: (db: DbOrTx, p: (field: keyof V & string) => SQL, name: string) => W,
): Step<V, W> {
  // The placeholder itself (not wrapped in sql``): in a condition like eq(column, p(…)) Drizzle
  // then binds it with the column's encoder, as it would a value.
  const p = (field: keyof V & string) => sql.placeholder(`${name}.${field}`) as unknown as SQL;
  let built: { db: DbOrTx; cte: W } | undefined;
  return {
    name,
    // A statement's build calls each step once per driver; one step may be read by several later
    // steps, so the CTE object is kept per database handle.
    cte(db) {
      if (built?.db !== db) built = { db, cte: build(db, p, name) };
      return built.cte;
    },
  };
}

/** The rows of an earlier step of the same statement: `from ${rowsOf(placed)}`. */
export function rowsOf(earlier: Step<object>): SQL {
  return sql`${sql.identifier(earlier.name)}`;
}

/** True when an earlier step of the same statement produced a row. */
export function produced(earlier: Step<object>): SQL {
  return sql`exists (select 1 from ${rowsOf(earlier)})`;
}

/** The values of a step's placeholders. */
export function bind<V extends object>(s: Step<V>, values: V): Record<string, unknown> {
  return prefixed(`${s.name}.`, values as Record<string, unknown>);
}
