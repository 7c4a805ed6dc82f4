import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { accounts, esims, events, walletTransactions } from '../../../src/db/schema/index.js';
import { reconcile } from '../../../src/domain/ops/reconcile.js';
import { createSandboxEsimControls } from '../../../src/providers/esim/sandbox/controls.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { pickPlan } from '../../helpers/catalog.js';
import { balanceOf } from '../../helpers/factories.js';
import { expectLedgerInvariant } from '../../helpers/ledger.js';
import { partnerWithBothKeys, PARTNER_ROOT, postOrder } from './helpers.js';

let t: TestApp;
let planId: string;
let priceCents: number;

beforeAll(async () => {
  t = await buildTestApp({ env: { SUPPORT_EMAIL: 'help@example.com' } });
  const plan = await pickPlan(t.container);
  planId = plan.id;
  priceCents = plan.effectivePriceCents;
});
afterAll(() => t.close());
afterEach(async () => {
  await expectLedgerInvariant(t.container);
  expect((await reconcile({ db: t.container.db, clock: t.clock })).problems).toEqual([]);
});

const cancel = (headers: Record<string, string>, orderId: string, extra: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: `${PARTNER_ROOT}/orders/${orderId}/cancel`,
    headers: { ...headers, ...extra },
  });

async function place(headers: Record<string, string>) {
  const res = await postOrder(t, headers, { planId, quantity: 1 });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ id: string; esims: Array<{ iccid: string }> }>();
}

const refundedEvents = (accountId: string) =>
  t.container.db
    .select()
    .from(events)
    .where(and(eq(events.accountId, accountId), eq(events.type, 'order.refunded')));

async function testBalance(accountId: string) {
  const [row] = await t.container.db.select().from(accounts).where(eq(accounts.id, accountId));
  return row!.testWalletBalanceCents;
}

describe('POST /api/public/v1/orders/:id/cancel', () => {
  it('live key: the Partner order REFUNDED, eSIMs CANCELLED, wallet refunded, order.refunded once', async () => {
    const p = await partnerWithBothKeys(t, priceCents);
    const order = await place(p.live);
    const key = { 'idempotency-key': 'partner-cancel-1' };
    const res = await cancel(p.live, order.id, key);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: order.id, status: 'REFUNDED', esims: [{ status: 'CANCELLED' }] });
    expect(await balanceOf(t.container, p.user.id)).toBe(priceCents);
    const replay = await cancel(p.live, order.id, key);
    expect(replay.json()).toEqual(res.json());
    const fired = await refundedEvents(p.user.id);
    expect(fired).toHaveLength(1);
    expect(fired[0]!.data).toMatchObject({
      id: order.id,
      status: 'REFUNDED',
      esims: [{ status: 'CANCELLED' }],
    });
  });

  it('test key: cancels a test order through the sandbox, to the test wallet; live untouched', async () => {
    const p = await partnerWithBothKeys(t, priceCents);
    const liveBefore = await balanceOf(t.container, p.user.id);
    const testBefore = await testBalance(p.user.id);
    const order = await place(p.test);
    expect(await testBalance(p.user.id)).toBe(testBefore - priceCents);
    // The live key does not see test orders.
    expect((await cancel(p.live, order.id)).statusCode).toBe(404);
    const res = await cancel(p.test, order.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'REFUNDED', livemode: false });
    expect(await testBalance(p.user.id)).toBe(testBefore);
    expect(await balanceOf(t.container, p.user.id)).toBe(liveBefore);
    const [event] = await refundedEvents(p.user.id);
    expect(event?.livemode).toBe(false);
    const rows = await t.container.db
      .select()
      .from(walletTransactions)
      .where(and(eq(walletTransactions.orderId, order.id), eq(walletTransactions.kind, 'refund')));
    expect(rows.map((r) => [r.amountCents, r.livemode])).toEqual([[priceCents, false]]);
  });

  it('installed: 409 ESIM_INSTALLED with how to reach support; a web order is not the Partner API’s', async () => {
    const p = await partnerWithBothKeys(t, priceCents * 2);
    const order = await place(p.live);
    await createSandboxEsimControls({ db: t.container.db, clock: t.clock }).setInstallState(
      order.esims[0]!.iccid,
      'INSTALLED',
    );
    const res = await cancel(p.live, order.id);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({
      code: 'ESIM_INSTALLED',
      message: expect.stringContaining('help@example.com'),
      details: { supportEmail: 'help@example.com', supportUrl: expect.stringMatching(/\/support$/) },
    });
    expect(await refundedEvents(p.user.id)).toEqual([]);

    const web = await t.app.inject({
      method: 'POST',
      url: '/api/v1/checkout',
      headers: p.user.auth,
      payload: { planId, paymentMethod: 'wallet' },
    });
    expect((await cancel(p.live, web.json().orderId)).statusCode).toBe(404);
    // A web order cancelled on the web fires no partner event.
    const mine = await t.app.inject({
      method: 'POST',
      url: `/api/v1/user/orders/${web.json().orderId}/cancel`,
      headers: p.user.auth,
    });
    expect(mine.statusCode).toBe(200);
    expect(await refundedEvents(p.user.id)).toEqual([]);
    const cancelled = await t.container.db.select().from(esims).where(eq(esims.orderId, web.json().orderId));
    expect(cancelled.map((e) => e.status)).toEqual(['CANCELLED']);
  });
});
