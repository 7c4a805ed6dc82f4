import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, buildTestApp, type TestApp } from '../../helpers/app.js';
import { registerViaApi, uniqueEmail } from '../../helpers/accounts.js';
import { fundWallet } from '../../helpers/factories.js';
import { SECOND } from '../../../src/lib/clock.js';

const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

describe('admin accounts and mail', () => {
  let t: TestApp;
  const inject = (options: InjectOptions) => t.app.inject(options);
  const setStatus = (id: string, status: string, headers: Record<string, string> = admin) =>
    inject({ method: 'PATCH', url: `/api/admin/v1/accounts/${id}`, headers, payload: { status } });
  const me = (headers: Record<string, string>) => inject({ url: '/api/v1/auth/me', headers });

  beforeAll(async () => {
    t = await buildTestApp({ env: { AUTH_RATE_LIMIT: '10000' } });
  });
  afterAll(async () => {
    await t.container.worker.runDue();
    await t.close();
  });

  it('rejects a missing or wrong admin token with 401 in the partner shape', async () => {
    for (const headers of [
      {},
      { authorization: 'Bearer wrong-token-wrong-token' },
      { authorization: ADMIN_TOKEN },
    ]) {
      for (const url of ['/api/admin/v1/accounts', '/api/admin/v1/mail']) {
        const res = await inject({ url, headers });
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual({ error: { code: 'UNAUTHORIZED', message: expect.any(String) } });
      }
    }
  });

  it('finds an account by normalised email, and lists the newest without a filter', async () => {
    const user = await registerViaApi(t.app);
    await fundWallet(t.container, user.id, 1234);
    t.clock.advance(SECOND);
    const newest = await registerViaApi(t.app);
    const res = await inject({
      url: `/api/admin/v1/accounts?email=${encodeURIComponent(`  ${user.email.toUpperCase()} `)}`,
      headers: admin,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      accounts: [
        {
          id: user.id,
          email: user.email,
          status: 'ACTIVE',
          walletBalance: 12.34,
          createdAt: expect.stringMatching(/\.\d{3}Z$/),
        },
      ],
    });
    const none = await inject({ url: `/api/admin/v1/accounts?email=${uniqueEmail('none')}`, headers: admin });
    expect(none.json()).toEqual({ accounts: [] });
    const all = (await inject({ url: '/api/admin/v1/accounts', headers: admin })).json().accounts;
    expect(all[0].id).toBe(newest.id);
    expect(all.map((a: { id: string }) => a.id)).toContain(user.id);
  });

  it('suspends, bans and reactivates an account, with an audit row each time', async () => {
    const user = await registerViaApi(t.app);
    const suspended = await setStatus(user.id, 'SUSPENDED');
    expect(suspended.statusCode).toBe(200);
    expect(suspended.json().account).toMatchObject({ id: user.id, status: 'SUSPENDED', walletBalance: 0 });
    expect((await me(user.auth)).json()).toEqual({ user: null });
    const login = () =>
      inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: user.email, password: user.password },
      });
    expect((await login()).statusCode).toBe(403);

    t.clock.advance(SECOND); // audit rows list newest first
    expect((await setStatus(user.id, 'BANNED')).json().account.status).toBe('BANNED');
    t.clock.advance(SECOND);
    const reactivated = await setStatus(user.id, 'ACTIVE', { ...admin, 'x-request-id': 'req-reactivate-1' });
    expect(reactivated.json().account.status).toBe('ACTIVE');
    // Existing sessions work again once the account is ACTIVE.
    expect((await me(user.auth)).json().user.id).toBe(user.id);
    expect((await login()).statusCode).toBe(200);

    const audit = await t.container.audit.list({ target: user.id });
    expect(audit.map((a) => [a.action, a.before, a.after])).toEqual([
      ['account.status.update', { status: 'BANNED' }, { status: 'ACTIVE' }],
      ['account.status.update', { status: 'SUSPENDED' }, { status: 'BANNED' }],
      ['account.status.update', { status: 'ACTIVE' }, { status: 'SUSPENDED' }],
    ]);
    expect(audit[0]!.requestId).toBe('req-reactivate-1');
  });

  it('answers 404 ACCOUNT_NOT_FOUND, 400 for DELETED as a target, 409 for a deleted account', async () => {
    const missing = await setStatus('acc_missing', 'SUSPENDED');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.code).toBe('ACCOUNT_NOT_FOUND');

    const user = await registerViaApi(t.app);
    const invalid = await setStatus(user.id, 'DELETED');
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().error.code).toBe('VALIDATION_ERROR');

    await inject({ method: 'DELETE', url: '/api/v1/user/account', headers: user.auth });
    const deleted = await setStatus(user.id, 'ACTIVE');
    expect(deleted.statusCode).toBe(409);
    expect(deleted.json().error.code).toBe('INVALID_STATE');
    expect(await t.container.audit.list({ target: user.id })).toEqual([]);
  });

  it('lists recorded mail newest first, filtered by recipient', async () => {
    const user = await registerViaApi(t.app);
    const forgot = () =>
      inject({
        method: 'POST',
        url: '/api/v1/auth/forgot-password',
        payload: { email: user.email, locale: 'en' },
      });
    await forgot();
    await t.container.worker.runDue();
    t.clock.advance(SECOND);
    await forgot();
    await t.container.worker.runDue();

    const res = await inject({
      url: `/api/admin/v1/mail?to=${encodeURIComponent(user.email.toUpperCase())}`,
      headers: admin,
    });
    expect(res.statusCode).toBe(200);
    const { messages } = res.json();
    expect(messages).toHaveLength(2);
    expect(messages[0]).toEqual({
      id: expect.stringMatching(/^mail_/),
      to: user.email,
      subject: 'Reset your password',
      text: expect.stringContaining('/reset-password?token='),
      html: expect.stringContaining('<a href='),
      attachments: [],
      status: 'recorded',
      error: null,
      sentAt: null,
      // The admin token holds secrets.read: the reset link is shown as sent.
      redacted: false,
      createdAt: expect.stringMatching(/\.\d{3}Z$/),
    });
    expect(Date.parse(messages[0].createdAt)).toBeGreaterThan(Date.parse(messages[1].createdAt));
    const all = (await inject({ url: '/api/admin/v1/mail', headers: admin })).json().messages;
    expect(all.length).toBeGreaterThanOrEqual(2);
    expect(
      (await inject({ url: `/api/admin/v1/mail?to=${uniqueEmail('x')}`, headers: admin })).json(),
    ).toEqual({
      messages: [],
    });
  });
});

describe('admin surface without ADMIN_TOKEN', () => {
  it('refuses every bearer token (401): only operators sign in', async () => {
    const t = await buildTestApp({ env: { ADMIN_TOKEN: undefined } });
    try {
      for (const url of ['/api/admin/v1/accounts', '/api/admin/v1/mail']) {
        const res = await t.app.inject({ url, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
        expect(res.statusCode).toBe(401);
      }
    } finally {
      await t.close();
    }
  });
});
