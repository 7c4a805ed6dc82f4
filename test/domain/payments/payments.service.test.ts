import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { payments, walletTransactions } from '../../../src/db/schema/index.js';
import {
  createPaymentsService,
  type PaymentRecord,
  type PaymentsService,
} from '../../../src/domain/payments/payments.service.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { balanceOf, createUser } from '../../helpers/factories.js';
import { expectLedgerInvariant } from '../../helpers/ledger.js';

let t: TestApp;
let service: PaymentsService;
const calls: Array<{ hook: 'paid' | 'cancelled'; payment: PaymentRecord }> = [];
let failPaidHook = false;

beforeAll(async () => {
  t = await buildTestApp();
  // The payments service on its own, with a recording listener in place of the orders area.
  service = createPaymentsService({
    db: t.container.db,
    clock: t.clock,
    log: t.container.log,
    publicBaseUrl: t.config.publicBaseUrl,
    exchangeRates: t.container.exchangeRates,
    providers: t.container.paymentProviders,
    orders: {
      paymentSucceeded: async (_tx, payment) => {
        if (failPaidHook) throw new Error('order hook failed');
        calls.push({ hook: 'paid', payment });
      },
      paymentClosed: async (_tx, payment) => void calls.push({ hook: 'cancelled', payment }),
    },
  });
});
afterAll(async () => t.close());
afterEach(async () => {
  calls.length = 0;
  failPaidHook = false;
  await expectLedgerInvariant(t.container);
});

const orderCard = (accountId: string, orderId: string) =>
  service.createCardPayment({
    accountId,
    purpose: 'order',
    orderId,
    amountMinor: 499,
    currency: 'USD',
  });

describe('payments service contract with orders', () => {
  it('an order payment deposits into the wallet, then calls the paid hook once, in one transaction', async () => {
    const user = await createUser(t.container);
    const created = await orderCard(user.id, 'ord_contract1');
    expect(created.url).toContain(`/sandbox/card/${created.sessionId}`);
    const [pending] = await t.container.db.select().from(payments).where(eq(payments.id, created.paymentId));
    expect(pending).toMatchObject({
      purpose: 'order',
      orderId: 'ord_contract1',
      successUrl: 'http://localhost:3000/payment/success',
      cancelUrl: 'http://localhost:3000/payment/cancel',
    });

    await service.completeSandbox('card', created.sessionId, 'paid');
    await service.completeSandbox('card', created.sessionId, 'paid');
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ hook: 'paid', payment: { id: created.paymentId, status: 'paid' } });
    const rows = await t.container.db
      .select()
      .from(walletTransactions)
      .where(eq(walletTransactions.reference, `payment:${created.paymentId}`));
    expect(rows).toEqual([
      expect.objectContaining({
        kind: 'deposit',
        amountCents: 499,
        orderId: 'ord_contract1',
        paymentId: created.paymentId,
      }),
    ]);
  });

  it('a failing paid hook rolls everything back, so the redelivered event can succeed', async () => {
    const user = await createUser(t.container);
    const created = await orderCard(user.id, 'ord_contract2');
    failPaidHook = true;
    await expect(service.completeSandbox('card', created.sessionId, 'paid')).rejects.toThrow(
      'order hook failed',
    );
    expect(await balanceOf(t.container, user.id)).toBe(0);
    expect((await service.get(created.paymentId))!.status).toBe('pending');
    failPaidHook = false;
    await service.completeSandbox('card', created.sessionId, 'paid');
    expect(await balanceOf(t.container, user.id)).toBe(499);
    expect(calls.map((c) => c.hook)).toEqual(['paid']);
  });

  it('cancel and expiry call the cancelled hook once and never after paid', async () => {
    const user = await createUser(t.container);
    const cancelled = await orderCard(user.id, 'ord_contract3');
    await service.completeSandbox('card', cancelled.sessionId, 'cancelled');
    const expiring = await orderCard(user.id, 'ord_contract4');
    expect(await service.expirePayment(expiring.paymentId)).toBe(true);
    expect(await service.expirePayment(expiring.paymentId)).toBe(false);
    expect(calls.map((c) => [c.hook, c.payment.orderId, c.payment.status])).toEqual([
      ['cancelled', 'ord_contract3', 'cancelled'],
      ['cancelled', 'ord_contract4', 'expired'],
    ]);
    const paid = await orderCard(user.id, 'ord_contract5');
    await service.completeSandbox('card', paid.sessionId, 'paid');
    expect(await service.expirePayment(paid.paymentId)).toBe(false);
    expect(calls.filter((c) => c.payment.orderId === 'ord_contract5').map((c) => c.hook)).toEqual(['paid']);
  });

  it('crypto order payments use the same settlement', async () => {
    const user = await createUser(t.container);
    const created = await service.createCryptoPayment({
      accountId: user.id,
      purpose: 'order',
      orderId: 'ord_contract6',
      amountCents: 150,
    });
    expect(created.invoice.url).toContain('/sandbox/crypto/');
    await service.completeSandbox('crypto', String(created.invoice.uuid), 'paid');
    expect(calls).toEqual([expect.objectContaining({ hook: 'paid' })]);
    expect(await balanceOf(t.container, user.id)).toBe(150);
  });
});
