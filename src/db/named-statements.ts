import { createHash } from 'node:crypto';
import type pg from 'pg';

/** Distinct statement texts named per process; any beyond run unnamed (parsed each time). */
export const MAX_NAMED_STATEMENTS = 2000;

/**
 * Names every parameterised statement a client sends after a hash of its text, so node-postgres
 * prepares it once per connection (`Parse` only the first time) and PostgreSQL neither parses
 * nor, after a few executions, plans it again. The service's statements come from a fixed set of
 * query shapes, so the set of names is small; it is capped at MAX_NAMED_STATEMENTS all the same.
 * Statements without parameters (BEGIN, COMMIT, DDL) stay simple queries.
 *
 * Measured on the order path: parse and plan were about half of PostgreSQL's time per statement
 * (docs/performance.md, "Statements built once and named").
 */
export function nameStatementsByText(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (config: unknown, values?: unknown, callback?: unknown) => {
    if (
      config !== null &&
      typeof config === 'object' &&
      !(config as pg.QueryConfig).name &&
      typeof (config as pg.QueryConfig).text === 'string' &&
      hasValues(values ?? (config as pg.QueryConfig).values)
    ) {
      const name = nameFor((config as pg.QueryConfig).text);
      if (name) return query({ ...config, name }, values, callback);
    }
    return query(config, values, callback);
  };
}

const names = new Map<string, string>();

function nameFor(text: string): string | undefined {
  const known = names.get(text);
  if (known || names.size >= MAX_NAMED_STATEMENTS) return known;
  const name = `s_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
  names.set(text, name);
  return name;
}

function hasValues(values: unknown): boolean {
  return Array.isArray(values) && values.length > 0;
}
