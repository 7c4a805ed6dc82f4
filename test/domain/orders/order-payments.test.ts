import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/index.js';
import { createContainer, type Container } from '../../../src/container.js';
import { jobs, orders, payments, walletTransactions } from '../../../src/db/schema/index.js';
import { createOrderPaymentHandler } from '../../../src/domain/orders/order-payments.js';
import { ManualClock } from '../../../src/lib/clock.js';
import { signSandboxPayload, SANDBOX_SIGNATURE_HEADER } from '../../../src/providers/payments/sandbox.js';
import { freshDatabase } from '../../helpers/app.js';
import { balanceOf, createPlan, createUser, expectLedgerInvariant } from '../../helpers/factories.js';

/**
 * Rules tier: the payments → orders port without the HTTP app. The container is built directly
 * (composition root only), and settlement is driven through the payments service.
 */
const silent = {
  level: 'silent',
  fatal() {},
  error() {},
  warn() {},
  info() {},
  debug() {},
  trace() {},
  silent() {},
  child: () => silent,
} as unknown as FastifyBaseLogger;

let c: Container;
let drop: () => Promise<void>;
let planId: string;
const PRICE = 499;

beforeAll(async () => {
  const fresh = await freshDatabase();
  drop = fresh.drop;
  const config = loadConfig({
    PUBLIC_BASE_URL: 'http://localhost:3000',
    LOG_LEVEL: 'silent',
    WORKER_ENABLED: 'false',
    DATABASE_URL: 'memory://',
  });
  c = createContainer({ config, database: fresh.database, clock: new ManualClock(), log: silent });
  planId = (await createPlan(c, { priceCents: PRICE })).id;
});
afterAll(async () => drop());

async function cardOrder(accountId: string) {
  const placed = await c.orders.placeOrder({
    accountId,
    channel: 'mobile',
    planId,
    quantity: 1,
    paymentMethod: 'card',
  });
  expect(placed.order.status).toBe('AWAITING_PAYMENT');
  const [payment] = await c.db.select().from(payments).where(eq(payments.orderId, placed.order.id));
  return { order: placed.order, payment: payment! };
}

const orderOf = async (id: string) => (await c.db.select().from(orders).where(eq(orders.id, id)))[0]!;
/** The account's ledger rows by kind (rows of one transaction share a timestamp). */
const ledgerOf = (accountId: string) =>
  c.db
    .select({ kind: walletTransactions.kind, amountCents: walletTransactions.amountCents })
    .from(walletTransactions)
    .where(eq(walletTransactions.accountId, accountId))
    .orderBy(walletTransactions.kind);
const fulfillJobs = (orderId: string) =>
  c.db
    .select()
    .from(jobs)
    .where(and(eq(jobs.kind, 'order.fulfill'), eq(jobs.dedupeKey, `fulfill:${orderId}`)));

/** A second, differently identified "paid" event for the same session (another delivery path). */
async function otherPaidEvent(providerRef: string, paymentId: string, eventId: string) {
  const body = JSON.stringify({
    id: eventId,
    type: 'card.paid',
    data: {
      object: { id: providerRef, reference: paymentId, amountMinor: PRICE, currency: 'USD', status: 'paid' },
    },
  });
  const signature = signSandboxPayload(
    await c.paymentProviders.sandboxSecret(),
    body,
    Math.floor(c.clock.now().getTime() / 1000),
  );
  return c.payments.handleWebhook('card', Buffer.from(body), { [SANDBOX_SIGNATURE_HEADER]: signature });
}

describe('payment succeeded → order', () => {
  it('charges the order exactly once; replayed and repeated settlements change nothing', async () => {
    const user = await createUser(c);
    const { order, payment } = await cardOrder(user.id);

    const first = await c.payments.completeSandbox('card', payment.providerRef!, 'paid');
    expect(first.status).toBe('paid');
    const paid = await orderOf(order.id);
    expect(paid).toMatchObject({ status: 'PROCESSING', paymentId: payment.id });
    expect(await ledgerOf(user.id)).toEqual([
      { kind: 'deposit', amountCents: PRICE },
      { kind: 'purchase', amountCents: -PRICE },
    ]);
    expect(await fulfillJobs(order.id)).toHaveLength(1);

    // The same event again (provider retry), another event paying the same session, and the
    // orders handler called a second time directly: no second deposit, purchase or job.
    await c.payments.completeSandbox('card', payment.providerRef!, 'paid');
    expect(await otherPaidEvent(payment.providerRef!, payment.id, `evt_other_${payment.id}`)).toBe(
      'already_final',
    );
    const [settled] = await c.db.select().from(payments).where(eq(payments.id, payment.id));
    await c.db.transaction(async (tx) => {
      const handler = createOrderPaymentHandler({
        db: c.db,
        clock: c.clock,
        queue: c.queue,
        fulfillmentMaxAttempts: 3,
      });
      await handler.paymentSucceeded(tx, settled!);
    });
    expect(await ledgerOf(user.id)).toHaveLength(2);
    expect(await fulfillJobs(order.id)).toHaveLength(1);
    expect(await orderOf(order.id)).toEqual(paid);
    expect(await balanceOf(c, user.id)).toBe(0);
    await expectLedgerInvariant(c);
  });
});

describe('payment closed → order', () => {
  it('an expired payment cancels its checkout order, and a late payment stays in the wallet', async () => {
    const user = await createUser(c);
    const { order, payment } = await cardOrder(user.id);

    expect(await c.payments.expirePayment(payment.id)).toBe(true);
    expect((await orderOf(order.id)).status).toBe('CANCELLED');
    expect(await c.payments.expirePayment(payment.id)).toBe(false);

    // Money reported after the expiry is credited, but the cancelled order is never charged.
    expect(await otherPaidEvent(payment.providerRef!, payment.id, `evt_late_${payment.id}`)).toBe('credited');
    expect((await orderOf(order.id)).status).toBe('CANCELLED');
    expect(await ledgerOf(user.id)).toEqual([{ kind: 'deposit', amountCents: PRICE }]);
    expect(await fulfillJobs(order.id)).toHaveLength(0);
    await expectLedgerInvariant(c);
  });

  it('the order.expire job expires the payment first, then the order', async () => {
    const user = await createUser(c);
    const { order, payment } = await cardOrder(user.id);
    await c.jobHandlers['order.expire']!.run({ payload: { orderId: order.id } } as never);
    expect((await orderOf(order.id)).status).toBe('CANCELLED');
    const [expired] = await c.db.select().from(payments).where(eq(payments.id, payment.id));
    expect(expired!.status).toBe('expired');
    // The provider's own "paid" for the closed session still credits the wallet only.
    await c.payments.completeSandbox('card', payment.providerRef!, 'paid');
    expect((await orderOf(order.id)).status).toBe('CANCELLED');
    expect(await balanceOf(c, user.id)).toBe(PRICE);
    await expectLedgerInvariant(c);
  });
});
