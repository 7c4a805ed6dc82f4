import closeWithGrace from 'close-with-grace';
import { ConfigError, loadConfig, type Config } from './config/index.js';
import type { Logger } from './lib/logger.js';

/** Reads the configuration or stops the process with the offending variable's message. */
export function configOrExit(): Readonly<Config> {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`Configuration error: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}

/**
 * SIGTERM / SIGINT → `stop(graceMs)` once, then exit 0 (1 after an uncaught error). `stop` bounds
 * its own waiting by the grace; if it still has not finished `graceMs + 10 s` after the signal,
 * the process exits 1 rather than hang. A second signal exits at once.
 */
export function onShutdown(log: Logger, graceMs: number, stop: (graceMs: number) => Promise<void>): void {
  closeWithGrace(
    {
      delay: graceMs + 10_000,
      logger: { error: (message: unknown) => log.error(String(message)) },
    },
    async ({ signal, err }) => {
      if (err) log.error({ err }, 'shutting down after an error');
      else log.info({ signal, graceSeconds: graceMs / 1000 }, 'shutting down');
      const started = Date.now();
      await stop(graceMs);
      log.info({ ms: Date.now() - started }, 'stopped');
    },
  );
}
