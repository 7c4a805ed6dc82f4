import { sql, type AnyColumn, type SQL } from 'drizzle-orm';

/** One value of a keyset position: a timestamp, a text id, an integer or a boolean. */
export type KeyValue = Date | string | number | boolean;

/**
 * Keyset (seek) pagination: the rows strictly after `position` in an ORDER BY over `columns`
 * that all run in one direction (`desc`: newest first). A row-value comparison, so PostgreSQL
 * walks an index on the same columns straight to the position: a page costs the same however
 * many rows come before it (no OFFSET).
 */
export function keysetAfter(
  columns: readonly AnyColumn[],
  position: readonly KeyValue[],
  direction: 'asc' | 'desc',
): SQL {
  if (columns.length !== position.length || columns.length === 0)
    throw new Error('keysetAfter: one value per column');
  const left = sql.join(
    columns.map((c) => sql`${c}`),
    sql`, `,
  );
  const right = sql.join(
    position.map((v) =>
      v instanceof Date
        ? sql`${v.toISOString()}::timestamptz`
        : typeof v === 'number'
          ? sql`${v}::bigint`
          : typeof v === 'boolean'
            ? sql`${v}::boolean`
            : sql`${v}::text`,
    ),
    sql`, `,
  );
  return direction === 'desc' ? sql`(${left}) < (${right})` : sql`(${left}) > (${right})`;
}

/** What a keyset list function takes: at most `limit` rows after `after` (absent: from the start). */
export interface KeysetPage {
  limit?: number | undefined;
  after?: readonly KeyValue[] | undefined;
}
