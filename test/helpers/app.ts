import type { FastifyInstance } from 'fastify';
import type { Config } from '../../src/config/index.js';
import { createContainer, type Container, type ContainerDeps } from '../../src/container.js';
import type { Database } from '../../src/db/client.js';
import { buildApp } from '../../src/http/app.js';
import { ManualClock } from '../../src/lib/clock.js';
import { silentLogger } from '../../src/lib/logger.js';
import { applyReplacements, testConfig, type TestReplacements } from './config.js';
import { freshDatabase } from './database.js';

export { ADMIN_TOKEN, BASE_URL } from './config.js';

export interface TestApp {
  app: FastifyInstance;
  container: Container;
  clock: ManualClock;
  database: Database;
  config: Readonly<Config>;
  close(): Promise<void>;
}

export interface TestAppOptions extends TestReplacements {
  /** Extra environment variables, as a user would set them. */
  env?: Record<string, string | undefined>;
  clock?: ManualClock;
  /** Second instance on the same database (and Redis key space) as this one. */
  shareWith?: TestApp;
  configure?: (container: Container) => void;
  /** Fastify's request logging at this level (to a sink); default: no logger. */
  logLevel?: string;
  /** The eSIM providers, instead of the configured ones (createContainer's option). */
  esimProviders?: ContainerDeps['esimProviders'];
}

export { freshDatabase } from './database.js';

/** The whole service on a fresh database (or `shareWith`'s), for tests of the HTTP surfaces. */
export async function buildTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const clock = options.clock ?? options.shareWith?.clock ?? new ManualClock();
  const config = testConfig(options.env, options.shareWith?.config);
  const shared = options.shareWith;
  const fresh = shared ? undefined : await freshDatabase();
  const database = shared ? shared.database : fresh!.database;
  // As main does: the container first, then the HTTP app on it. The test app owns its container,
  // so closing the app (t.close() or t.app.close()) also stops its worker and Redis client.
  const container = createContainer({
    config,
    database,
    clock,
    log: silentLogger,
    esimProviders: options.esimProviders,
  });
  applyReplacements(container, options);
  options.configure?.(container);
  const app = await buildApp({
    container,
    logger: options.logLevel ? { level: options.logLevel, stream: { write: () => undefined } } : false,
  });
  app.addHook('onClose', () => container.close());
  await app.ready();
  await redisReady(container.redis);
  return {
    app,
    container: app.container,
    clock,
    database,
    config,
    close: async () => {
      await app.close();
      if (fresh) await fresh.drop();
    },
  };
}

/**
 * A deployment's traffic waits for GET /ready, which waits for Redis; a test's first request must
 * not find the connection still opening either (the limiters would count it in-process, and a
 * throttle test would see one attempt fewer in Redis). A Redis that is meant to be unreachable is
 * given up on after 2 s.
 */
async function redisReady(redis: TestApp['container']['redis']): Promise<void> {
  if (!redis || redis.status === 'ready') return;
  let timer: NodeJS.Timeout | undefined;
  let ready: (() => void) | undefined;
  // Not events.once: it rejects on the 'error' events an unreachable Redis emits.
  await new Promise<void>((resolve) => {
    ready = resolve;
    redis.once('ready', resolve);
    timer = setTimeout(resolve, 2_000);
  });
  clearTimeout(timer);
  redis.off('ready', ready!);
}
