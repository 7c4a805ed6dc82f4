import closeWithGrace from 'close-with-grace';
import { ConfigError, loadConfig } from './config/index.js';
import { buildApp } from './http/app.js';

/** Start-up: config → database + migrations → HTTP + background worker → graceful stop on SIGTERM. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`Configuration error: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }

  const app = await buildApp({ config });
  await app.container.startup();
  if (config.worker.enabled) app.container.worker.start();

  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an error');
    else app.log.info({ signal }, 'shutting down');
    // close() stops accepting connections, waits for requests in flight, then runs onClose hooks
    // (worker stop, database close).
    await app.close();
  });

  await app.listen({ port: config.port, host: config.host });
  app.log.info(`docs at ${config.publicBaseUrl}/docs`);
}

main().catch((err) => {
  process.stderr.write(`Start-up failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
