import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../src/config/index.js';
import { createContainer, type Container } from '../../src/container.js';
import type { Database } from '../../src/db/client.js';
import { ManualClock } from '../../src/lib/clock.js';
import { applyReplacements, testConfig, type TestReplacements } from './config.js';
import { freshDatabase } from './database.js';

/**
 * The rules tier: the domain services on a fresh database, without the HTTP app (no Fastify, no
 * routes, no schemas). Tests call services and plain functions; test/http covers the surfaces.
 */
export interface TestContainer {
  container: Container;
  clock: ManualClock;
  database: Database;
  config: Readonly<Config>;
  close(): Promise<void>;
}

export interface TestContainerOptions extends TestReplacements {
  env?: Record<string, string | undefined>;
  clock?: ManualClock;
}

const noop = () => undefined;
/** A logger that drops everything, as `logger: false` does for the test apps. */
export const silentLogger: FastifyBaseLogger = {
  level: 'silent',
  fatal: noop,
  error: noop,
  warn: noop,
  info: noop,
  debug: noop,
  trace: noop,
  silent: noop,
  child: () => silentLogger,
};

export async function buildTestContainer(options: TestContainerOptions = {}): Promise<TestContainer> {
  const clock = options.clock ?? new ManualClock();
  const config = testConfig(options.env);
  const fresh = await freshDatabase();
  const container = createContainer({ config, database: fresh.database, clock, log: silentLogger });
  applyReplacements(container, options);
  return {
    container,
    clock,
    database: fresh.database,
    config,
    close: async () => {
      await container.worker.stop();
      container.redis?.disconnect();
      await fresh.drop();
    },
  };
}
