import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../domain/errors.js';

/** One counter family: requests that map to the same key share `max` per `windowMs`. */
export interface RateLimitRule {
  /** Part of every counter key, so rules never share counters (`login:ip`, `login:email`). */
  name: string;
  max: number;
  windowMs: number;
  /** The counter this request spends, or undefined when the rule does not apply to it. */
  key: (request: FastifyRequest) => string | undefined;
}

export type RateLimitGuard = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;
type Outcome = { max: number; remaining: number; resetSeconds: number; exceeded: boolean };
/** What @fastify/rate-limit reads of a request here (see the limiters below). */
type CounterRequest = { counterKey: string; routeOptions: { config: Record<string, never> } };

function rateLimitHeaders(outcome: Outcome): Record<string, string> {
  return {
    'x-ratelimit-limit': String(outcome.max),
    'x-ratelimit-remaining': String(outcome.remaining),
    'x-ratelimit-reset': String(outcome.resetSeconds),
  };
}

const OUTAGE_LOG_INTERVAL_MS = 30_000;

/** In-process counters kept at most per guard (past this, the oldest are dropped). */
export const MAX_LOCAL_COUNTERS = 100_000;

/**
 * Fixed-window limits: on @fastify/rate-limit's Redis store when REDIS_URL is set (one budget
 * shared by every instance), on in-process counters otherwise. Use the returned guard as a
 * preHandler (the body is parsed and validated by then, so a rule can key on a body field).
 *
 * The in-process counters are this module's own few lines (below), not the plugin's local store:
 * the same counters serve while Redis is down, so a single instance and an instance cut off from
 * Redis count the same way, with one in-process store instead of two.
 *
 * Every rule is spent on every request; the tightest one decides the X-RateLimit-* headers, and
 * when any is exceeded the request fails with 429 RATE_LIMITED and Retry-After (seconds).
 *
 * Redis errors fall back to in-process counters: the request is served and counted in this
 * process (the same fixed windows, so each instance allows up to `max` on its own while Redis is
 * away), with a warning when the fallback starts (repeated at most every 30 s) and a note when
 * Redis answers again, which is tried on every request. Refusing every login while Redis is down
 * would turn a cache outage into a full outage; GET /ready reports the outage.
 */
export async function createRateLimitGuard(
  app: FastifyInstance,
  rules: RateLimitRule[],
): Promise<RateLimitGuard> {
  const { redis, config, log } = app.container;
  if (redis && !app.hasDecorator('createRateLimit')) {
    await app.register(rateLimit, { global: false, redis, nameSpace: `${config.redisKeyPrefix}rl:` });
  }
  // The limiter is handed a stand-in request carrying the counter key: keyGenerator reads nothing
  // else, and with numeric max/timeWindow and no allowList @fastify/rate-limit reads only
  // routeOptions.config (groupId) besides. So a counter is named by its rule and key alone.
  const limiters = rules.map((rule) => ({
    rule,
    limiter: redis
      ? app.createRateLimit({
          max: rule.max,
          timeWindow: rule.windowMs,
          skipOnError: false,
          keyGenerator: (request) => (request as unknown as CounterRequest).counterKey,
        })
      : undefined,
  }));

  let lastOutageLog = 0;
  let onFallback = false;
  /** In-process fixed windows: the counters without Redis, and while Redis fails. */
  const local = new Map<string, { count: number; resetAt: number }>();

  function spendLocally(rule: RateLimitRule, key: string): Outcome {
    const now = Date.now();
    if (local.size >= MAX_LOCAL_COUNTERS) {
      for (const [k, v] of local) if (v.resetAt <= now) local.delete(k);
      // Still nearly full of live windows (keys come from user input: addresses, IPs): the oldest
      // tenth goes, so that a flood of new keys pays for this scan once per 10 000 of them.
      for (const k of local.keys()) {
        if (local.size < MAX_LOCAL_COUNTERS * 0.9) break;
        local.delete(k);
      }
    }
    const id = `${rule.name}:${key}`;
    let entry = local.get(id);
    if (!entry || entry.resetAt <= now) {
      entry = { count: 0, resetAt: now + rule.windowMs };
      local.set(id, entry);
    }
    entry.count++;
    return {
      max: rule.max,
      remaining: Math.max(0, rule.max - entry.count),
      resetSeconds: Math.max(1, Math.ceil((entry.resetAt - now) / 1000)),
      exceeded: entry.count > rule.max,
    };
  }

  /** null: nothing counted (only an allowList allows without counting; none is configured). */
  async function spendShared(rule: RateLimitRule, limiter: Limiter, key: string): Promise<Outcome | null> {
    try {
      const stand: CounterRequest = { counterKey: `${rule.name}:${key}`, routeOptions: { config: {} } };
      const result = await limiter(stand as unknown as FastifyRequest);
      if (onFallback) {
        onFallback = false;
        local.clear();
        log.info({ rule: rule.name }, 'rate limiter store is back; using shared counters again');
      }
      if (result.isAllowed) return null;
      const resetSeconds = Math.max(1, result.ttlInSeconds);
      return { max: rule.max, remaining: result.remaining, resetSeconds, exceeded: result.isExceeded };
    } catch (err) {
      if (!onFallback || Date.now() - lastOutageLog > OUTAGE_LOG_INTERVAL_MS) {
        lastOutageLog = Date.now();
        log.warn(
          { err: (err as Error).message, rule: rule.name },
          'rate limiter store unavailable; falling back to in-process counters',
        );
      }
      onFallback = true;
      return spendLocally(rule, key);
    }
  }

  const guard = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const spending: Array<Promise<Outcome | null>> = [];
    for (const { rule, limiter } of limiters) {
      const key = rule.key(request);
      if (key !== undefined)
        spending.push(limiter ? spendShared(rule, limiter, key) : Promise.resolve(spendLocally(rule, key)));
    }
    const outcomes = (await Promise.all(spending)).filter((o): o is Outcome => o !== null);
    if (outcomes.length === 0) return;
    const exceeded = outcomes.filter((o) => o.exceeded);
    const decisive = exceeded.length
      ? exceeded.reduce((a, b) => (b.resetSeconds > a.resetSeconds ? b : a))
      : outcomes.reduce((a, b) => (b.remaining / b.max < a.remaining / a.max ? b : a));
    reply.headers(rateLimitHeaders(decisive));
    if (exceeded.length) {
      throw new AppError(
        'RATE_LIMITED',
        `Too many requests; retry in ${decisive.resetSeconds} s`,
        undefined,
        {
          'retry-after': String(decisive.resetSeconds),
        },
      );
    }
  };
  return guard;
}
