import { openContainer } from './container/open.js';
import { buildApp } from './http/app.js';
import { listenText } from './http/shared/web-security.js';
import { createLogger } from './lib/log-redaction.js';
import { configOrExit, onShutdown } from './lifecycle.js';

/**
 * `npm start`, the composition root: config → logger → database + migrations + container → the
 * HTTP app on that container, plus the background worker unless WORKER_ENABLED=false → graceful
 * stop on SIGTERM (docs/operations.md "Shutdown").
 */
async function main(): Promise<void> {
  const config = configOrExit();
  const log = createLogger(config.logLevel);
  const container = await openContainer(config, { log });
  const app = await buildApp({ container, loggerInstance: log });
  if (
    config.esimProvider === 'sandbox' &&
    (config.cardProvider === 'stripe' || config.cryptoProvider === 'cryptomus')
  ) {
    // Allowed (staging with provider test keys), but in production customers would pay real money
    // for eSIMs that do not exist: docs/security.md.
    log.warn('ESIM_PROVIDER=sandbox beside a real payment provider: eSIMs sold are not real');
  }
  await container.startup();
  if (config.worker.enabled) container.worker.start();

  onShutdown(log, config.shutdownGraceSeconds * 1000, async (graceMs) => {
    // 1. The worker stops claiming now, in parallel with the HTTP drain.
    const workerStopped = container.worker.stop();
    // 2. close() stops accepting connections and waits for requests in flight; those still
    //    running after the grace are cut off.
    const cutOff = setTimeout(() => {
      log.warn('shutdown grace over: closing connections still open');
      app.server.closeAllConnections();
    }, graceMs);
    try {
      await app.close();
    } finally {
      clearTimeout(cutOff);
    }
    // 3. The jobs running finish (bounded by the grace as well), then Redis and the database close.
    await workerStopped;
    await container.close();
  });

  // The printed address is one the web app works at (H11): see listenText.
  await app.listen({ port: config.port, host: config.host, listenTextResolver: listenText(config) });
  // Route schemas compile on first use; the rest now, between requests, so an error still shows.
  app
    .compileSchemas()
    .catch((err: unknown) => log.error({ err: String(err) }, 'a route schema does not compile'));
  container
    .warmUp()
    .catch((err: unknown) =>
      log.warn({ err: String(err) }, 'warm-up failed; the first search builds its index'),
    );
  log.info(`docs at ${config.publicBaseUrl}/docs`);
}

main().catch((err) => {
  process.stderr.write(`Start-up failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
