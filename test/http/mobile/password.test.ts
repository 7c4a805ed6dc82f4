import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, passwordResetTokens } from '../../../src/db/schema/index.js';
import { HOUR, SECOND } from '../../../src/lib/clock.js';
import { sha256Hex } from '../../../src/lib/crypto.js';
import { ADMIN_TOKEN, BASE_URL, buildTestApp, type TestApp } from '../../helpers/app.js';
import { authRequests, latestResetToken, registerViaApi, uniqueEmail } from '../../helpers/accounts.js';

describe('mobile passwords', () => {
  let t: TestApp;
  const { inject, me, login, setStatus } = authRequests(() => t.app, ADMIN_TOKEN);

  beforeAll(async () => {
    // Rate limits are tested in auth-rate-limit.test.ts.
    t = await buildTestApp({ env: { AUTH_RATE_LIMIT: '10000' } });
  });
  afterAll(async () => {
    await t.container.worker.runDue();
    await t.close();
  });

  describe('password reset', () => {
    const forgot = (email: string, locale?: string) =>
      inject({
        method: 'POST',
        url: '/api/v1/auth/forgot-password',
        payload: { email, ...(locale ? { locale } : {}) },
      });
    const checkToken = (token: string) =>
      inject({ url: `/api/v1/auth/reset-password?token=${encodeURIComponent(token)}` });
    const reset = (token: string, newPassword: string) =>
      inject({ method: 'POST', url: '/api/v1/auth/reset-password', payload: { token, newPassword } });

    it('answers the same for an unknown address and sends nothing', async () => {
      const user = await registerViaApi(t.app);
      const unknownEmail = uniqueEmail('ghost');
      const known = await forgot(user.email);
      const unknown = await forgot(unknownEmail);
      expect(known.statusCode).toBe(200);
      expect(unknown.statusCode).toBe(200);
      expect(unknown.body).toBe(known.body);
      expect(known.json()).toEqual({ success: true });
      const strip = (h: Record<string, unknown>) => {
        const { date: _d, 'x-request-id': _r, ...rest } = h;
        return Object.keys(rest).sort();
      };
      expect(strip(unknown.headers)).toEqual(strip(known.headers));
      expect(await latestResetToken(t.container, user.email)).toBeDefined();
      expect(await t.container.mailer.list({ to: unknownEmail })).toEqual([]);
    });

    it('mails a link and the token in the requested or the account language; only the hash is stored', async () => {
      const user = await registerViaApi(t.app); // locale tr
      await forgot(user.email);
      await t.container.worker.runDue();
      const [tr] = await t.container.mailer.list({ to: user.email });
      const token = /token=([A-Za-z0-9_-]+)/.exec(tr!.text)![1]!;
      expect(tr!.subject).toBe('Şifre sıfırlama');
      expect(tr!.text).toContain(`${BASE_URL}/reset-password?token=${token}`);
      expect(tr!.text.split('\n')).toContain(token);
      expect(tr!.html).toContain(`href="${BASE_URL}/reset-password?token=${token}"`);
      expect(tr!.html).toContain(`<code>${token}</code>`);
      const [row] = await t.container.db
        .select()
        .from(passwordResetTokens)
        .where(eq(passwordResetTokens.tokenHash, sha256Hex(token)));
      expect(row!.accountId).toBe(user.id);
      expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBe(HOUR);

      t.clock.advance(SECOND); // the outbox lists newest first
      await forgot(user.email, 'en');
      await t.container.worker.runDue();
      const [en] = await t.container.mailer.list({ to: user.email });
      expect(en!.subject).toBe('Reset your password');
      expect(en!.text).toContain('valid for 1 hour');
    });

    it('resets once, ends every session, and the old password stops working', async () => {
      const user = await registerViaApi(t.app);
      const second = (await login(user.email, user.password)).json().token as string;
      await forgot(user.email);
      const token = (await latestResetToken(t.container, user.email))!;
      expect((await checkToken(token)).json()).toEqual({ valid: true });

      const res = await reset(token, 'brand new password');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true });
      expect((await me(user.auth)).json()).toEqual({ user: null });
      expect((await me({ authorization: `Bearer ${second}` })).json()).toEqual({ user: null });
      expect((await login(user.email, user.password)).statusCode).toBe(401);
      const relogin = await login(user.email, 'brand new password');
      expect(relogin.statusCode).toBe(200);
      expect(relogin.json().user.emailVerified).toBe(true);

      expect((await checkToken(token)).json()).toEqual({ valid: false });
      const again = await reset(token, 'another new password');
      expect(again.statusCode).toBe(400);
      expect(again.json().code).toBe('INVALID_TOKEN');
    });

    it('lets only one of two concurrent uses of a token succeed', async () => {
      const user = await registerViaApi(t.app);
      await forgot(user.email);
      const token = (await latestResetToken(t.container, user.email))!;
      const results = await Promise.all([reset(token, 'parallel one!'), reset(token, 'parallel two!')]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    });

    it('expires a token after 1 hour', async () => {
      const user = await registerViaApi(t.app);
      await forgot(user.email);
      const token = (await latestResetToken(t.container, user.email))!;
      t.clock.advance(HOUR - SECOND);
      expect((await checkToken(token)).json()).toEqual({ valid: true });
      t.clock.advance(2 * SECOND);
      expect((await checkToken(token)).json()).toEqual({ valid: false });
      const res = await reset(token, 'too late password');
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('INVALID_TOKEN');
      expect((await login(user.email, user.password)).statusCode).toBe(200);
    });

    it('rejects unknown tokens and short new passwords', async () => {
      expect((await checkToken('unknown-token')).json()).toEqual({ valid: false });
      expect((await reset('unknown-token', 'long enough pw')).json().code).toBe('INVALID_TOKEN');
      expect((await reset('unknown-token', 'short')).json().code).toBe('VALIDATION_ERROR');
      expect((await inject({ url: '/api/v1/auth/reset-password' })).statusCode).toBe(400);
    });

    it('sends nothing for a suspended account', async () => {
      const user = await registerViaApi(t.app);
      await setStatus(user.id, 'SUSPENDED');
      expect((await forgot(user.email)).json()).toEqual({ success: true });
      expect(await latestResetToken(t.container, user.email)).toBeUndefined();
    });
  });

  describe('change-password', () => {
    const change = (headers: Record<string, string>, payload: Record<string, unknown>) =>
      inject({ method: 'POST', url: '/api/v1/auth/change-password', headers, payload });

    it('needs the current password, keeps this session and ends the others', async () => {
      const user = await registerViaApi(t.app);
      const other = `Bearer ${(await login(user.email, user.password)).json().token}`;

      const missing = await change(user.auth, { newPassword: 'the next password' });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().code).toBe('VALIDATION_ERROR');
      const wrong = await change(user.auth, {
        currentPassword: 'nope nope',
        newPassword: 'the next password',
      });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().code).toBe('CURRENT_PASSWORD_INCORRECT');
      expect((await me({ authorization: other })).json().user.id).toBe(user.id);

      const ok = await change(user.auth, {
        currentPassword: user.password,
        newPassword: 'the next password',
      });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toEqual({ success: true });
      expect((await me(user.auth)).json().user.id).toBe(user.id);
      expect((await me({ authorization: other })).json()).toEqual({ user: null });
      expect((await login(user.email, 'the next password')).statusCode).toBe(200);
      expect((await login(user.email, user.password)).statusCode).toBe(401);
    });

    it('does not need currentPassword when the account has no password', async () => {
      const user = await registerViaApi(t.app);
      await t.container.db.update(accounts).set({ passwordHash: null }).where(eq(accounts.id, user.id));
      expect((await login(user.email, user.password)).statusCode).toBe(401);
      expect((await change(user.auth, { newPassword: 'first password' })).statusCode).toBe(200);
      expect((await login(user.email, 'first password')).statusCode).toBe(200);
    });

    it('requires a session', async () => {
      const res = await change({}, { newPassword: 'whatever pw' });
      expect(res.statusCode).toBe(401);
    });
  });
});
