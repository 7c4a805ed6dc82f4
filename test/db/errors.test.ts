import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable, isUniqueViolation } from '../../src/db/errors.js';

/** What the error handler turns into 503 SERVICE_UNAVAILABLE (see test/faults for the real outage). */
describe('isDatabaseUnavailable', () => {
  const wrapped = (cause: unknown) => Object.assign(new Error('Failed query: select 1'), { cause });

  it('recognises a server going away, refusing or timing out, also wrapped by Drizzle', () => {
    const cases: unknown[] = [
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
      Object.assign(new Error('the database system is shutting down'), { code: '57P03' }),
      Object.assign(new Error('sorry, too many clients already'), { code: '53300' }),
      Object.assign(new Error('connection failure'), { code: '08006' }),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      new Error('Client has encountered a connection error and is not queryable'),
    ];
    for (const err of cases) {
      expect(isDatabaseUnavailable(err)).toBe(true);
      expect(isDatabaseUnavailable(wrapped(err))).toBe(true);
    }
  });

  it('leaves query errors and everything else alone', () => {
    const cases: unknown[] = [
      Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' }),
      Object.assign(new Error('syntax error at or near "x"'), { code: '42601' }),
      Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }),
      new TypeError("Cannot read properties of undefined (reading 'id')"),
      'a string',
      null,
      undefined,
    ];
    for (const err of cases) {
      expect(isDatabaseUnavailable(err)).toBe(false);
      expect(isDatabaseUnavailable(wrapped(err))).toBe(false);
    }
    expect(isUniqueViolation(wrapped(cases[0]))).toBe(true);
  });
});
