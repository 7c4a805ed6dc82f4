import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { esims, jobs, orders, walletTransactions } from '../../../src/db/schema/index.js';
import { HOUR } from '../../../src/lib/clock.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { pickPlan } from '../../helpers/catalog.js';
import { balanceOf, createUser, type TestUser } from '../../helpers/factories.js';
import { expectLedgerInvariant } from '../../helpers/ledger.js';

let t: TestApp;
let planId: string;
let priceCents: number;

beforeAll(async () => {
  t = await buildTestApp();
  const plan = await pickPlan(t.container);
  planId = plan.id;
  priceCents = plan.effectivePriceCents;
});
afterAll(() => t.close());

function checkout(user: TestUser, payload: Record<string, unknown>, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/checkout',
    headers: { ...user.auth, ...headers },
    payload,
  });
}

/** `/sandbox/card/cs_…/complete` for the payment page URL a checkout returned. */
function completePage(url: string, outcome: 'paid' | 'cancelled') {
  const path = new URL(url).pathname;
  return t.app.inject({ method: 'POST', url: `${path}/complete`, payload: { outcome } });
}

async function orderRow(id: string) {
  const [row] = await t.container.db.select().from(orders).where(eq(orders.id, id));
  return row!;
}

describe('POST /checkout with the wallet', () => {
  it('charges the wallet and issues the eSIMs in the request', async () => {
    const user = await createUser(t.container, { balanceCents: priceCents * 2 + 17 });
    const res = await checkout(user, { planId, quantity: 2, paymentMethod: 'wallet' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, status: 'COMPLETED' });
    expect(body.orderNumber).toMatch(/^SVC-\d{6}-[0-9A-HJKMNP-TV-Z]{8}$/);
    expect(body.esimIds).toHaveLength(2);
    expect(await balanceOf(t.container, user.id)).toBe(17);

    const order = await orderRow(body.orderId);
    expect(order).toMatchObject({ status: 'COMPLETED', amountCents: priceCents * 2, channel: 'mobile' });
    const issued = await t.container.db.select().from(esims).where(eq(esims.orderId, order.id));
    expect(issued.map((e) => e.id).sort()).toEqual([...body.esimIds].sort());
    const [purchase] = await t.container.db
      .select()
      .from(walletTransactions)
      .where(eq(walletTransactions.reference, `order:${order.id}:purchase`));
    expect(purchase).toMatchObject({ kind: 'purchase', amountCents: -priceCents * 2, orderId: order.id });
    await expectLedgerInvariant(t.container);
  });

  it('defaults quantity to 1 and validates input', async () => {
    const user = await createUser(t.container, { balanceCents: priceCents });
    const ok = await checkout(user, { planId, paymentMethod: 'wallet' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().esimIds).toHaveLength(1);
    for (const bad of [
      { paymentMethod: 'wallet' },
      { planId, quantity: 0, paymentMethod: 'wallet' },
      { planId, quantity: 11, paymentMethod: 'wallet' },
      { planId, quantity: 1.5, paymentMethod: 'wallet' },
      { planId, paymentMethod: 'paypal' },
      { planId },
    ]) {
      const res = await checkout(user, bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
    }
  });

  it('too little balance: 400 INSUFFICIENT_BALANCE and nothing charged or stored', async () => {
    const user = await createUser(t.container, { balanceCents: priceCents - 1 });
    const res = await checkout(user, { planId, paymentMethod: 'wallet' }, { 'accept-language': 'en' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'INSUFFICIENT_BALANCE' });
    expect(res.json().error).toMatch(/balance/i);
    expect(await balanceOf(t.container, user.id)).toBe(priceCents - 1);
    expect(await t.container.db.select().from(orders).where(eq(orders.accountId, user.id))).toHaveLength(0);
    await expectLedgerInvariant(t.container);
  });

  it('unknown plan → 400 PLAN_NOT_FOUND; no session → 401', async () => {
    const user = await createUser(t.container, { balanceCents: 10_000 });
    const res = await checkout(user, { planId: 'plan_nope', paymentMethod: 'wallet' });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('PLAN_NOT_FOUND');
    const anon = await t.app.inject({
      method: 'POST',
      url: '/api/v1/checkout',
      payload: { planId, paymentMethod: 'wallet' },
    });
    expect(anon.statusCode).toBe(401);
  });

  it('top-up plans need the iccid of an own eSIM and quantity 1; other plans reject iccid', async () => {
    const topUp = await pickPlan(t.container, { isTopUp: true });
    const user = await createUser(t.container, { balanceCents: 100_000 });
    const other = await createUser(t.container, { balanceCents: 100_000 });
    const first = await checkout(user, { planId, paymentMethod: 'wallet' });
    const [esim] = await t.container.db.select().from(esims).where(eq(esims.id, first.json().esimIds[0]));

    const cases: Array<[TestUser, Record<string, unknown>]> = [
      [user, { planId: topUp.id, paymentMethod: 'wallet' }],
      [user, { planId: topUp.id, quantity: 2, iccid: esim!.iccid, paymentMethod: 'wallet' }],
      [other, { planId: topUp.id, iccid: esim!.iccid, paymentMethod: 'wallet' }],
      [user, { planId, iccid: esim!.iccid, paymentMethod: 'wallet' }],
    ];
    for (const [who, payload] of cases) {
      const res = await checkout(who, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
    }

    const ok = await checkout(user, { planId: topUp.id, iccid: esim!.iccid, paymentMethod: 'wallet' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ status: 'COMPLETED', esimIds: [esim!.id] });
    const [after] = await t.container.db.select().from(esims).where(eq(esims.id, esim!.id));
    expect(after!.totalVolumeMb).toBe(esim!.totalVolumeMb + topUp.dataAmountMb);
    await expectLedgerInvariant(t.container);
  });

  it('20 parallel checkouts against a wallet covering 7: exactly 7 succeed, balance exactly 0', async () => {
    const user = await createUser(t.container, { balanceCents: priceCents * 7 });
    const results = await Promise.all(
      Array.from({ length: 20 }, () => checkout(user, { planId, paymentMethod: 'wallet' })),
    );
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(7);
    expect(statuses.filter((s) => s === 400)).toHaveLength(13);
    for (const r of results.filter((x) => x.statusCode === 400))
      expect(r.json().code).toBe('INSUFFICIENT_BALANCE');
    expect(await balanceOf(t.container, user.id)).toBe(0);
    const placed = await t.container.db.select().from(orders).where(eq(orders.accountId, user.id));
    expect(placed).toHaveLength(7);
    expect(placed.every((o) => o.status === 'COMPLETED')).toBe(true);
    await expectLedgerInvariant(t.container);
  });
});

describe('Idempotency-Key on POST /checkout', () => {
  it('a repeat returns the first response without a second charge; another body → 409', async () => {
    const user = await createUser(t.container, { balanceCents: priceCents * 5 });
    const key = { 'idempotency-key': 'checkout-abc-1' };
    const first = await checkout(user, { planId, paymentMethod: 'wallet' }, key);
    expect(first.statusCode, first.body).toBe(200);
    const again = await checkout(user, { paymentMethod: 'wallet', planId }, key);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(await balanceOf(t.container, user.id)).toBe(priceCents * 4);

    const reused = await checkout(user, { planId, quantity: 2, paymentMethod: 'wallet' }, key);
    expect(reused.statusCode).toBe(409);
    expect(reused.json().code).toBe('IDEMPOTENCY_KEY_REUSED');

    // Keys are per account: another account may use the same key.
    const other = await createUser(t.container, { balanceCents: priceCents });
    const theirs = await checkout(other, { planId, paymentMethod: 'wallet' }, key);
    expect(theirs.statusCode).toBe(200);
    expect(theirs.json().orderId).not.toBe(first.json().orderId);

    // After 24 hours the key is free again.
    t.clock.advance(24 * HOUR + 1000);
    const later = await checkout(user, { planId, paymentMethod: 'wallet' }, key);
    expect(later.statusCode).toBe(200);
    expect(later.json().orderId).not.toBe(first.json().orderId);
    await expectLedgerInvariant(t.container);
  });

  it('parallel repeats of one key place one order; errors are replayed too', async () => {
    const user = await createUser(t.container, { balanceCents: priceCents * 3 });
    const key = { 'idempotency-key': 'parallel-1' };
    const results = await Promise.all(
      Array.from({ length: 5 }, () => checkout(user, { planId, paymentMethod: 'wallet' }, key)),
    );
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(results.map((r) => r.json().orderId)).size).toBe(1);
    expect(await balanceOf(t.container, user.id)).toBe(priceCents * 2);

    const poor = await createUser(t.container, { balanceCents: 1 });
    const declined = await checkout(poor, { planId, paymentMethod: 'wallet' }, { 'idempotency-key': 'p' });
    expect(declined.statusCode).toBe(400);
    const replay = await checkout(poor, { planId, paymentMethod: 'wallet' }, { 'idempotency-key': 'p' });
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toEqual(declined.json());
  });
});

describe('POST /checkout with card or crypto', () => {
  it('card: returns the sandbox page for exactly the order amount; paying fulfils it', async () => {
    const user = await createUser(t.container);
    const res = await checkout(user, {
      planId,
      quantity: 2,
      paymentMethod: 'card',
      successUrl: 'myapp://checkout/done',
      cancelUrl: 'myapp://checkout/cancel',
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, status: 'AWAITING_PAYMENT', esimIds: [] });
    expect(body.url).toMatch(/^http:\/\/localhost:3000\/sandbox\/card\//);
    const order = await orderRow(body.orderId);
    expect(order.status).toBe('AWAITING_PAYMENT');
    const payment = await t.container.payments.get(order.paymentId!);
    expect(payment).toMatchObject({ amountMinor: priceCents * 2, currency: 'USD', orderId: order.id });

    const paid = await completePage(body.url, 'paid');
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe('myapp://checkout/done');
    expect((await orderRow(order.id)).status).toBe('PROCESSING');
    await t.container.worker.runDue();
    expect((await orderRow(order.id)).status).toBe('COMPLETED');
    const issued = await t.container.db.select().from(esims).where(eq(esims.orderId, order.id));
    expect(issued).toHaveLength(2);
    // The deposit from the card and the purchase cancel out.
    expect(await balanceOf(t.container, user.id)).toBe(0);
    await expectLedgerInvariant(t.container);
  });

  it('card: cancelling on the page cancels the order; nothing charged', async () => {
    const user = await createUser(t.container);
    const res = await checkout(user, { planId, paymentMethod: 'card' });
    const cancelled = await completePage(res.json().url, 'cancelled');
    expect(cancelled.statusCode).toBe(303);
    expect((await orderRow(res.json().orderId)).status).toBe('CANCELLED');
    expect(await balanceOf(t.container, user.id)).toBe(0);
  });

  it('crypto: invoice page; paying fulfils the order', async () => {
    const user = await createUser(t.container);
    const res = await checkout(user, { planId, paymentMethod: 'crypto' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().url).toMatch(/^http:\/\/localhost:3000\/sandbox\/crypto\//);
    expect((await completePage(res.json().url, 'paid')).statusCode).toBe(303);
    await t.container.worker.runDue();
    const order = await orderRow(res.json().orderId);
    expect(order.status).toBe('COMPLETED');
    expect(await balanceOf(t.container, user.id)).toBe(0);
    await expectLedgerInvariant(t.container);
  });

  it('an unpaid order is cancelled after 24 hours; a later payment stays as wallet credit', async () => {
    const user = await createUser(t.container);
    const res = await checkout(user, { planId, paymentMethod: 'card' });
    const orderId = res.json().orderId;
    t.clock.advance(23 * HOUR);
    await t.container.worker.runDue();
    expect((await orderRow(orderId)).status).toBe('AWAITING_PAYMENT');
    t.clock.advance(HOUR + 1000);
    await t.container.worker.runDue();
    expect((await orderRow(orderId)).status).toBe('CANCELLED');
    const [expireJob] = await t.container.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, 'order.expire'), eq(jobs.dedupeKey, `expire:${orderId}`)));
    expect(expireJob!.status).toBe('done');
    await completePage(res.json().url, 'paid');
    expect((await orderRow(orderId)).status).toBe('CANCELLED');
    await expectLedgerInvariant(t.container);
  });
});
