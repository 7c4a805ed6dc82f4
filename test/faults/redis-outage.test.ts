import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  cheapestPlan,
  createCustomer,
  expectMoneySafe,
  sleep,
  startPrivatePostgres,
  startPrivateRedis,
  startService,
  survived,
  waitSettled,
  type PrivatePostgres,
  type PrivateRedis,
  type ServiceProcess,
} from './support.js';

/**
 * Redis stopped under load (REDIS_URL set): the API keeps serving, rate limits fall back to
 * in-process counters with a warning in the log, and go back to Redis when it returns.
 */
const PG_PORT = 25434;
const REDIS_PORT = 26379;
const HTTP_PORT = 3754;
const READ_LIMIT = 20;
const READS = READ_LIMIT + 5;

let pgServer: PrivatePostgres;
let redisServer: PrivateRedis;
let url: string;
let service: ServiceProcess | undefined;

beforeAll(async () => {
  pgServer = await startPrivatePostgres(PG_PORT);
  redisServer = await startPrivateRedis(REDIS_PORT);
  url = await pgServer.createDatabase('faults_redis');
});

afterAll(async () => {
  await service?.kill('SIGKILL');
  await redisServer?.stop();
  await pgServer?.destroy();
});

/** Counter values of the rate limiter in Redis (keys under the service's prefix). */
async function redisCounters(): Promise<number[]> {
  const client = new Redis(redisServer.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await client.connect();
  try {
    const keys = await client.keys('faults:rl:*');
    const values = keys.length ? await client.mget(...keys) : [];
    return values.map(Number);
  } finally {
    client.disconnect();
  }
}

describe('Redis outage', () => {
  it('Redis stopped under load: serving goes on, limits fall back to in-process counters, then back to Redis', async () => {
    service = startService({
      name: 'api',
      port: HTTP_PORT,
      env: {
        DATABASE_URL: url,
        REDIS_URL: redisServer.url,
        REDIS_KEY_PREFIX: 'faults:',
        PARTNER_READ_RATE_LIMIT: String(READ_LIMIT),
        PARTNER_ORDER_RATE_LIMIT: '1000',
        LOG_LEVEL: 'info',
      },
    });
    await service.waitReady();
    const base = service.base;
    const [a, b, c, shopper] = await Promise.all(
      ['redis-a', 'redis-b', 'redis-c', 'redis-shop'].map((tag) => createCustomer(base, tag, 100_00)),
    );
    const plan = await cheapestPlan(base, shopper!.partner);

    async function burstOfReads(partner: Record<string, string>) {
      const replies = [];
      for (let i = 0; i < READS; i++)
        replies.push(await call(base, 'GET', '/api/public/v1/wallet', { headers: partner }));
      return {
        ok: replies.filter((r) => r.status === 200).length,
        limited: replies.filter((r) => r.status === 429).length,
        other: replies
          .filter((r) => r.status !== 200 && r.status !== 429)
          .map((r) => `${r.status} ${r.text}`),
        slowestMs: Math.max(...replies.map((r) => r.ms)),
      };
    }

    // Background load through all phases: a shopper reading their account and orders.
    let stop = false;
    const background: Array<{ status: number; ms: number }> = [];
    const loader = (async () => {
      while (!stop) {
        for (const r of await Promise.all([
          call(base, 'GET', '/api/v1/auth/me', { headers: shopper!.session }),
          call(base, 'GET', '/api/v1/user/orders', { headers: shopper!.session }),
        ]))
          background.push({ status: r.status, ms: r.ms });
        await sleep(20);
      }
    })();

    // 1. Redis up: the limit is kept in Redis.
    const before = await burstOfReads(a!.partner);
    expect(before).toMatchObject({ ok: READ_LIMIT, limited: 5, other: [] });
    expect(await redisCounters()).toContain(READS);

    // 2. Redis gone: everything keeps working; the limit still holds, counted in-process.
    await redisServer.stop();
    const during = await burstOfReads(b!.partner);
    expect(during).toMatchObject({ ok: READ_LIMIT, limited: 5, other: [] });
    expect(during.slowestMs).toBeLessThan(2_000);
    const served = await Promise.all([
      call(base, 'GET', '/api/v1/auth/me', { headers: shopper!.session }),
      call(base, 'GET', '/api/v1/destinations', { headers: shopper!.session }),
      call(base, 'POST', '/api/public/v1/orders', {
        headers: { ...shopper!.partner, 'idempotency-key': 'redis-outage-order' },
        json: { planId: plan.id, quantity: 1 },
      }),
      call(base, 'POST', '/api/v1/checkout', {
        headers: shopper!.session,
        json: { planId: plan.id, quantity: 1, paymentMethod: 'wallet' },
      }),
    ]);
    expect(served.map((r) => r.status)).toEqual([200, 200, 201, 200]);
    const warnings = service.logs.filter((l) => l.includes('falling back to in-process counters'));
    expect(warnings.length).toBeGreaterThan(0);
    // Readiness tells the operator (and a load balancer that cares) that Redis is missing.
    expect((await call(base, 'GET', '/ready')).status).toBe(503);

    // 3. Redis back (empty): the service reconnects by itself and counts in Redis again.
    await redisServer.start();
    const backAt = Date.now();
    let ready = false;
    while (!ready && Date.now() - backAt < 15_000) {
      ready = (await call(base, 'GET', '/ready')).status === 200;
      if (!ready) await sleep(200);
    }
    expect(ready).toBe(true);
    const reconnectMs = Date.now() - backAt;
    const after = await burstOfReads(c!.partner);
    expect(after).toMatchObject({ ok: READ_LIMIT, limited: 5, other: [] });
    expect(await redisCounters()).toContain(READS);
    expect(service.logs.some((l) => l.includes('using shared counters again'))).toBe(true);
    expect(service.child.exitCode).toBeNull();
    stop = true;
    await loader;
    expect(background.filter((r) => r.status !== 200)).toEqual([]);
    const backgroundSlowestMs = Math.max(...background.map((r) => r.ms));
    expect(backgroundSlowestMs).toBeLessThan(2_000);

    const report = await waitSettled(url, 60_000);
    expectMoneySafe(report);
    survived('Redis outage', {
      readsPerPhase: READS,
      limit: READ_LIMIT,
      beforeOutage: before,
      duringOutage: during,
      afterReturn: after,
      backgroundRequests: background.length,
      backgroundSlowestMs,
      fallbackWarnings: warnings.length,
      reconnectMs,
      charged: report.charged,
      completed: report.completed,
      refunded: report.refunded,
    });
  });
});
