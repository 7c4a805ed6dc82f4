import pino from 'pino';
import { createContainer } from './container.js';
import { openDatabase } from './db/client.js';
import { loggerOptions } from './http/app.js';
import { systemClock } from './lib/clock.js';
import { configOrExit, onShutdown } from './lifecycle.js';

/**
 * `npm run worker`: the background worker alone, no HTTP server. Run one or more next to API
 * instances started with WORKER_ENABLED=false; they share the database (and Redis). The worker
 * runs regardless of WORKER_ENABLED, which only concerns `npm start`.
 */
async function main(): Promise<void> {
  const config = configOrExit();
  const log = pino(loggerOptions(config) as pino.LoggerOptions);
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  await database.migrate();
  const container = createContainer({ config, database, clock: systemClock, log });
  await container.startup();
  container.worker.start();
  log.info({ workerId: container.worker.workerId, concurrency: config.worker.concurrency }, 'worker started');

  onShutdown(log, config.shutdownGraceSeconds * 1000, async () => {
    await container.worker.stop();
    container.redis?.disconnect();
    await database.close();
  });
}

main().catch((err) => {
  process.stderr.write(`Worker start-up failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
