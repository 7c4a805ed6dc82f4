/** Where the data lives: PostgreSQL or PGlite, and Redis for rate-limit counters shared by instances. */

import { int, str, url, type Env } from './parse.js';

export interface StorageConfig {
  /** Unset: PGlite in `dataDir`; `memory://`: PGlite in memory (tests). */
  databaseUrl: string | undefined;
  /** PostgreSQL: wait for a connection at most this long, then the request answers 503. */
  databaseConnectTimeoutMs: number;
  dataDir: string;
  redisUrl: string | undefined;
  redisKeyPrefix: string;
}

export function storageConfig(env: Env): StorageConfig {
  return {
    databaseUrl: url(env, 'DATABASE_URL', undefined, ['postgres:', 'postgresql:', 'memory:']),
    databaseConnectTimeoutMs: int(env, 'DATABASE_CONNECT_TIMEOUT_MS', 3000, 100, 60_000),
    dataDir: str(env, 'DATA_DIR', './data'),
    redisUrl: url(env, 'REDIS_URL', undefined, ['redis:', 'rediss:']),
    redisKeyPrefix: str(env, 'REDIS_KEY_PREFIX', 'esim:'),
  };
}
