import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { registerViaApi, uniqueEmail } from '../../helpers/accounts.js';

describe('auth rate limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { AUTH_RATE_LIMIT: '3', PUBLIC_BASE_URL: 'https://esim.example' } });
    // Commands fail fast before Redis is connected, and the limiter then counts in-process.
    const redis = t.container.redis;
    if (redis && redis.status !== 'ready') await once(redis, 'ready');
  });
  afterAll(async () => {
    await t.container.worker.runDue();
    await t.close();
  });

  const post = (url: string, email: string, ip: string) =>
    t.app.inject({
      method: 'POST',
      url,
      payload: { email, password: 'wrong password' },
      remoteAddress: ip,
      headers: { 'accept-language': 'en' },
    });

  it('marks the cookie Secure when PUBLIC_BASE_URL is https', async () => {
    const user = await registerViaApi(t.app);
    expect(user.response.cookies.find((c) => c.name === 'svc_session')?.secure).toBe(true);
  });

  it('limits login per IP+address, with 429, Retry-After and X-RateLimit-*', async () => {
    const email = uniqueEmail('rl');
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      const res = await post('/api/v1/auth/login', email, '10.0.1.1');
      statuses.push(res.statusCode);
      expect(res.headers['x-ratelimit-limit']).toBe('3');
    }
    expect(statuses).toEqual([401, 401, 401]);
    const limited = await post('/api/v1/auth/login', ` ${email.toUpperCase()}`, '10.0.1.1');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({
      error: 'Too many requests, please try again later.',
      code: 'RATE_LIMITED',
    });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(limited.headers['x-ratelimit-remaining']).toBe('0');
    // The same address from another IP is still checked (a victim is never locked out by
    // someone else's failures; the slower per-account limit is in test/http/security/auth.test.ts).
    expect((await post('/api/v1/auth/login', email, '10.0.1.9')).statusCode).toBe(401);
  });

  it('limits login per IP across addresses', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await post('/api/v1/auth/login', uniqueEmail('ip'), '10.0.2.1')).statusCode).toBe(401);
    }
    const limited = await post('/api/v1/auth/login', uniqueEmail('ip'), '10.0.2.1');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
  });

  it.runIf(process.env.TEST_REDIS_URL)('shares the budget between instances through Redis', async () => {
    const second = await buildTestApp({ shareWith: t, env: { AUTH_RATE_LIMIT: '3' } });
    try {
      const redis = second.container.redis!;
      if (redis.status !== 'ready') await once(redis, 'ready');
      const email = uniqueEmail('shared');
      for (let i = 0; i < 3; i++) await post('/api/v1/auth/login', email, '10.0.4.1');
      const res = await second.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email, password: 'wrong password' },
        remoteAddress: '10.0.4.1',
      });
      expect(res.statusCode).toBe(429);
      expect(await redis.keys(`${t.config.redisKeyPrefix}rl:*`)).not.toEqual([]);
    } finally {
      await second.close();
    }
  });

  it('counts in-process when Redis is unreachable: served, and still limited', async () => {
    const broken = await buildTestApp({ env: { AUTH_RATE_LIMIT: '2', REDIS_URL: 'redis://127.0.0.1:1' } });
    try {
      const email = uniqueEmail('open');
      const statuses = [];
      for (let i = 0; i < 3; i++) {
        const res = await broken.app.inject({
          method: 'POST',
          url: '/api/v1/auth/login',
          payload: { email, password: 'wrong password' },
        });
        statuses.push(res.statusCode);
      }
      expect(statuses).toEqual([401, 401, 429]);
    } finally {
      await broken.close();
    }
  });

  it('limits forgot-password separately from login', async () => {
    const email = uniqueEmail('fp');
    for (let i = 0; i < 3; i++) {
      expect((await post('/api/v1/auth/forgot-password', email, `10.0.3.${i}`)).statusCode).toBe(200);
    }
    expect((await post('/api/v1/auth/forgot-password', email, '10.0.3.9')).statusCode).toBe(429);
    expect((await post('/api/v1/auth/login', email, '10.0.3.10')).statusCode).toBe(401);
  });
});
