/**
 * True when a query failed on a unique constraint (SQLSTATE 23505). Drizzle wraps driver errors
 * in DrizzleQueryError with the driver's error as `cause`; both PGlite and pg carry `code`.
 */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  for (let e: unknown = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const { code, constraint: name } = e as { code?: unknown; constraint?: unknown };
    if (code === '23505') return constraint === undefined || name === constraint;
  }
  return false;
}
