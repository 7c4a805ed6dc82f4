import { buildApp } from './http/app.js';
import { configOrExit, onShutdown } from './lifecycle.js';

/**
 * Start-up: config → database + migrations → HTTP + background worker → graceful stop on SIGTERM:
 * stop accepting, let requests in flight and running jobs finish (up to SHUTDOWN_GRACE_SECONDS),
 * close the database, exit 0.
 */
async function main(): Promise<void> {
  const config = configOrExit();
  const app = await buildApp({ config });
  if (
    config.esimProvider === 'sandbox' &&
    (config.cardProvider === 'stripe' || config.cryptoProvider === 'cryptomus')
  ) {
    // Allowed (staging with provider test keys), but in production customers would pay real money
    // for eSIMs that do not exist: docs/security.md.
    app.log.warn('ESIM_PROVIDER=sandbox beside a real payment provider: eSIMs sold are not real');
  }
  await app.container.startup();
  if (config.worker.enabled) app.container.worker.start();

  onShutdown(app.log, config.shutdownGraceSeconds * 1000, async (graceMs) => {
    // The worker stops claiming now, in parallel with the HTTP drain; app.close() awaits it again.
    const workerStopped = app.container.worker.stop();
    // close() stops accepting connections, waits for requests in flight, then runs the onClose
    // hooks (worker stop, Redis, database). Requests still running after the grace are cut off.
    const cutOff = setTimeout(() => {
      app.log.warn('shutdown grace over: closing connections still open');
      app.server.closeAllConnections();
    }, graceMs);
    try {
      await app.close();
    } finally {
      clearTimeout(cutOff);
    }
    await workerStopped;
  });

  await app.listen({ port: config.port, host: config.host });
  app.log.info(`docs at ${config.publicBaseUrl}/docs`);
}

main().catch((err) => {
  process.stderr.write(`Start-up failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
