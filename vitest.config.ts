import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Crash/outage/scale-out tests spawn servers and databases: `npm run test:faults`.
    exclude: ['test/faults/**', 'node_modules/**'],
    // Each file builds its own app and database; PGlite's first start compiles WASM, and the
    // PostgreSQL run creates a database per app, so allow generous hook time.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
