import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { latestResetToken, registerViaApi, uniqueEmail } from '../../helpers/accounts.js';

async function redisReady(t: TestApp) {
  const redis = t.container.redis;
  if (redis && redis.status !== 'ready') await once(redis, 'ready');
}

describe('S2: an API key dies with the credentials', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t.close());

  async function userWithKey() {
    const user = await registerViaApi(t.app);
    const gen = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/api-key/generate',
      headers: user.auth,
    });
    expect(gen.statusCode).toBe(200);
    const key = gen.json().key as string;
    const partner = () =>
      t.app.inject({ url: '/api/public/v1/wallet', headers: { authorization: `Bearer ${key}` } });
    expect((await partner()).statusCode).toBe(200);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: user.email, password: user.password },
    });
    const other = { authorization: `Bearer ${login.json().token}` };
    return { user, partner, other };
  }

  it('change-password: the old key answers 401, other sessions end, this one stays', async () => {
    const { user, partner, other } = await userWithKey();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/change-password',
      headers: user.auth,
      payload: { currentPassword: user.password, newPassword: 'another long password' },
    });
    expect(res.statusCode).toBe(200);
    const refused = await partner();
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ error: { code: 'UNAUTHORIZED' } });
    expect((await t.app.inject({ url: '/api/v1/auth/me', headers: other })).json()).toEqual({ user: null });
    expect((await t.app.inject({ url: '/api/v1/auth/me', headers: user.auth })).json().user.id).toBe(user.id);
    // A new key can be generated and works.
    const gen = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/api-key/generate',
      headers: user.auth,
    });
    const fresh = await t.app.inject({
      url: '/api/public/v1/wallet',
      headers: { authorization: `Bearer ${gen.json().key}` },
    });
    expect(fresh.statusCode).toBe(200);
  });

  it('a completed password reset: the old key answers 401 and every session ends', async () => {
    const { user, partner, other } = await userWithKey();
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/forgot-password',
      payload: { email: user.email },
    });
    const token = await latestResetToken(t.container, user.email);
    expect(token).toBeDefined();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/reset-password',
      payload: { token, newPassword: 'a brand new password' },
    });
    expect(res.statusCode).toBe(200);
    expect((await partner()).statusCode).toBe(401);
    for (const headers of [user.auth, other]) {
      expect((await t.app.inject({ url: '/api/v1/auth/me', headers })).json()).toEqual({ user: null });
    }
  });
});

describe('S3, S10, S11: throttles', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      env: { AUTH_RATE_LIMIT: '3', REGISTER_RATE_LIMIT: '3', AUTH_ACCOUNT_FAILURE_LIMIT: '5' },
    });
    await redisReady(t);
  });
  afterAll(async () => t.close());

  const register = (ip: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      remoteAddress: ip,
      headers,
      payload: {
        firstName: 'A',
        lastName: 'B',
        email: uniqueEmail('reg'),
        password: 'a long enough password',
      },
    });
  const login = (email: string, password: string, ip: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      remoteAddress: ip,
      headers,
      payload: { email, password },
    });

  it('S3: register is limited per client address with 429 and Retry-After', async () => {
    for (let i = 0; i < 3; i++) expect((await register('10.9.0.1')).statusCode).toBe(200);
    const limited = await register('10.9.0.1');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is unaffected.
    expect((await register('10.9.0.2')).statusCode).toBe(200);
  });

  it('S10: without TRUST_PROXY a rotating X-Forwarded-For does not escape the limit', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await register('10.9.1.1', { 'x-forwarded-for': `203.0.113.${i}` })).statusCode).toBe(200);
    }
    expect((await register('10.9.1.1', { 'x-forwarded-for': '203.0.113.99' })).statusCode).toBe(429);
  });

  it('S10: wrong passwords from one address never block the right password from another', async () => {
    const victim = await registerViaApi(t.app, {}, {});
    for (let i = 0; i < 3; i++)
      expect((await login(victim.email, 'wrong guess', '10.9.2.1')).statusCode).toBe(401);
    expect((await login(victim.email, 'wrong guess', '10.9.2.1')).statusCode).toBe(429);
    // The attacker's own address is blocked for this account, even with the right password…
    expect((await login(victim.email, victim.password, '10.9.2.1')).statusCode).toBe(429);
    // …but the victim logs in from their address.
    expect((await login(victim.email, victim.password, '10.9.2.50')).statusCode).toBe(200);
  });

  it('S10: the slower per-account limit refuses addresses that sent wrong passwords, never the right one from a clean address', async () => {
    const victim = await registerViaApi(t.app);
    // A distributed attacker: one wrong guess from each of many addresses.
    for (let i = 0; i < 5; i++)
      expect((await login(victim.email, 'wrong', `10.9.3.${i}`)).statusCode).toBe(401);
    // Over the account limit: an address that already failed is refused before its password is checked.
    const refused = await login(victim.email, victim.password, '10.9.3.0');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    // A fresh address with a wrong guess: 401, and from then on refused.
    expect((await login(victim.email, 'wrong', '10.9.3.77')).statusCode).toBe(401);
    expect((await login(victim.email, 'wrong', '10.9.3.77')).statusCode).toBe(429);
    // The right password from a clean address still works.
    expect((await login(victim.email, victim.password, '10.9.3.200')).statusCode).toBe(200);
  });

  it('S10: with TRUST_PROXY the forwarded client address is the one limited', async () => {
    const proxied = await buildTestApp({
      env: { REGISTER_RATE_LIMIT: '2', TRUST_PROXY: '10.0.0.1' },
    });
    try {
      await redisReady(proxied);
      const reg = (forwarded: string, ip = '10.0.0.1') =>
        proxied.app.inject({
          method: 'POST',
          url: '/api/v1/auth/register',
          remoteAddress: ip,
          headers: { 'x-forwarded-for': forwarded },
          payload: {
            firstName: 'A',
            lastName: 'B',
            email: uniqueEmail('px'),
            password: 'a long enough password',
          },
        });
      expect((await reg('198.51.100.1')).statusCode).toBe(200);
      expect((await reg('198.51.100.1')).statusCode).toBe(200);
      expect((await reg('198.51.100.1')).statusCode).toBe(429);
      expect((await reg('198.51.100.2')).statusCode).toBe(200);
      // An untrusted peer's header is ignored: limited by its socket address.
      expect((await reg('198.51.100.3', '10.0.0.9')).statusCode).toBe(200);
      expect((await reg('198.51.100.4', '10.0.0.9')).statusCode).toBe(200);
      expect((await reg('198.51.100.5', '10.0.0.9')).statusCode).toBe(429);
    } finally {
      await proxied.close();
    }
  });

  it('S11: wrong currentPassword on change-password is throttled (429 after the limit)', async () => {
    const user = await registerViaApi(t.app);
    const change = (currentPassword: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/change-password',
        headers: user.auth,
        remoteAddress: '10.9.4.1',
        payload: { currentPassword, newPassword: 'another long password' },
      });
    for (let i = 0; i < 3; i++) expect((await change('wrong')).statusCode).toBe(400);
    const limited = await change('wrong');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect(limited.headers['retry-after']).toBeDefined();
    // Even the right password waits for the window (the session may be the stolen one).
    expect((await change(user.password)).statusCode).toBe(429);
  });
});
