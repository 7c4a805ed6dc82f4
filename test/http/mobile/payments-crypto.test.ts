import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { payments } from '../../../src/db/schema/index.js';
import { signSandboxPayload } from '../../../src/providers/payments/sandbox.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { balanceOf, createUser, type TestUser } from '../../helpers/factories.js';
import { expectLedgerInvariant } from '../../helpers/ledger.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());
afterEach(async () => expectLedgerInvariant(t.container));

function createInvoice(user: TestUser, body: Record<string, unknown>) {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/payments/crypto/create-invoice',
    headers: user.auth,
    payload: body,
  });
}

async function invoiceFor(user: TestUser, body: Record<string, unknown>) {
  const res = await createInvoice(user, body);
  expect(res.statusCode).toBe(200);
  return res.json<{ uuid: string; url: string; amount: string; currency: string; order_id: string }>();
}

function complete(invoiceId: string, outcome: string) {
  return t.app.inject({ method: 'POST', url: `/sandbox/crypto/${invoiceId}/complete`, payload: { outcome } });
}

describe('crypto top-up through the sandbox', () => {
  it('returns the invoice with url; paying credits the invoiced USD once', async () => {
    const user = await createUser(t.container);
    const invoice = await invoiceFor(user, {
      amount: '12.34',
      currency: 'USD',
      url_return: 'myapp://wallet',
    });
    expect(invoice).toMatchObject({ amount: '12.34', currency: 'USD' });
    expect(invoice.url).toBe(`http://localhost:3000/sandbox/crypto/${invoice.uuid}`);
    expect(invoice.order_id).toMatch(/^pay_/);

    const page = await t.app.inject({ method: 'GET', url: `/sandbox/crypto/${invoice.uuid}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('12.34 USD');

    const paid = await complete(invoice.uuid, 'paid');
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe('myapp://wallet');
    expect((await complete(invoice.uuid, 'paid')).statusCode).toBe(303);
    expect(await balanceOf(t.container, user.id)).toBe(1234);

    const tx = await t.app.inject({
      method: 'GET',
      url: '/api/v1/user/wallet/transactions',
      headers: user.auth,
    });
    expect(tx.json().transactions).toEqual([
      expect.objectContaining({ kind: 'deposit', amount: 12.34, balanceAfter: 12.34, currency: 'USD' }),
    ]);
  });

  it('defaults currency to USD and accepts a whole number string', async () => {
    const user = await createUser(t.container);
    const invoice = await invoiceFor(user, { amount: '2' });
    expect(invoice).toMatchObject({ amount: '2.00', currency: 'USD' });
    const cancelled = await complete(invoice.uuid, 'cancelled');
    expect(cancelled.headers.location).toBe('http://localhost:3000/payment/cancel');
    expect(await balanceOf(t.container, user.id)).toBe(0);
    const [payment] = await t.container.db
      .select()
      .from(payments)
      .where(eq(payments.providerRef, invoice.uuid));
    expect(payment!.status).toBe('cancelled');
  });

  it('rejects bad amounts, currencies and URLs with 400', async () => {
    const user = await createUser(t.container);
    const bad = [
      { amount: '1.99' },
      { amount: '0' },
      { amount: '-5' },
      { amount: '2.001' },
      { amount: '1e3' },
      { amount: 'ten' },
      { amount: '' },
      {},
      { amount: '10', currency: 'EUR' },
      { amount: '10', url_return: 'javascript:alert(1)' },
      { amount: '10', url_return: '/relative' },
    ];
    for (const body of bad) {
      const res = await createInvoice(user, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
    }
    expect(await t.container.db.select().from(payments).where(eq(payments.accountId, user.id))).toHaveLength(
      0,
    );
  });

  it('unsigned, forged and replayed crypto webhooks', async () => {
    const user = await createUser(t.container);
    const invoice = await invoiceFor(user, { amount: '5' });
    const body = JSON.stringify({
      id: `evt_${invoice.uuid}_paid`,
      type: 'crypto.paid',
      data: {
        object: {
          id: invoice.uuid,
          reference: invoice.order_id,
          amountMinor: 500,
          currency: 'USD',
          status: 'paid',
        },
      },
    });
    const now = Math.floor(t.clock.now().getTime() / 1000);
    const send = (headers: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/payments/crypto/webhook',
        headers: { 'content-type': 'application/json', ...headers },
        payload: body,
      });
    expect((await send({})).statusCode).toBe(400);
    expect((await send({ 'sandbox-signature': signSandboxPayload('nope', body, now) })).statusCode).toBe(400);
    expect(await balanceOf(t.container, user.id)).toBe(0);

    // The hosted page's completion delivers the same event id: the manual delivery is a replay.
    expect((await complete(invoice.uuid, 'paid')).statusCode).toBe(303);
    const replay = await send({
      'sandbox-signature': signSandboxPayload(await t.container.paymentProviders.sandboxSecret(), body, now),
    });
    expect(replay.json()).toEqual({ received: true, outcome: 'duplicate' });
    expect(await balanceOf(t.container, user.id)).toBe(500);
  });

  it('unknown invoices are 404', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/sandbox/crypto/inv_sbx_missing' })).statusCode).toBe(
      404,
    );
    expect((await complete('inv_sbx_missing', 'paid')).statusCode).toBe(404);
  });
});
