import type { FastifyInstance } from 'fastify';
import type { Config } from '../../src/config/index.js';
import type { Container } from '../../src/container.js';
import type { Database } from '../../src/db/client.js';
import { buildApp } from '../../src/http/app.js';
import { ManualClock } from '../../src/lib/clock.js';
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
}

/** The whole service on a fresh database (or `shareWith`'s), for tests of the HTTP surfaces. */
export async function buildTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const clock = options.clock ?? options.shareWith?.clock ?? new ManualClock();
  const config = testConfig(options.env, options.shareWith?.config);
  const shared = options.shareWith;
  const fresh = shared ? undefined : await freshDatabase();
  const database = shared ? shared.database : fresh!.database;
  const configure = (container: Container) => {
    applyReplacements(container, options);
    options.configure?.(container);
  };
  const app = await buildApp({ config, database, clock, logger: false, configure });
  await app.ready();
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
