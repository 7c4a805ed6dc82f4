import { eq, sum } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accounts,
  avatars,
  orders,
  pushDevices,
  sessions,
  walletTransactions,
} from '../../../src/db/schema/index.js';
import { postLedgerEntry } from '../../../src/domain/wallet/ledger.js';
import { sha256Hex } from '../../../src/lib/crypto.js';
import { newId } from '../../../src/lib/ids.js';
import { ADMIN_TOKEN, BASE_URL, buildTestApp, type TestApp } from '../../helpers/app.js';
import { authRequests, registerViaApi } from '../../helpers/accounts.js';
import { balanceOf, createPlan, fundWallet } from '../../helpers/factories.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const image = {
  png: (size = 64) => Buffer.concat([PNG_SIGNATURE, Buffer.alloc(size - 8, 7)]),
  jpeg: () => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(60, 1)]),
  gif: () => Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(40, 2)]),
  webp: () => Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBP'), Buffer.alloc(40, 3)]),
};
const dataUri = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString('base64')}`;

describe('mobile account', () => {
  let t: TestApp;
  /** Balance equals the sum of the account's wallet transactions. */
  async function expectBalanceMatchesHistory(accountId: string) {
    const [row] = await t.container.db
      .select({ total: sum(walletTransactions.amountCents) })
      .from(walletTransactions)
      .where(eq(walletTransactions.accountId, accountId));
    expect(await balanceOf(t.container, accountId)).toBe(Number(row?.total ?? 0));
  }
  const inject = (options: InjectOptions) => t.app.inject(options);
  const me = (headers: Record<string, string>) => inject({ url: '/api/v1/auth/me', headers });
  const patch = (headers: Record<string, string>, payload: Record<string, unknown>) =>
    inject({ method: 'PATCH', url: '/api/v1/user/profile', headers, payload });
  const upload = (headers: Record<string, string>, avatarUrl: string) =>
    inject({ method: 'POST', url: '/api/v1/user/avatar', headers, payload: { avatarUrl } });
  const generateKey = (headers: Record<string, string>) =>
    inject({ method: 'POST', url: '/api/v1/user/api-key/generate', headers });
  const deleteAccount = (headers: Record<string, string>) =>
    inject({ method: 'DELETE', url: '/api/v1/user/account', headers });

  beforeAll(async () => {
    t = await buildTestApp({ env: { AUTH_RATE_LIMIT: '10000' } });
  });
  afterAll(() => t.close());

  it('requires a session on every account endpoint', async () => {
    for (const res of [
      await patch({}, { firstName: 'X' }),
      await upload({}, dataUri('image/png', image.png())),
      await generateKey({}),
      await deleteAccount({}),
    ]) {
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('UNAUTHORIZED');
    }
  });

  describe('PATCH /user/profile', () => {
    it('changes only the fields given', async () => {
      const user = await registerViaApi(t.app);
      const res = await patch(user.auth, { firstName: '  Mehmet  ' });
      expect(res.statusCode).toBe(200);
      expect(res.json().success).toBe(true);
      expect(res.json().user).toMatchObject({
        firstName: 'Mehmet',
        lastName: 'Yılmaz',
        fullName: 'Mehmet Yılmaz',
        currency: 'USD',
        locale: 'tr',
      });
      const next = await patch(user.auth, { preferredCurrency: 'EUR', locale: 'EN', lastName: 'Kaya' });
      expect(next.json().user).toMatchObject({
        firstName: 'Mehmet',
        lastName: 'Kaya',
        currency: 'EUR',
        locale: 'en',
      });
      expect((await patch(user.auth, {})).json().user).toEqual(next.json().user);
      expect((await me(user.auth)).json().user).toEqual(next.json().user);
    });

    it.each([
      ['unknown currency', { preferredCurrency: 'JPY' }],
      ['3-letter locale', { locale: 'eng' }],
      ['blank name', { firstName: '   ' }],
      ['empty name', { lastName: '' }],
      ['name over 100', { firstName: 'x'.repeat(101) }],
      ['non-string name', { firstName: { text: 'x' } }],
    ])('rejects %s with 400 VALIDATION_ERROR', async (_label, payload) => {
      const user = await registerViaApi(t.app);
      const res = await patch({ ...user.auth, 'accept-language': 'en' }, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
      expect(res.json().error).toMatch(/^Invalid request\./);
    });
  });

  describe('avatar', () => {
    it('stores each allowed type and serves it from user.avatarUrl', async () => {
      const user = await registerViaApi(t.app);
      for (const [type, bytes] of [
        ['image/png', image.png()],
        ['image/jpeg', image.jpeg()],
        ['image/gif', image.gif()],
        ['image/webp', image.webp()],
      ] as const) {
        const res = await upload(user.auth, dataUri(type, bytes));
        expect(res.statusCode, res.body).toBe(200);
        const { success, user: shown } = res.json();
        expect(success).toBe(true);
        expect(shown.avatarUrl).toMatch(new RegExp(`^${BASE_URL}/api/v1/avatars/[A-Za-z0-9_-]{32}$`));
        const image = await inject({ url: shown.avatarUrl.slice(BASE_URL.length) });
        expect(image.statusCode).toBe(200);
        expect(image.headers['content-type']).toBe(type);
        expect(image.headers['cache-control']).toContain('immutable');
        expect(image.headers['x-content-type-options']).toBe('nosniff');
        expect(image.rawPayload.equals(bytes)).toBe(true);
        expect((await me(user.auth)).json().user.avatarUrl).toBe(shown.avatarUrl);
      }
    });

    it('shows the avatar, or none, in the login answer', async () => {
      const user = await registerViaApi(t.app);
      const login = () => authRequests(() => t.app, ADMIN_TOKEN).login(user.email, user.password);
      const before = await login();
      expect(before.statusCode, before.body).toBe(200);
      expect(before.json().user.avatarUrl).toBeNull();
      const shown = (await upload(user.auth, dataUri('image/png', image.png()))).json().user.avatarUrl;
      expect(shown).toMatch(new RegExp(`^${BASE_URL}/api/v1/avatars/`));
      const after = await login();
      expect(after.json().user).toMatchObject({ id: user.id, email: user.email, avatarUrl: shown });
    });

    it('gives a new upload a new URL and retires the old one', async () => {
      const user = await registerViaApi(t.app);
      const first = (await upload(user.auth, dataUri('image/png', image.png()))).json().user.avatarUrl;
      const second = (await upload(user.auth, dataUri('image/png', image.png(100)))).json().user.avatarUrl;
      expect(second).not.toBe(first);
      expect((await inject({ url: first.slice(BASE_URL.length) })).statusCode).toBe(404);
      expect((await inject({ url: second.slice(BASE_URL.length) })).statusCode).toBe(200);
    });

    it.each([
      ['an SVG', dataUri('image/svg+xml', Buffer.from('<svg onload="alert(1)"/>'))],
      ['a non-image type', dataUri('text/html', Buffer.from('<script>x</script>'))],
      ['bytes that do not match the declared type', dataUri('image/png', image.jpeg())],
      ['a script labelled as an image', dataUri('image/gif', Buffer.from('alert(1)'))],
      ['not a data URI', 'https://example.com/me.png'],
      ['a non-base64 data URI', 'data:image/png,hello'],
      ['an empty image', 'data:image/png;base64,'],
    ])('rejects %s with 400', async (_label, uri) => {
      const user = await registerViaApi(t.app);
      const res = await upload(user.auth, uri);
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
      expect((await me(user.auth)).json().user.avatarUrl).toBeNull();
    });

    it('accepts 1,500,000 decoded bytes and rejects one more with 413', async () => {
      const user = await registerViaApi(t.app);
      expect((await upload(user.auth, dataUri('image/png', image.png(1_500_000)))).statusCode).toBe(200);
      const tooBig = await upload(user.auth, dataUri('image/png', image.png(1_500_001)));
      expect(tooBig.statusCode).toBe(413);
      expect(tooBig.json().code).toBe('PAYLOAD_TOO_LARGE');
    });

    it('answers 404 for an unknown avatar token', async () => {
      const res = await inject({ url: '/api/v1/avatars/unknown' });
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('NOT_FOUND');
    });
  });

  describe('API key', () => {
    it('returns the raw key once, stores only its hash, and replaces the old key', async () => {
      const user = await registerViaApi(t.app);
      const res = await generateKey(user.auth);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.success).toBe(true);
      expect(body.key).toMatch(/^svc_live_sk_[0-9A-Za-z]{40}$/);
      const secret = body.key.slice('svc_live_sk_'.length);
      expect(body.apiKeyPrefix).toBe(`svc_live_sk_${secret.slice(0, 4)}…${secret.slice(-4)}`);
      expect(body.apiKeyGeneratedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      const [row] = await t.container.db.select().from(accounts).where(eq(accounts.id, user.id));
      expect(row!.apiKeyHash).toBe(sha256Hex(body.key));
      expect(JSON.stringify(row)).not.toContain(secret);
      // The User shows the key's display form and date, never the key.
      const shown = (await me(user.auth)).json().user;
      expect(shown).toMatchObject({
        hasApiKey: true,
        apiKeyPrefix: body.apiKeyPrefix,
        apiKeyGeneratedAt: body.apiKeyGeneratedAt,
      });
      expect(JSON.stringify(shown)).not.toContain(secret);
      expect((await t.container.apiKeys.authenticate(body.key))?.id).toBe(user.id);

      const next = (await generateKey(user.auth)).json();
      expect(next.key).not.toBe(body.key);
      expect(await t.container.apiKeys.authenticate(body.key)).toBeNull();
      expect((await t.container.apiKeys.authenticate(next.key))?.id).toBe(user.id);
    });
  });

  describe('DELETE /user/account', () => {
    it('answers 409 WALLET_NOT_EMPTY while the balance is above zero and changes nothing', async () => {
      const user = await registerViaApi(t.app);
      await fundWallet(t.container, user.id, 1);
      const res = await deleteAccount(user.auth);
      expect(res.statusCode).toBe(409);
      expect(res.json().code).toBe('WALLET_NOT_EMPTY');
      expect((await me(user.auth)).json().user).toMatchObject({ email: user.email, walletBalance: 0.01 });
      await expectBalanceMatchesHistory(user.id);
    });

    it('anonymizes the account, destroys access, and keeps orders and wallet history', async () => {
      const user = await registerViaApi(t.app);
      const second = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: user.email, password: user.password },
      });
      const key = (await generateKey(user.auth)).json().key as string;
      const avatarUrl = (await upload(user.auth, dataUri('image/png', image.png()))).json().user
        .avatarUrl as string;
      const now = t.clock.now();
      await t.container.db.insert(pushDevices).values({
        id: newId('dev'),
        accountId: user.id,
        platform: 'IOS',
        pushToken: `push-${user.id}`,
        createdAt: now,
        lastSeenAt: now,
      });
      const plan = await createPlan(t.container);
      const orderId = newId('ord');
      await t.container.db.insert(orders).values({
        id: orderId,
        orderNumber: `T-${orderId}`,
        accountId: user.id,
        channel: 'mobile',
        planId: plan.id,
        quantity: 1,
        amountCents: 499,
        paymentMethod: 'wallet',
        status: 'COMPLETED',
        createdAt: now,
        updatedAt: now,
      });
      await fundWallet(t.container, user.id, 499);
      await t.container.db.transaction((tx) =>
        postLedgerEntry(tx, {
          accountId: user.id,
          kind: 'purchase',
          amountCents: 499,
          orderId,
          reference: `order:${orderId}`,
          at: now,
        }),
      );

      const res = await deleteAccount(user.auth);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true });
      expect(res.cookies.find((c) => c.name === 'svc_session')?.value).toBe('');

      const [row] = await t.container.db.select().from(accounts).where(eq(accounts.id, user.id));
      expect(row).toMatchObject({
        email: `deleted+${user.id}@invalid`,
        firstName: '',
        lastName: '',
        passwordHash: null,
        status: 'DELETED',
        apiKeyHash: null,
        apiKeyPrefix: null,
        walletBalanceCents: 0,
      });
      expect(row!.deletedAt).not.toBeNull();
      expect(await t.container.db.select().from(sessions).where(eq(sessions.accountId, user.id))).toEqual([]);
      expect(
        await t.container.db.select().from(pushDevices).where(eq(pushDevices.accountId, user.id)),
      ).toEqual([]);
      expect(await t.container.db.select().from(avatars).where(eq(avatars.accountId, user.id))).toEqual([]);
      expect((await me(user.auth)).json()).toEqual({ user: null });
      expect((await me({ authorization: `Bearer ${second.json().token}` })).json()).toEqual({ user: null });
      expect(await t.container.apiKeys.authenticate(key)).toBeNull();
      expect((await inject({ url: avatarUrl.slice(BASE_URL.length) })).statusCode).toBe(404);

      expect(await t.container.db.select().from(orders).where(eq(orders.id, orderId))).toHaveLength(1);
      const history = await t.container.db
        .select()
        .from(walletTransactions)
        .where(eq(walletTransactions.accountId, user.id));
      expect(history).toHaveLength(2);
      await expectBalanceMatchesHistory(user.id);

      const relogin = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: user.email, password: user.password },
      });
      expect(relogin.statusCode).toBe(401);
      const again = await registerViaApi(t.app, { email: user.email });
      expect(again.id).not.toBe(user.id);
    });

    it('rejects a cookie-authenticated delete from a foreign origin', async () => {
      const user = await registerViaApi(t.app);
      const res = await inject({
        method: 'DELETE',
        url: '/api/v1/user/account',
        headers: { cookie: `svc_session=${user.token}`, origin: 'https://evil.example' },
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('CSRF_REJECTED');
      expect((await me(user.auth)).json().user.id).toBe(user.id);
    });
  });
});
