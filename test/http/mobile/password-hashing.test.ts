import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { latestResetToken, registerViaApi } from '../../helpers/accounts.js';

/**
 * Issue 28 H2: password reset looks at the token before any argon2 work and is rate limited per
 * address; logins, registrations and resets share one argon2 queue in which each client address
 * has a bounded share, so one client's burst is refused instead of delaying everyone else.
 */
describe('password hashing cannot be used to slow everyone down', () => {
  let t: TestApp;
  const from = (ip: string) => ({ remoteAddress: ip });

  beforeAll(async () => {
    t = await buildTestApp({ env: { PASSWORD_HASH_CLIENT_LIMIT: '2' } });
  });
  afterAll(async () => {
    await t.container.worker.runDue();
    await t.close();
  });

  const reset = (token: string, ip: string, newPassword = 'a brand new password') =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/reset-password',
      payload: { token, newPassword },
      ...from(ip),
    });

  it('a wrong reset token is refused before the new password is hashed', async () => {
    let peak = 0;
    let sampleError: unknown;
    const sample = setInterval(() => {
      try {
        const load = t.container.passwords.load();
        peak = Math.max(peak, load.running + load.waiting);
      } catch (error) {
        sampleError = error;
      }
    }, 0);
    // 40 bogus tries at once, each from its own address (so no rate limit is involved).
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => reset(`bogus-token-${i}`, `10.20.0.${i + 1}`)),
    );
    clearInterval(sample);
    for (const answer of answers) {
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toMatchObject({ code: 'INVALID_TOKEN' });
    }
    expect(sampleError).toBeUndefined();
    expect(peak).toBe(0);
  });

  it('a valid token still resets the password (then hashing happens)', async () => {
    const user = await registerViaApi(t.app, {}, {});
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/forgot-password',
      payload: { email: user.email },
    });
    const token = (await latestResetToken(t.container, user.email))!;
    expect((await reset(token, '10.21.0.1')).statusCode).toBe(200);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: user.email, password: 'a brand new password' },
      ...from('10.21.0.1'),
    });
    expect(login.statusCode).toBe(200);
  });

  it('reset-password is rate limited per client address: 429 with Retry-After', async () => {
    const limit = t.config.rateLimits.authPerMinute;
    const answers = [];
    for (let i = 0; i <= limit; i++) answers.push(await reset(`bogus-${i}`, '10.22.0.1'));
    expect(answers.slice(0, limit).every((a) => a.statusCode === 400)).toBe(true);
    const refused = answers[limit]!;
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not affected.
    expect((await reset('bogus-other', '10.22.0.2')).statusCode).toBe(400);
  });

  it('a burst of logins from one address gets its share of the argon2 queue; another address is served', async () => {
    const victim = await registerViaApi(t.app, {}, {});
    const attacker = Array.from({ length: 12 }, (_, i) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: `nobody-${i}@example.com`, password: 'a guess of a password' },
        ...from('10.23.0.1'),
      }),
    );
    const real = t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: victim.email, password: victim.password },
      ...from('10.23.0.2'),
    });
    const [own, ...burst] = await Promise.all([real, ...attacker]);
    expect(own.statusCode).toBe(200);
    const refused = burst.filter((a) => a.statusCode === 429);
    // Two may be queued or running at a time (PASSWORD_HASH_CLIENT_LIMIT=2); the rest are refused.
    expect(refused.length).toBeGreaterThanOrEqual(12 - 2 * 2);
    expect(burst.filter((a) => a.statusCode === 401).length).toBeGreaterThanOrEqual(2);
    for (const answer of refused) {
      expect(answer.json()).toMatchObject({ code: 'RATE_LIMITED' });
      expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
    }
  });
});
