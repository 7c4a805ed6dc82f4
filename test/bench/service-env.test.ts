import { describe, expect, test } from 'vitest';
import { serviceEnv } from '../../bench/prepare.js';
import { loadConfig } from '../../src/config/index.js';

/**
 * Benches run the service in the default configuration (issue 29): a path that the bench takes
 * and users do not is a defect. The bench may point the service at its database and raise the
 * rate limits and the per-client share of password hashing (the same guards run, with budgets the
 * load cannot spend: its connections stand for many clients); nothing else.
 */
describe('the bench service environment', () => {
  test("is npm start's default configuration but for the database and the limits", () => {
    const { LOG_LEVEL: _ignored, ...inherited } = process.env;
    for (const database of ['postgresql', 'pglite'] as const) {
      const url = database === 'postgresql' ? 'postgres://postgres@127.0.0.1:5432/bench' : '';
      const bench = loadConfig(serviceEnv(database, url, '/tmp/bench-data'));
      const plain = loadConfig({ ...inherited, DATABASE_URL: url, DATA_DIR: '/tmp/bench-data' });
      expect(bench.logLevel).toBe('info');
      expect(bench.abuseLimits.passwordHashPerClient).toBe(bench.abuseLimits.passwordHashQueue);
      const perClient = { ...plain.abuseLimits, passwordHashPerClient: 0 };
      expect({
        ...bench,
        rateLimits: null,
        abuseLimits: { ...bench.abuseLimits, passwordHashPerClient: 0 },
      }).toEqual({
        ...plain,
        rateLimits: null,
        abuseLimits: perClient,
      });
    }
  });
});
