/**
 * The service as the benchmark runs it: a child process of bench/run.ts, configured only through
 * the environment (like `npm start`), listening on an ephemeral port that it reports over IPC.
 * Start-up tasks and the worker are skipped: bench/run.ts has already migrated and seeded.
 */
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../src/config/index.js';
import { openContainer } from '../src/container.js';
import { buildApp } from '../src/http/app.js';
import { createLogger } from '../src/lib/log-redaction.js';

const config = loadConfig();
const log = createLogger(config.logLevel);
const container = await openContainer(config, { log });
const app = await buildApp({ container, loggerInstance: log });
await app.listen({ port: 0, host: '127.0.0.1' });
process.send?.({ port: (app.server.address() as AddressInfo).port });
process.on('SIGTERM', () => {
  void app
    .close()
    .then(() => container.close())
    .then(() => process.exit(0));
});
