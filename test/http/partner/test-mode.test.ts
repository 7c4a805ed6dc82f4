import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { esims, orders, walletTransactions } from '../../../src/db/schema/index.js';
import type { SellablePlan } from '../../../src/domain/catalog/catalog.service.js';
import { ADMIN_TOKEN, buildTestApp, type TestApp } from '../../helpers/app.js';
import { pickPlan } from '../../helpers/catalog.js';
import { balanceOf, createPlan, createUser } from '../../helpers/factories.js';
import { expectLedgerInvariant } from '../../helpers/ledger.js';
import { GENERATE, testModeKit } from './test-mode-kit.js';

/** A test that builds an app of its own spends what is otherwise hook time. */
const PER_APP_TEST_TIMEOUT_MS = 60_000;

/**
 * Test mode (docs/partner-reference.md "Test mode"): live and test keys, the test wallet, isolation of test
 * orders from everything live and the x-livemode header (the test helpers: test-mode-helpers.test.ts).
 */

describe('Partner API test mode', () => {
  let t: TestApp;
  let plan: SellablePlan;
  let price: number;

  beforeAll(async () => {
    t = await buildTestApp();
    plan = await pickPlan(t.container);
    price = plan.effectivePriceCents;
  });
  afterAll(() => t.close());

  const kit = testModeKit(() => ({ t, plan }));
  const { generate, partner, get, post, order, mobile, testBalance } = kit;

  describe('keys per mode', () => {
    it('generates a live key by default (no body, empty JSON body, {}) and a test key with mode: test', async () => {
      const user = await createUser(t.container);
      const noBody = await generate(user);
      expect(noBody.statusCode).toBe(200);
      expect(noBody.json()).toMatchObject({ success: true, mode: 'live' });
      expect(noBody.json().key).toMatch(/^svc_live_sk_[A-Za-z0-9]{40}$/);
      const emptyJson = await t.app.inject({
        method: 'POST',
        url: GENERATE,
        headers: { ...user.auth, 'content-type': 'application/json' },
        payload: '',
      });
      expect(emptyJson.statusCode).toBe(200);
      expect(emptyJson.json().key).toMatch(/^svc_live_sk_/);
      expect((await generate(user, {})).json().key).toMatch(/^svc_live_sk_/);

      const test = await generate(user, { mode: 'test' });
      expect(test.statusCode).toBe(200);
      expect(test.json()).toMatchObject({ success: true, mode: 'test' });
      expect(test.json().key).toMatch(/^svc_test_sk_[A-Za-z0-9]{40}$/);
      expect(test.json().apiKeyPrefix).toMatch(/^svc_test_sk_[A-Za-z0-9]{4}…[A-Za-z0-9]{4}$/);

      const bad = await generate(user, { mode: 'sandbox' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().code).toBe('VALIDATION_ERROR');
    });

    it('generating replaces only the key of that mode', async () => {
      const p = await partner();
      const newTest = (await generate(p.user, { mode: 'test' })).json().key as string;
      expect((await get('/wallet', p.test)).statusCode).toBe(401);
      expect((await get('/wallet', { 'x-api-key': newTest })).statusCode).toBe(200);
      expect((await get('/wallet', p.live)).statusCode).toBe(200);

      const newLive = (await generate(p.user, { mode: 'live' })).json().key as string;
      expect((await get('/wallet', p.live)).statusCode).toBe(401);
      expect((await get('/wallet', { authorization: `Bearer ${newLive}` })).statusCode).toBe(200);
      expect((await get('/wallet', { 'x-api-key': newTest })).statusCode).toBe(200);
    });

    it('a test key is only ever compared with test hashes: the live key with its prefix swapped is refused', async () => {
      const p = await partner();
      const swapped = p.liveKey.replace('svc_live_sk_', 'svc_test_sk_');
      const res = await get('/wallet', { 'x-api-key': swapped });
      expect(res.statusCode).toBe(401);
      expect(res.headers['x-livemode']).toBe('false');
    });

    it('GET /user/api-keys shows prefix and date of both keys; User has hasApiKey and hasTestApiKey', async () => {
      const user = await createUser(t.container);
      const none = await mobile('/user/api-keys', user);
      expect(none.statusCode).toBe(200);
      expect(none.json()).toEqual({ success: true, live: null, test: null });
      expect((await mobile('/auth/me', user)).json().user).toMatchObject({
        hasApiKey: false,
        hasTestApiKey: false,
      });

      const test = (await generate(user, { mode: 'test' })).json();
      const both = (await mobile('/user/api-keys', user)).json();
      expect(both).toEqual({
        success: true,
        live: null,
        test: { apiKeyPrefix: test.apiKeyPrefix, apiKeyGeneratedAt: test.apiKeyGeneratedAt },
      });
      expect(JSON.stringify(both)).not.toContain(test.key);
      expect((await mobile('/auth/me', user)).json().user).toMatchObject({
        hasApiKey: false,
        hasTestApiKey: true,
      });
      const live = (await generate(user)).json();
      expect((await mobile('/user/api-keys', user)).json().live).toEqual({
        apiKeyPrefix: live.apiKeyPrefix,
        apiKeyGeneratedAt: live.apiKeyGeneratedAt,
      });
      expect((await mobile('/auth/me', user)).json().user.hasApiKey).toBe(true);
    });

    it('account deletion destroys both keys (the test balance does not block it)', async () => {
      const p = await partner(0);
      const deleted = await t.app.inject({
        method: 'DELETE',
        url: '/api/v1/user/account',
        headers: p.user.auth,
      });
      expect(deleted.statusCode).toBe(200);
      expect((await get('/wallet', p.live)).statusCode).toBe(401);
      expect((await get('/wallet', p.test)).statusCode).toBe(401);
    });

    it('an operator sees the mode of an order', async () => {
      const p = await partner();
      const placed = (await order(p.test)).json();
      const view = await t.app.inject({
        url: `/api/admin/v1/orders/${placed.id}`,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      });
      expect(view.json().order).toMatchObject({ id: placed.id, livemode: false });
    });

    it('revokeAll ends both keys at once', async () => {
      const p = await partner();
      await t.container.apiKeys.revokeAll(p.user.id);
      expect((await get('/wallet', p.live)).statusCode).toBe(401);
      expect((await get('/wallet', p.test)).statusCode).toBe(401);
      expect((await mobile('/user/api-keys', p.user)).json()).toMatchObject({ live: null, test: null });
    });
  });

  describe('x-livemode', () => {
    it('is on every partner response whose key names a mode, errors and 401s included', async () => {
      const p = await partner();
      const cases: Array<
        [
          string,
          Record<string, string>,
          () => Promise<{ statusCode: number; headers: Record<string, unknown> }>,
        ]
      > = [
        ['live 200', p.live, () => get('/wallet', p.live)],
        ['test 200', p.test, () => get('/wallet', p.test)],
        ['live 404 order', p.live, () => get('/orders/ord_nope', p.live)],
        ['test 404 order', p.test, () => get('/orders/ord_nope', p.test)],
        ['test 400', p.test, () => get('/orders?limit=0', p.test)],
        ['test 404 route', p.test, () => get('/no-such-route', p.test)],
        ['test catalog', p.test, () => get('/destinations/TR', p.test)],
        ['test 201', p.test, () => order(p.test)],
        [
          'unknown test key 401',
          { 'x-api-key': 'svc_test_sk_unknown' },
          () => get('/wallet', { 'x-api-key': 'svc_test_sk_unknown' }),
        ],
        [
          'unknown live key 401',
          { 'x-api-key': 'svc_live_sk_unknown' },
          () => get('/wallet', { authorization: 'Bearer svc_live_sk_unknown' }),
        ],
        ['live key on a test helper 403', p.live, () => post('/test/wallet/reset', p.live)],
      ];
      for (const [name, headers, run] of cases) {
        const res = await run();
        const expected = headers['x-api-key']!.startsWith('svc_test_sk_') ? 'false' : 'true';
        expect(res.headers['x-livemode'], name).toBe(expected);
      }
      // No key, or something that is not a key: no mode to tell.
      const anonymous = await get('/wallet', {});
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.headers['x-livemode']).toBeUndefined();
      expect((await get('/wallet', { 'x-api-key': 'garbage' })).headers['x-livemode']).toBeUndefined();
    });
  });

  describe('isolation of test orders', () => {
    it('a test order pays from the test wallet and never shows in live reads, lists or the live ledger', async () => {
      const p = await partner(10_000);
      const liveOrder = await order(p.live);
      expect(liveOrder.statusCode).toBe(201);
      expect(liveOrder.json().livemode).toBe(true);
      expect(await testBalance(p)).toBe(1000);

      const testOrder = await order(p.test);
      expect(testOrder.statusCode).toBe(201);
      const created = testOrder.json();
      expect(created).toMatchObject({ status: 'COMPLETED', livemode: false });
      expect(created.esims).toHaveLength(1);
      expect(created.esims[0].livemode).toBe(false);

      // Money: the test wallet paid, the live balance only saw the live order.
      expect(await balanceOf(t.container, p.user.id)).toBe(10_000 - price);
      expect((await get('/wallet', p.live)).json().balanceUsd).toBe((10_000 - price) / 100);
      expect(await testBalance(p)).toBe((100_000 - price) / 100);
      const liveRows = await t.container.db
        .select()
        .from(walletTransactions)
        .where(and(eq(walletTransactions.accountId, p.user.id), eq(walletTransactions.livemode, true)));
      expect(liveRows.map((r) => r.orderId)).not.toContain(created.id);
      const [testCharge] = await t.container.db
        .select()
        .from(walletTransactions)
        .where(eq(walletTransactions.orderId, created.id));
      expect(testCharge).toMatchObject({ livemode: false, amountCents: -price });

      // Partner reads: each key sees its own mode only.
      const liveList = (await get('/orders', p.live)).json().orders.map((o: { id: string }) => o.id);
      const testList = (await get('/orders', p.test)).json().orders.map((o: { id: string }) => o.id);
      expect(liveList).toEqual([liveOrder.json().id]);
      expect(testList).toEqual([created.id]);
      expect((await get(`/orders/${created.id}`, p.live)).statusCode).toBe(404);
      expect((await get(`/orders/${liveOrder.json().id}`, p.test)).statusCode).toBe(404);
      const detail = await get(`/orders/${created.id}`, p.test);
      expect(detail.statusCode).toBe(200);
      expect(detail.json().esims[0]).toMatchObject({ livemode: false, dataUsageMb: 0 });
      // A test cursor in the live list is not one of the live orders.
      expect((await get(`/orders?startingAfter=${created.id}`, p.live)).statusCode).toBe(400);

      // The account's personal (Mobile) lists hold web purchases only: neither Partner order,
      // live or test, is there (issue 32 C7).
      const mobileOrders = (await mobile('/user/orders', p.user))
        .json()
        .orders.map((o: { id: string }) => o.id);
      expect(mobileOrders).toEqual([]);
      expect((await mobile(`/user/orders/${created.id}`, p.user)).statusCode).toBe(404);
      const mobileEsims = (await mobile('/user/esims', p.user)).json().esims.map((e: { id: string }) => e.id);
      expect(mobileEsims).toEqual([]);
      const history = (await mobile('/user/wallet/transactions', p.user)).json().transactions;
      expect(history.map((tx: { orderId: string | null }) => tx.orderId)).not.toContain(created.id);
      expect(history.every((tx: { description: string }) => !tx.description.startsWith('Test wallet'))).toBe(
        true,
      );
      expect((await mobile('/auth/me', p.user)).json().user.walletBalance).toBe((10_000 - price) / 100);

      await expectLedgerInvariant(t.container);
    });

    it('test money never draws on the live balance: an empty test wallet answers 402 whatever the live balance', async () => {
      const p = await partner(1_000_000);
      const pricey = await createPlan(t.container, { priceCents: 60_000 });
      expect((await order(p.test, { planId: pricey.id, quantity: 1 })).statusCode).toBe(201);
      const refused = await order(p.test, { planId: pricey.id, quantity: 1 });
      expect(refused.statusCode).toBe(402);
      expect(refused.json().error.code).toBe('INSUFFICIENT_BALANCE');
      expect(refused.headers['x-livemode']).toBe('false');
      expect(await testBalance(p)).toBe(400);
      expect(await balanceOf(t.container, p.user.id)).toBe(1_000_000);
      await expectLedgerInvariant(t.container);
    });

    it(
      'a test order is provisioned by the sandbox even while the live provider is failing',
      async () => {
        // Its own app, built with a live provider that fails every issue.
        const failingLive = await buildTestApp({
          esimProvider: (configured) => ({
            ...configured,
            issueProfiles: async () => {
              throw new Error('live provider must not be called for a test order');
            },
          }),
        });
        try {
          expect((await pickPlan(failingLive.container)).id).toBe(plan.id);
          const p = await partner(10_000, failingLive);
          const res = await order(p.test, undefined, failingLive);
          expect(res.statusCode).toBe(201);
          expect(res.json().esims[0].smdpAddress).toBe('rsp.sandbox-esim.example.com');
        } finally {
          await failingLive.close();
        }
      },
      PER_APP_TEST_TIMEOUT_MS,
    );

    it('Idempotency-Keys are scoped per mode: one key in live and test makes one order in each', async () => {
      const p = await partner();
      const key = { 'idempotency-key': 'same-key-both-modes' };
      const live = await order({ ...p.live, ...key });
      const test = await order({ ...p.test, ...key });
      const testAgain = await order({ ...p.test, ...key });
      expect([live.statusCode, test.statusCode, testAgain.statusCode]).toEqual([201, 201, 201]);
      expect(test.json().id).not.toBe(live.json().id);
      expect(testAgain.json().id).toBe(test.json().id);
      expect(live.json().livemode).toBe(true);
      expect(test.json().livemode).toBe(false);
      expect(await testBalance(p)).toBe((100_000 - price) / 100);
    });

    it('a test order cannot top up a live eSIM (and the reverse)', async () => {
      const topUp = await pickPlan(t.container, { isTopUp: true });
      const p = await partner(100_000);
      const liveIccid = (await order(p.live)).json().esims[0].iccid as string;
      const testIccid = (await order(p.test)).json().esims[0].iccid as string;
      const wrongWay = await order(p.test, { planId: topUp.id, quantity: 1, iccid: liveIccid });
      expect(wrongWay.statusCode).toBe(400);
      expect((await order(p.live, { planId: topUp.id, quantity: 1, iccid: testIccid })).statusCode).toBe(400);
      const ok = await order(p.test, { planId: topUp.id, quantity: 1, iccid: testIccid });
      expect(ok.statusCode).toBe(201);
      expect(ok.json()).toMatchObject({ livemode: false, status: 'COMPLETED' });
      await expectLedgerInvariant(t.container);
    });
  });

  describe('test wallet', () => {
    it('opens at 1000.00 once; POST /test/wallet/reset sets it back with one ledger row', async () => {
      const p = await partner(5_000);
      expect(await testBalance(p)).toBe(1000);
      // A new test key does not fund the wallet again.
      const again = (await generate(p.user, { mode: 'test' })).json().key as string;
      const test = { 'x-api-key': again };
      expect((await get('/wallet', test)).json().balanceUsd).toBe(1000);

      await order(test);
      await order(test);
      expect((await get('/wallet', test)).json().balanceUsd).toBe((100_000 - 2 * price) / 100);
      const reset = await post('/test/wallet/reset', test);
      expect(reset.statusCode).toBe(200);
      expect(reset.json()).toEqual({ balanceUsd: 1000, currency: 'USD', lowBalanceThreshold: 50 });
      expect(reset.headers['x-livemode']).toBe('false');
      expect((await get('/wallet', test)).json().balanceUsd).toBe(1000);
      const testRows = await t.container.db
        .select()
        .from(walletTransactions)
        .where(and(eq(walletTransactions.accountId, p.user.id), eq(walletTransactions.livemode, false)));
      // opening deposit, two purchases, one reset deposit
      expect(testRows.map((r) => r.kind).sort()).toEqual(['deposit', 'deposit', 'purchase', 'purchase']);
      // A reset at 1000.00 writes nothing.
      await post('/test/wallet/reset', test);
      expect(
        await t.container.db
          .select()
          .from(walletTransactions)
          .where(and(eq(walletTransactions.accountId, p.user.id), eq(walletTransactions.livemode, false))),
      ).toHaveLength(4);
      expect(await balanceOf(t.container, p.user.id)).toBe(5_000);
      await expectLedgerInvariant(t.container);
    });

    it('a reset above 1000.00 (after a refund race, say) debits the difference', async () => {
      const p = await partner();
      await t.container.db.transaction((tx) =>
        import('../../../src/domain/wallet/ledger.js').then(({ postLedgerEntry }) =>
          postLedgerEntry(tx, {
            accountId: p.user.id,
            kind: 'deposit',
            amountCents: 2_500,
            reference: `test:extra:${p.user.id}`,
            at: t.clock.now(),
            livemode: false,
          }),
        ),
      );
      expect(await testBalance(p)).toBe(1025);
      expect((await post('/test/wallet/reset', p.test)).json().balanceUsd).toBe(1000);
      await expectLedgerInvariant(t.container);
    });
  });

  it('every test order and eSIM row carries livemode=false; live ones true', async () => {
    const rows = await t.container.db.select({ id: orders.id, livemode: orders.livemode }).from(orders);
    const esimRows = await t.container.db
      .select({ orderId: esims.orderId, livemode: esims.livemode })
      .from(esims);
    const modeOf = new Map(rows.map((r) => [r.id, r.livemode]));
    expect(esimRows.every((e) => modeOf.get(e.orderId) === e.livemode)).toBe(true);
    expect(rows.some((r) => !r.livemode) && rows.some((r) => r.livemode)).toBe(true);
    await expectLedgerInvariant(t.container);
  });
});
