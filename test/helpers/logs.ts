import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config/index.js';
import { createContainer, type Container } from '../../src/container.js';
import { buildApp, loggerOptions } from '../../src/http/app.js';
import { silentLogger } from '../../src/lib/logger.js';
import { ADMIN_TOKEN, BASE_URL, type TestApp } from './app.js';

/**
 * An app on `t`'s database at LOG_LEVEL=info with the process's logger options, its log lines
 * captured: runs `run` against it, closes it, and returns every line written. `prepare` may
 * replace container parts before the app is built (to make a request fail, say).
 */
export async function logLinesOf(
  t: TestApp,
  run: (app: FastifyInstance) => Promise<void>,
  prepare?: (container: Container) => void,
): Promise<string[]> {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const config = loadConfig({
    PUBLIC_BASE_URL: BASE_URL,
    ADMIN_TOKEN,
    LOG_LEVEL: 'info',
    WORKER_ENABLED: 'false',
    DATABASE_URL: 'memory://',
  });
  const container = createContainer({ config, database: t.database, clock: t.clock, log: silentLogger });
  prepare?.(container);
  const app = await buildApp({ container, logger: { ...(loggerOptions(config) as object), stream } });
  try {
    await run(app);
  } finally {
    await app.close();
    await container.close();
  }
  return lines;
}
