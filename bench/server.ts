/**
 * The service as the benchmark runs it: a child process of bench/run.ts, configured only through
 * the environment (like `npm start`), listening on an ephemeral port that it reports over IPC.
 * Start-up tasks and the worker are skipped: bench/run.ts has already migrated and seeded.
 */
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../src/config/index.js';
import { buildApp } from '../src/http/app.js';

const app = await buildApp({ config: loadConfig() });
await app.listen({ port: 0, host: '127.0.0.1' });
process.send?.({ port: (app.server.address() as AddressInfo).port });
process.on('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
