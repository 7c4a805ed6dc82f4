import type { FastifyInstance } from 'fastify';
import { AppError } from '../../domain/errors.js';

/**
 * Counters of failures only (wrong passwords), unlike the rate-limit guard, which spends a unit on
 * every request. `count` reads without spending; `hit` records one failure. Fixed windows that
 * start at the first failure. Redis when REDIS_URL is set (shared by every instance), in-process
 * otherwise; Redis errors fail open like the rate limiter (count 0, hit dropped, warning logged).
 */
export interface FailureCounter {
  count(key: string): Promise<{ count: number; retryAfterSeconds: number }>;
  hit(key: string): Promise<void>;
}

export function createFailureCounter(app: FastifyInstance, name: string, windowMs: number): FailureCounter {
  const { redis, config, log } = app.container;
  const prefix = `${config.redisKeyPrefix}fail:${name}:`;
  let lastWarning = 0;
  const warn = (err: unknown) => {
    if (Date.now() - lastWarning < 30_000) return;
    lastWarning = Date.now();
    log.warn({ err: (err as Error).message, counter: name }, 'failure counter unavailable; failing open');
  };

  if (redis) {
    return {
      async count(key) {
        try {
          const [[, value], [, ttl]] = (await redis
            .multi()
            .get(prefix + key)
            .pttl(prefix + key)
            .exec()) as [[unknown, string | null], [unknown, number]];
          return { count: Number(value ?? 0), retryAfterSeconds: Math.max(1, Math.ceil(Number(ttl) / 1000)) };
        } catch (err) {
          warn(err);
          return { count: 0, retryAfterSeconds: 1 };
        }
      },
      async hit(key) {
        try {
          await redis
            .multi()
            .set(prefix + key, '0', 'PX', windowMs, 'NX')
            .incr(prefix + key)
            .exec();
        } catch (err) {
          warn(err);
        }
      },
    };
  }

  const entries = new Map<string, { count: number; resetAt: number }>();
  const live = (key: string) => {
    const entry = entries.get(key);
    if (entry && entry.resetAt <= Date.now()) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };
  return {
    async count(key) {
      const entry = live(key);
      return {
        count: entry?.count ?? 0,
        retryAfterSeconds: entry ? Math.max(1, Math.ceil((entry.resetAt - Date.now()) / 1000)) : 1,
      };
    },
    async hit(key) {
      const entry = live(key);
      if (entry) entry.count += 1;
      else {
        if (entries.size > 100_000) {
          for (const k of entries.keys()) if (!live(k)) entries.delete(k);
        }
        entries.set(key, { count: 1, resetAt: Date.now() + windowMs });
      }
    },
  };
}

export function tooManyFailures(retryAfterSeconds: number): AppError {
  return new AppError(
    'RATE_LIMITED',
    `Too many failed attempts; retry in ${retryAfterSeconds} s`,
    undefined,
    {
      'retry-after': String(retryAfterSeconds),
    },
  );
}
