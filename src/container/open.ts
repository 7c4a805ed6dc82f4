import type { Config } from '../config/index.js';
import { openDatabase } from '../db/client.js';
import { systemClock, type Clock } from '../lib/clock.js';
import type { Logger } from '../lib/logger.js';
import { createContainer, type Container } from '../container.js';

/**
 * The database named by the configuration (PostgreSQL, or PGlite in DATA_DIR or memory),
 * migrated, with the container built on it: what `main`, the worker process and the scripts
 * start from. Its `close()` also closes the database, after the worker and Redis.
 */
export async function openContainer(
  config: Readonly<Config>,
  options: { log: Logger; clock?: Clock },
): Promise<Container> {
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    connectTimeoutMs: config.databaseConnectTimeoutMs,
  });
  try {
    await database.migrate();
  } catch (err) {
    await database.close();
    throw err;
  }
  const container = createContainer({
    config,
    database,
    clock: options.clock ?? systemClock,
    log: options.log,
  });
  const closeServices = () => container.close();
  return {
    ...container,
    async close() {
      await closeServices();
      await database.close();
    },
  };
}
