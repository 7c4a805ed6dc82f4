import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * The push service fakes (test/helpers/push-fakes.ts) serve HTTPS with a self-signed certificate
 * the global setup writes here; the test workers trust it through NODE_EXTRA_CA_CERTS, which Node
 * reads only at start-up, so it is in the workers' environment from their first moment.
 */
const testTlsDir = join(tmpdir(), `esim-test-tls-${process.pid}`);

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Crash/outage/scale-out tests spawn servers and databases: `npm run test:faults`.
    exclude: ['test/faults/**', 'node_modules/**'],
    // Migrates one template database per run; every test database is a copy of it.
    globalSetup: ['test/helpers/global-setup.ts'],
    env: { TEST_TLS_DIR: testTlsDir, NODE_EXTRA_CA_CERTS: join(testTlsDir, 'cert.pem') },
    // Each file builds its own apps on their own databases and closes them, so files need no
    // fresh process: one worker runs many files, importing the service and compiling PGlite's
    // WASM once. Two workers even on two cores: much of a test is waiting on the database.
    pool: 'forks',
    isolate: false,
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // The PostgreSQL run creates a database per app, so allow generous hook time.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
