import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { esims, supportTickets, walletTransactions } from '../../../src/db/schema/index.js';
import type { SellablePlan } from '../../../src/domain/catalog/catalog.service.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { pickPlan } from '../../helpers/catalog.js';
import { balanceOf, createPlan, createUser } from '../../helpers/factories.js';
import { expectLedgerInvariant } from '../../helpers/ledger.js';
import { PARTNER_ROOT } from './helpers.js';
import { testModeKit } from './test-mode-kit.js';

/**
 * Test mode (docs/partner-reference.md "Test mode"), continued from test-mode.test.ts: the test
 * helpers, test orders of another provider's plans, and each mode's rate-limit budget.
 */

describe('Partner API test mode: test helpers', () => {
  let t: TestApp;
  let plan: SellablePlan;
  let price: number;

  beforeAll(async () => {
    t = await buildTestApp();
    plan = await pickPlan(t.container);
    price = plan.effectivePriceCents;
  });
  afterAll(() => t.close());

  const { partner, get, post, order, testBalance, runJobsAfter } = testModeKit(() => ({ t, plan }));

  it('answer 403 FORBIDDEN to a live key, in the partner error shape', async () => {
    const p = await partner();
    for (const [method, url, payload] of [
      ['POST', '/test/wallet/reset', undefined],
      ['POST', '/test/orders/fail-next', {}],
      ['DELETE', '/test/orders/fail-next', undefined],
      ['POST', '/test/esims/esim_x/usage', { usedMb: 1 }],
    ] as const) {
      const res = await t.app.inject({
        method,
        url: `${PARTNER_ROOT}${url}`,
        headers: p.live,
        ...(payload ? { payload } : {}),
      });
      expect(res.statusCode, url).toBe(403);
      expect(res.json().error.code).toBe('FORBIDDEN');
      expect(res.json().error.message).toMatch(/test-mode key/);
    }
    expect((await post('/test/wallet/reset', {})).statusCode).toBe(401);
  });

  it('fail-next (then: complete): 502, charged once, no support ticket, the retry completes it', async () => {
    const p = await partner();
    const other = await partner();
    const armed = await post('/test/orders/fail-next', p.test);
    expect(armed.statusCode).toBe(200);
    expect(armed.json()).toEqual({ armed: true, then: 'complete' });

    // Another account's test order and this account's live order are not affected.
    expect((await order(other.test)).statusCode).toBe(201);
    expect((await order(p.live)).statusCode).toBe(201);

    const failed = await order(p.test);
    expect(failed.statusCode).toBe(502);
    expect(failed.headers['x-livemode']).toBe('false');
    const orderId = failed.json().error.details.orderId as string;
    expect(await testBalance(p)).toBe((100_000 - price) / 100);
    expect((await get(`/orders/${orderId}`, p.test)).json()).toMatchObject({
      status: 'PROCESSING',
      esims: [],
      livemode: false,
    });
    const tickets = await t.container.db
      .select()
      .from(supportTickets)
      .where(eq(supportTickets.orderId, orderId));
    expect(tickets).toHaveLength(0);

    // Only the next order fails.
    expect((await order(p.test)).statusCode).toBe(201);

    await runJobsAfter(t.config.fulfillment.retryBaseSeconds * 1000);
    const done = (await get(`/orders/${orderId}`, p.test)).json();
    expect(done.status).toBe('COMPLETED');
    expect(done.esims).toHaveLength(1);
    expect(await testBalance(p)).toBe((100_000 - 2 * price) / 100);
    await expectLedgerInvariant(t.container);
  });

  it('fail-next (then: refund): the background job refunds the order to the test wallet', async () => {
    const p = await partner(7_000);
    expect((await post('/test/orders/fail-next', p.test, { then: 'refund' })).json()).toEqual({
      armed: true,
      then: 'refund',
    });
    const failed = await order(p.test);
    expect(failed.statusCode).toBe(502);
    const orderId = failed.json().error.details.orderId as string;
    await runJobsAfter(t.config.fulfillment.retryBaseSeconds * 1000);
    const refunded = (await get(`/orders/${orderId}`, p.test)).json();
    expect(refunded.status).toBe('REFUNDED');
    expect(await testBalance(p)).toBe(1000);
    expect(await balanceOf(t.container, p.user.id)).toBe(7_000);
    const [refund] = await t.container.db
      .select()
      .from(walletTransactions)
      .where(and(eq(walletTransactions.orderId, orderId), eq(walletTransactions.kind, 'refund')));
    expect(refund).toMatchObject({ livemode: false, amountCents: price });
    await expectLedgerInvariant(t.container);
  });

  it('DELETE /test/orders/fail-next disarms; an unknown then is 400', async () => {
    const p = await partner();
    await post('/test/orders/fail-next', p.test, { then: 'refund' });
    const cleared = await t.app.inject({
      method: 'DELETE',
      url: `${PARTNER_ROOT}/test/orders/fail-next`,
      headers: p.test,
    });
    expect(cleared.json()).toEqual({ armed: false, wasArmed: true });
    expect((await order(p.test)).statusCode).toBe(201);
    const bad = await post('/test/orders/fail-next', p.test, { then: 'explode' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('VALIDATION_ERROR');
  });

  it('pushes a test eSIM’s usage: visible at once, ACTIVE then DEPLETED; live or foreign eSIMs are 404', async () => {
    const p = await partner();
    const placed = (await order(p.test)).json();
    const esim = placed.esims[0];
    const used = await post(`/test/esims/${esim.id}/usage`, p.test, { usedMb: 300 });
    expect(used.statusCode).toBe(200);
    expect(used.json()).toMatchObject({ id: esim.id, status: 'ACTIVE', dataUsageMb: 300, livemode: false });
    const detail = (await get(`/orders/${placed.id}`, p.test)).json();
    expect(detail.esims[0]).toMatchObject({ dataUsageMb: 300, status: 'ACTIVE' });

    const total = used.json().totalVolumeMb as number;
    const depleted = await post(`/test/esims/${esim.iccid}/usage`, p.test, { usedMb: total });
    expect(depleted.json()).toMatchObject({ status: 'DEPLETED', dataUsageMb: total });

    const liveEsim = (await order(p.live)).json().esims[0];
    expect((await post(`/test/esims/${liveEsim.id}/usage`, p.test, { usedMb: 1 })).statusCode).toBe(404);
    const other = await partner();
    const foreign = await post(`/test/esims/${esim.id}/usage`, other.test, { usedMb: 1 });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error.code).toBe('ESIM_NOT_FOUND');
    expect((await post(`/test/esims/${esim.id}/usage`, p.test, { usedMb: -1 })).statusCode).toBe(400);
    const [row] = await t.container.db.select().from(esims).where(eq(esims.id, liveEsim.id));
    expect(row!.dataUsageMb).toBe(0);
  });
});

describe('test mode with ESIM_PROVIDER=esimaccess', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      env: {
        ESIM_PROVIDER: 'esimaccess',
        ESIMACCESS_ACCESS_CODE: 'test-access-code',
        ESIMACCESS_SECRET_KEY: 'test-secret-key',
        // Nothing listens here: a live order would fail, a test order must never go there.
        ESIMACCESS_BASE_URL: 'http://127.0.0.1:9',
      },
    });
  });
  afterAll(() => t.close());

  it('test orders of eSIM Access plans are provisioned by the sandbox, sized from the plan', async () => {
    const plan = await createPlan(t.container, {
      provider: 'esimaccess',
      providerPackageCode: 'CKH491',
      dataAmountMb: 3072,
      durationDays: 15,
    });
    const user = await createUser(t.container);
    const { key } = await t.container.apiKeys.generate(user.id, 'test');
    const res = await t.app.inject({
      method: 'POST',
      url: `${PARTNER_ROOT}/orders`,
      headers: { 'x-api-key': key },
      payload: { planId: plan.id, quantity: 2 },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ status: 'COMPLETED', livemode: false });
    expect(res.json().esims).toHaveLength(2);
    expect(res.json().esims[0].smdpAddress).toBe('rsp.sandbox-esim.example.com');
    const detail = await t.app.inject({
      url: `${PARTNER_ROOT}/orders/${res.json().id}`,
      headers: { 'x-api-key': key },
    });
    expect(detail.json().esims[0]).toMatchObject({ totalVolumeMb: 3072, livemode: false });
    await expectLedgerInvariant(t.container);
  });
});

describe('test mode rate limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { PARTNER_READ_RATE_LIMIT: '2' } });
  });
  afterAll(() => t.close());

  it('live and test keys of one account have separate budgets of the same size', async () => {
    const user = await createUser(t.container);
    const live = { 'x-api-key': (await t.container.apiKeys.generate(user.id)).key };
    const test = { 'x-api-key': (await t.container.apiKeys.generate(user.id, 'test')).key };
    const wallet = (headers: Record<string, string>) =>
      t.app.inject({ url: `${PARTNER_ROOT}/wallet`, headers });
    expect([(await wallet(live)).statusCode, (await wallet(live)).statusCode]).toEqual([200, 200]);
    const limited = await wallet(live);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['x-livemode']).toBe('true');
    const testRes = await wallet(test);
    expect(testRes.statusCode).toBe(200);
    expect(testRes.headers['x-ratelimit-limit']).toBe('2');
    await wallet(test);
    const testLimited = await wallet(test);
    expect(testLimited.statusCode).toBe(429);
    expect(testLimited.headers['x-livemode']).toBe('false');
  });
});
