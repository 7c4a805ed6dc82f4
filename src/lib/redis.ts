import { createRequire } from 'node:module';
import type * as IORedis from 'ioredis';
import type { Redis } from 'ioredis';
import type { Logger } from './logger.js';

/**
 * The shared Redis connection (rate-limit counters). Commands fail fast while Redis is down
 * instead of queueing, so a Redis outage shows up as an error the caller decides about (the
 * rate limiters count in-process; GET /ready reports 503) rather than as hanging requests.
 */
export function createRedis(url: string, log: Logger): Redis {
  // Loaded only when REDIS_URL is set.
  const { Redis: RedisClient } = createRequire(import.meta.url)('ioredis') as typeof IORedis;
  const redis = new RedisClient(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    lazyConnect: false,
    // Keep trying to reconnect in the background, at most every 2 s.
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  });
  let lastLogged = 0;
  redis.on('error', (err: Error) => {
    const now = Date.now();
    if (now - lastLogged > 30_000) {
      lastLogged = now;
      log.warn({ err: err.message }, 'redis error');
    }
  });
  return redis;
}
