import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, sessions } from '../../../src/db/schema/index.js';
import { DAY, SECOND } from '../../../src/lib/clock.js';
import { sha256Hex } from '../../../src/lib/crypto.js';
import { ADMIN_TOKEN, BASE_URL, buildTestApp, type TestApp } from '../../helpers/app.js';
import { authRequests, registerViaApi, uniqueEmail } from '../../helpers/accounts.js';

describe('mobile auth', () => {
  let t: TestApp;
  const { inject, me, login, setStatus } = authRequests(() => t.app, ADMIN_TOKEN);

  beforeAll(async () => {
    // Generous limit here; the limits themselves are tested in auth-rate-limit.test.ts.
    t = await buildTestApp({ env: { AUTH_RATE_LIMIT: '10000' } });
  });
  afterAll(async () => {
    await t.container.worker.runDue();
    await t.close();
  });

  describe('register', () => {
    it('creates the account and a session, returns the User and token, sets the cookie', async () => {
      const email = uniqueEmail('reg');
      const res = await inject({
        method: 'POST',
        url: '/api/v1/auth/register',
        payload: {
          firstName: '  Ayşe ',
          lastName: 'Yılmaz',
          email: `  ${email.toUpperCase()} `,
          password: 'password1',
        },
      });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.success).toBe(true);
      expect(body.user).toEqual({
        id: expect.stringMatching(/^acc_/),
        firstName: 'Ayşe',
        lastName: 'Yılmaz',
        fullName: 'Ayşe Yılmaz',
        email,
        emailVerified: false,
        walletBalance: 0,
        currency: 'USD',
        locale: 'tr',
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        avatarUrl: null,
        hasApiKey: false,
        hasTestApiKey: false,
        apiKeyPrefix: null,
        apiKeyGeneratedAt: null,
        notifications: { email: true, push: true },
      });
      // 32 random bytes, base64url.
      expect(body.token).toMatch(/^[A-Za-z0-9_-]{43,}$/);
      const cookie = res.cookies.find((c) => c.name === 'svc_session')!;
      expect(cookie).toMatchObject({ value: body.token, httpOnly: true, sameSite: 'Lax', path: '/' });
      expect(cookie.secure).toBeUndefined();
      expect(new Date(cookie.expires!).getTime() - t.clock.now().getTime()).toBeGreaterThan(29 * DAY);

      const [stored] = await t.container.db
        .select()
        .from(sessions)
        .where(eq(sessions.accountId, body.user.id));
      expect(stored!.tokenHash).toBe(sha256Hex(body.token));
      expect(JSON.stringify(stored)).not.toContain(body.token);
      const [account] = await t.container.db.select().from(accounts).where(eq(accounts.id, body.user.id));
      expect(account!.passwordHash).toMatch(/^\$argon2id\$/);
    });

    it('takes the initial locale from Accept-Language', async () => {
      const user = await registerViaApi(t.app, {}, { 'accept-language': 'en-US,en;q=0.9' });
      expect(user.response.json().user.locale).toBe('en');
    });

    it('answers 409 EMAIL_TAKEN for an address already registered, whatever its case', async () => {
      const user = await registerViaApi(t.app);
      const res = await inject({
        method: 'POST',
        url: '/api/v1/auth/register',
        payload: {
          firstName: 'A',
          lastName: 'B',
          email: ` ${user.email.toUpperCase()}`,
          password: 'password1',
        },
      });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ error: 'Bu e-posta adresi zaten kayıtlı.', code: 'EMAIL_TAKEN' });
    });

    it.each([
      ['short password', { password: 'seven77' }],
      ['password over 256', { password: 'x'.repeat(257) }],
      ['invalid email', { email: 'not-an-email' }],
      ['blank first name', { firstName: '   ' }],
      ['name over 100', { lastName: 'x'.repeat(101) }],
      ['missing field', { email: undefined }],
    ])('rejects %s with 400 VALIDATION_ERROR', async (_label, override) => {
      const payload = {
        firstName: 'A',
        lastName: 'B',
        email: uniqueEmail(),
        password: 'password1',
        ...override,
      };
      const res = await inject({ method: 'POST', url: '/api/v1/auth/register', payload });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
    });

    it('accepts a password of exactly 8 and of 256 characters', async () => {
      await registerViaApi(t.app, { password: '12345678' });
      await registerViaApi(t.app, { password: 'p'.repeat(256) });
    });
  });

  describe('login', () => {
    it('returns a new session for the right password and sets the cookie', async () => {
      const user = await registerViaApi(t.app);
      const res = await login(` ${user.email.toUpperCase()} `, user.password);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.user.id).toBe(user.id);
      expect(body.token).not.toBe(user.token);
      expect(res.cookies.find((c) => c.name === 'svc_session')?.value).toBe(body.token);
      expect((await me({ authorization: `Bearer ${body.token}` })).json().user.id).toBe(user.id);
    });

    it('answers 401 with the same body for an unknown address and a wrong password', async () => {
      const user = await registerViaApi(t.app);
      const wrong = await login(user.email, 'wrong password');
      const unknown = await login(uniqueEmail('nobody'), 'wrong password');
      expect(wrong.statusCode).toBe(401);
      expect(unknown.statusCode).toBe(401);
      expect(wrong.json()).toEqual({ error: 'E-posta veya şifre hatalı.', code: 'INVALID_CREDENTIALS' });
      expect(unknown.json()).toEqual(wrong.json());
      const english = await login(user.email, 'wrong password', { 'accept-language': 'en' });
      expect(english.json()).toEqual({ error: 'Incorrect email or password.', code: 'INVALID_CREDENTIALS' });
    });

    it('answers 403 ACCOUNT_SUSPENDED for a suspended or banned account with the right password', async () => {
      for (const status of ['SUSPENDED', 'BANNED']) {
        const user = await registerViaApi(t.app);
        expect((await setStatus(user.id, status)).statusCode).toBe(200);
        const res = await login(user.email, user.password);
        expect(res.statusCode).toBe(403);
        expect(res.json().code).toBe('ACCOUNT_SUSPENDED');
        // Status is not revealed without the password.
        expect((await login(user.email, 'wrong password')).statusCode).toBe(401);
      }
    });
  });

  describe('sessions', () => {
    it('GET /auth/me returns { user: null } without, or with an invalid, session', async () => {
      expect((await me({})).json()).toEqual({ user: null });
      expect((await me({ authorization: 'Bearer nonsense' })).json()).toEqual({ user: null });
      expect((await me({ cookie: 'svc_session=nonsense' })).json()).toEqual({ user: null });
    });

    it('accepts the token as Bearer and as the cookie', async () => {
      const user = await registerViaApi(t.app);
      expect((await me(user.auth)).json().user.email).toBe(user.email);
      expect((await me({ cookie: `svc_session=${user.token}` })).json().user.email).toBe(user.email);
    });

    it('expires 30 days after issue', async () => {
      const user = await registerViaApi(t.app);
      t.clock.advance(30 * DAY - SECOND);
      expect((await me(user.auth)).json().user?.id).toBe(user.id);
      t.clock.advance(2 * SECOND);
      expect((await me(user.auth)).json()).toEqual({ user: null });
      const res = await inject({ method: 'POST', url: '/api/v1/auth/logout', headers: user.auth });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('UNAUTHORIZED');
    });

    it('stops a logged-in session at once when the account is suspended, banned or deleted', async () => {
      for (const status of ['SUSPENDED', 'BANNED']) {
        const user = await registerViaApi(t.app);
        await setStatus(user.id, status);
        const res = await inject({
          method: 'PATCH',
          url: '/api/v1/user/profile',
          headers: user.auth,
          payload: {},
        });
        expect(res.statusCode).toBe(401);
        expect((await me(user.auth)).json()).toEqual({ user: null });
      }
      const user = await registerViaApi(t.app);
      await t.container.db.update(accounts).set({ status: 'DELETED' }).where(eq(accounts.id, user.id));
      expect((await me(user.auth)).json()).toEqual({ user: null });
    });

    it('logout deletes the session server-side and clears the cookie', async () => {
      const user = await registerViaApi(t.app);
      const other = await login(user.email, user.password);
      const res = await inject({ method: 'POST', url: '/api/v1/auth/logout', headers: user.auth });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true });
      const cleared = res.cookies.find((c) => c.name === 'svc_session')!;
      expect(cleared.value).toBe('');
      expect(new Date(cleared.expires!).getTime()).toBeLessThan(Date.now());
      expect((await me(user.auth)).json()).toEqual({ user: null });
      // Other sessions of the account are unaffected.
      expect((await me({ authorization: `Bearer ${other.json().token}` })).json().user.id).toBe(user.id);
    });
  });

  describe('CSRF', () => {
    it('rejects a cookie-authenticated state change from a foreign origin', async () => {
      const user = await registerViaApi(t.app);
      const cookie = `svc_session=${user.token}`;
      const foreign = await inject({
        method: 'POST',
        url: '/api/v1/auth/logout',
        headers: { cookie, origin: 'https://evil.example' },
      });
      expect(foreign.statusCode).toBe(403);
      expect(foreign.json().code).toBe('CSRF_REJECTED');
      const noOrigin = await inject({ method: 'POST', url: '/api/v1/auth/logout', headers: { cookie } });
      expect(noOrigin.statusCode).toBe(403);
      expect((await me({ cookie })).json().user.id).toBe(user.id);

      const same = await inject({
        method: 'POST',
        url: '/api/v1/auth/logout',
        headers: { cookie, origin: BASE_URL },
      });
      expect(same.statusCode).toBe(200);
      expect((await me({ cookie })).json()).toEqual({ user: null });
    });

    it('does not apply to Bearer requests', async () => {
      const user = await registerViaApi(t.app);
      const res = await inject({
        method: 'PATCH',
        url: '/api/v1/user/profile',
        headers: { ...user.auth, origin: 'https://evil.example' },
        payload: { firstName: 'Bearer' },
      });
      expect(res.statusCode).toBe(200);
      const noOrigin = await inject({ method: 'POST', url: '/api/v1/auth/logout', headers: user.auth });
      expect(noOrigin.statusCode).toBe(200);
    });
  });
});
