import { eq } from 'drizzle-orm';
import { extractText } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts } from '../../../src/db/schema/index.js';
import { planTitle } from '../../../src/domain/catalog/plan-names.js';
import type { SellablePlan } from '../../../src/domain/catalog/catalog.service.js';
import { ADMIN_TOKEN, buildTestApp, type TestApp } from '../../helpers/app.js';
import { pickPlan } from '../../helpers/catalog.js';
import { createUser, type TestUser } from '../../helpers/factories.js';

/**
 * Receipts of orders and top-ups (issue 30 T9) and the USD amount beside converted prices (T4):
 * owner only, both amounts at the rate of the purchase with its date, the PDF's own text.
 */

interface ReceiptBody {
  receipt: {
    kind: string;
    number: string;
    issuedAt: string;
    status: string;
    company: { name: string; address: string; supportEmail: string };
    customer: { name: string; email: string };
    lines: { description: string; quantity: number; amount: { amount: number; formatted: string } }[];
    paymentMethod: string;
    orderNumber: string | null;
    total: { amount: number; currency: string; formatted: string };
    displayTotal: { amount: number; currency: string; formatted: string } | null;
    exchangeRate: { currency: string; ratePerUsd: string; asOf: string | null } | null;
    pdfUrl: string;
  };
}

const COMPANY = { COMPANY_NAME: 'Roam Receipts Ltd', COMPANY_ADDRESS: 'İstiklal Cad. 1, İstanbul' };

let t: TestApp;
let plan: SellablePlan;
let rateSetAt: Date;

beforeAll(async () => {
  t = await buildTestApp({ env: COMPANY });
  plan = await pickPlan(t.container);
  t.clock.advance(60_000);
  rateSetAt = t.clock.now();
  await t.container.exchangeRates.set(t.container.db, { EUR: '0.5' });
});
afterAll(() => t.close());

async function userInEuro(balanceCents = 10_000): Promise<TestUser> {
  const user = await createUser(t.container, { balanceCents });
  await t.container.db.update(accounts).set({ preferredCurrency: 'EUR' }).where(eq(accounts.id, user.id));
  return user;
}

async function buy(user: TestUser, quantity = 2): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/checkout',
    headers: user.auth,
    payload: { planId: plan.id, quantity, paymentMethod: 'wallet' },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ orderId: string }>().orderId;
}

async function pdfText(body: Buffer): Promise<string> {
  const { text } = await extractText(new Uint8Array(body), { mergePages: true });
  return text;
}

describe('order receipts', () => {
  it('states the seller, the plan, the method and both amounts at the rate of the purchase', async () => {
    const user = await userInEuro();
    t.clock.advance(3_600_000);
    const orderId = await buy(user);
    // A later rate changes neither amount nor date on the receipt.
    t.clock.advance(86_400_000);
    await t.container.exchangeRates.set(t.container.db, { EUR: '0.8' });

    const res = await t.app.inject({ url: `/api/v1/user/orders/${orderId}/receipt`, headers: user.auth });
    expect(res.statusCode, res.body).toBe(200);
    const { receipt } = res.json<ReceiptBody>();
    const total = (plan.effectivePriceCents * 2) / 100;
    expect(receipt).toMatchObject({
      kind: 'order',
      status: 'PAID',
      paymentMethod: 'wallet',
      company: { name: COMPANY.COMPANY_NAME, address: COMPANY.COMPANY_ADDRESS },
      customer: { name: 'Test User', email: user.email },
      total: { amount: total, currency: 'USD' },
      displayTotal: { amount: Math.round(plan.effectivePriceCents) / 100, currency: 'EUR' },
      exchangeRate: { currency: 'EUR', ratePerUsd: '0.5', asOf: rateSetAt.toISOString() },
    });
    expect(receipt.number).toBe(`R-${receipt.orderNumber}`);
    expect(receipt.lines).toEqual([
      expect.objectContaining({
        description: planTitle(plan, 'en'),
        quantity: 2,
        amount: expect.objectContaining({ amount: total }),
      }),
    ]);
    expect(receipt.total.formatted).toBe(`$${total.toFixed(2)}`);
    expect(receipt.pdfUrl).toBe(`/api/v1/user/orders/${orderId}/receipt.pdf`);

    // Another display currency on request; the language follows `lang`.
    const tr = await t.app.inject({
      url: `/api/v1/user/orders/${orderId}/receipt?currency=USD&lang=tr`,
      headers: user.auth,
    });
    expect(tr.json<ReceiptBody>().receipt).toMatchObject({ displayTotal: null, exchangeRate: null });
    expect(tr.json<ReceiptBody>().receipt.lines[0]!.description).toBe(planTitle(plan, 'tr'));
  });

  it('is a PDF with the same facts, for the owner only', async () => {
    const user = await userInEuro();
    const orderId = await buy(user, 1);
    const res = await t.app.inject({ url: `/api/v1/user/orders/${orderId}/receipt.pdf`, headers: user.auth });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="receipt-R-SVC-[^"]+\.pdf"$/);
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(res.rawPayload);
    const { receipt } = (
      await t.app.inject({ url: `/api/v1/user/orders/${orderId}/receipt`, headers: user.auth })
    ).json<ReceiptBody>();
    for (const expected of [
      COMPANY.COMPANY_NAME,
      COMPANY.COMPANY_ADDRESS,
      receipt.number,
      planTitle(plan, 'en'),
      'Wallet balance',
      receipt.total.formatted,
      receipt.displayTotal!.formatted,
      '1 USD = 0.',
    ]) {
      expect(text).toContain(expected);
    }

    const stranger = await createUser(t.container);
    for (const url of [
      `/api/v1/user/orders/${orderId}/receipt`,
      `/api/v1/user/orders/${orderId}/receipt.pdf`,
    ]) {
      const other = await t.app.inject({ url, headers: stranger.auth });
      expect(other.statusCode).toBe(404);
      expect(other.json()).toMatchObject({ code: 'ORDER_NOT_FOUND' });
      expect((await t.app.inject({ url })).statusCode).toBe(401);
    }
  });

  it('has none for an order that was never paid', async () => {
    const user = await userInEuro(0);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/checkout',
      headers: user.auth,
      payload: { planId: plan.id, quantity: 1, paymentMethod: 'card' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const orderId = res.json<{ orderId: string }>().orderId;
    const receipt = await t.app.inject({ url: `/api/v1/user/orders/${orderId}/receipt`, headers: user.auth });
    expect(receipt.statusCode).toBe(404);
  });
});

describe('the order receipt mail', () => {
  it('states the amount in the reader currency at the rate of the purchase and links the receipt', async () => {
    await t.container.exchangeRates.set(t.container.db, { EUR: '0.5' });
    const setAt = t.clock.now();
    const user = await userInEuro();
    const orderId = await buy(user, 1);
    await t.container.worker.runDue();
    const res = await t.app.inject({
      url: `/api/admin/v1/mail?to=${encodeURIComponent(user.email)}`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    const [mail] = res.json<{ messages: { text: string; html: string }[] }>().messages;
    const euros = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'EUR' }).format(
      Math.round(plan.effectivePriceCents / 2) / 100,
    );
    const day = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(setAt);
    expect(mail!.text).toContain(`In your currency: ${euros} at the rate of ${day}`);
    expect(mail!.text).toContain(`/orders/${orderId}/receipt`);
    expect(mail!.html).toContain(`/orders/${orderId}/receipt"`);
  });
});

describe('top-up receipts', () => {
  async function cardTopUp(user: TestUser, amount: number, currency: string) {
    const session = await t.app.inject({
      method: 'POST',
      url: '/api/v1/payments/card/create-session',
      headers: user.auth,
      payload: { amount, currency },
    });
    expect(session.statusCode, session.body).toBe(200);
    const paid = await t.app.inject({
      method: 'POST',
      url: `/sandbox/card/${session.json<{ sessionId: string }>().sessionId}/complete`,
      payload: { outcome: 'paid' },
    });
    expect(paid.statusCode).toBe(303);
  }

  async function transactions(user: TestUser) {
    const res = await t.app.inject({ url: '/api/v1/user/wallet/transactions', headers: user.auth });
    return res.json<{ transactions: { id: string; kind: string; hasReceipt: boolean }[] }>().transactions;
  }

  it('a card top-up paid in euros states what was paid and the USD credited', async () => {
    await t.container.exchangeRates.set(t.container.db, { EUR: '0.5' });
    const user = await userInEuro(0);
    await cardTopUp(user, 1000, 'EUR');
    const [deposit] = await transactions(user);
    expect(deposit).toMatchObject({ kind: 'deposit', hasReceipt: true });

    const res = await t.app.inject({
      url: `/api/v1/user/wallet/transactions/${deposit!.id}/receipt`,
      headers: user.auth,
    });
    expect(res.statusCode, res.body).toBe(200);
    const { receipt } = res.json<ReceiptBody>();
    expect(receipt).toMatchObject({
      kind: 'topup',
      number: `R-${deposit!.id}`,
      paymentMethod: 'card',
      total: { amount: 20, currency: 'USD' },
      displayTotal: { amount: 10, currency: 'EUR' },
      exchangeRate: { currency: 'EUR', ratePerUsd: '0.5' },
      lines: [expect.objectContaining({ description: 'Wallet top-up' })],
    });

    const pdf = await t.app.inject({
      url: `/api/v1/user/wallet/transactions/${deposit!.id}/receipt.pdf`,
      headers: user.auth,
    });
    expect(pdf.statusCode).toBe(200);
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain('Wallet top-up');
    expect(text).toContain('Card');
    expect(text).toContain(receipt.displayTotal!.formatted);

    const stranger = await createUser(t.container);
    const other = await t.app.inject({
      url: `/api/v1/user/wallet/transactions/${deposit!.id}/receipt.pdf`,
      headers: stranger.auth,
    });
    expect(other.statusCode).toBe(404);
  });

  it('a wallet purchase row has no receipt of its own (its order has)', async () => {
    const user = await userInEuro();
    await buy(user, 1);
    const rows = await transactions(user);
    const purchase = rows.find((r) => r.kind === 'purchase')!;
    expect(purchase.hasReceipt).toBe(false);
    const res = await t.app.inject({
      url: `/api/v1/user/wallet/transactions/${purchase.id}/receipt`,
      headers: user.auth,
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('converted prices name the USD charged and the rate date (T4)', () => {
  it('gives each plan its USD price and the rate with its date', async () => {
    await t.container.exchangeRates.set(t.container.db, { EUR: '0.5' });
    const setAt = t.clock.now();
    const eur = await t.app.inject({
      url: `/api/v1/destinations/${plan.destinationCode}?currency=EUR&locale=en`,
    });
    expect(eur.statusCode).toBe(200);
    const body = eur.json<{
      destination: {
        plans: { id: string; price: { amount: number }; priceUsd: { amount: number; formatted: string } }[];
      };
      exchangeRate: { currency: string; ratePerUsd: string; asOf: string | null } | null;
    }>();
    expect(body.exchangeRate).toEqual({ currency: 'EUR', ratePerUsd: '0.5', asOf: setAt.toISOString() });
    const shown = body.destination.plans.find((p) => p.id === plan.id)!;
    expect(shown.priceUsd).toMatchObject({ amount: plan.effectivePriceCents / 100 });
    expect(shown.priceUsd.formatted).toBe(`$${(plan.effectivePriceCents / 100).toFixed(2)}`);
    expect(shown.price.amount).toBeCloseTo(plan.effectivePriceCents / 200, 2);

    const usd = await t.app.inject({ url: `/api/v1/destinations/${plan.destinationCode}?currency=USD` });
    expect(usd.json<{ exchangeRate: unknown }>().exchangeRate).toBeNull();
  });
});
