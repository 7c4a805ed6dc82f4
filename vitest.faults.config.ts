import { defineConfig } from 'vitest/config';

/**
 * `npm run test:faults`: crash, outage and scale-out tests. They start a private PostgreSQL and
 * Redis from the installed binaries and the service as child processes, so they run one file at a
 * time, outside the default `npm test`.
 */
export default defineConfig({
  test: {
    include: ['test/faults/**/*.test.ts'],
    testTimeout: 360_000,
    hookTimeout: 180_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
