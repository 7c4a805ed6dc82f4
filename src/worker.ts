import { openContainer } from './container/open.js';
import { createLogger } from './lib/log-redaction.js';
import { configOrExit, onShutdown } from './lifecycle.js';

/**
 * `npm run worker`: the background worker alone, no HTTP app. Run one or more next to API
 * instances started with WORKER_ENABLED=false; they share the database (and Redis). The worker
 * runs regardless of WORKER_ENABLED, which only concerns `npm start`.
 */
async function main(): Promise<void> {
  const config = configOrExit();
  const log = createLogger(config.logLevel);
  const container = await openContainer(config, { log });
  await container.startup();
  container.worker.start();
  log.info({ workerId: container.worker.workerId, concurrency: config.worker.concurrency }, 'worker started');

  // Stop claiming, let the jobs running finish (up to the grace), close Redis and the database.
  onShutdown(log, config.shutdownGraceSeconds * 1000, () => container.close());
}

main().catch((err) => {
  process.stderr.write(`Worker start-up failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
