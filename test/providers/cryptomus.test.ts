import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { paymentEvents, payments } from '../../src/db/schema/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { balanceOf, createUser, type TestUser } from '../helpers/factories.js';
import { expectLedgerInvariant } from '../helpers/ledger.js';

const MERCHANT = '8b03432e-385b-4670-8d06-064591096795';
const API_KEY = 'cryptomus-test-payment-key-0123456789';

const md5Sign = (body: string) =>
  createHash('md5')
    .update(Buffer.from(body).toString('base64') + API_KEY)
    .digest('hex');

/** What PHP's json_encode($data, JSON_UNESCAPED_UNICODE) produces: `/` escaped. */
const phpJson = (value: unknown) => JSON.stringify(value).replace(/\//g, '\\/');

/** POST /v1/payment as documented: merchant + sign headers, one invoice per order_id. */
function fakeCryptomus() {
  const requests: Array<{ headers: IncomingHttpHeaders; body: Record<string, string>; validSign: boolean }> =
    [];
  const invoices = new Map<string, Record<string, unknown>>();
  let failNext = false;
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const validSign = req.headers.merchant === MERCHANT && req.headers.sign === md5Sign(raw);
      const body = JSON.parse(raw || '{}') as Record<string, string>;
      requests.push({ headers: req.headers, body, validSign });
      res.setHeader('content-type', 'application/json');
      if (req.url !== '/v1/payment' || req.method !== 'POST') {
        res.statusCode = 404;
        return res.end(JSON.stringify({ state: 1, message: 'Not found' }));
      }
      if (!validSign) {
        res.statusCode = 401;
        return res.end(JSON.stringify({ state: 1, message: 'Invalid Sign' }));
      }
      if (failNext) {
        failNext = false;
        res.statusCode = 422;
        return res.end(JSON.stringify({ state: 1, errors: { amount: ['invalid'] } }));
      }
      let invoice = invoices.get(body.order_id!);
      if (!invoice) {
        const uuid = `uuid-${invoices.size + 1}-${Math.random().toString(36).slice(2, 8)}`;
        invoice = {
          uuid,
          order_id: body.order_id,
          amount: body.amount,
          payment_amount: null,
          currency: body.currency,
          network: null,
          address: null,
          payment_status: 'check',
          url: `https://pay.cryptomus.com/pay/${uuid}`,
          expired_at: 1_700_000_000,
          is_final: false,
          additional_data: body.additional_data,
        };
        invoices.set(body.order_id!, invoice);
      }
      res.end(JSON.stringify({ state: 0, result: invoice }));
    });
  });
  return { server, requests, failNextCreate: () => (failNext = true) };
}

let fake: ReturnType<typeof fakeCryptomus>;
let t: TestApp;

beforeAll(async () => {
  fake = fakeCryptomus();
  await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
  const { port } = fake.server.address() as AddressInfo;
  t = await buildTestApp({
    env: {
      CRYPTO_PROVIDER: 'cryptomus',
      CARD_PROVIDER: 'off',
      CRYPTOMUS_MERCHANT_ID: MERCHANT,
      CRYPTOMUS_API_KEY: API_KEY,
      CRYPTOMUS_BASE_URL: `http://127.0.0.1:${port}`,
    },
  });
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => fake.server.close(resolve));
});
afterEach(async () => expectLedgerInvariant(t.container));

async function createInvoice(user: TestUser, amount = '10') {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/payments/crypto/create-invoice',
    headers: user.auth,
    payload: { amount, currency: 'USD', url_return: 'https://shop.example/wallet' },
  });
  expect(res.statusCode).toBe(200);
  return res.json<{ uuid: string; order_id: string; url: string; amount: string }>();
}

/** A webhook as Cryptomus sends it: PHP-encoded body, `sign` over the body without `sign`. */
function webhookBody(
  invoice: { uuid: string; order_id: string; amount: string },
  status: string,
  extra = {},
) {
  const data = {
    type: 'payment',
    uuid: invoice.uuid,
    order_id: invoice.order_id,
    amount: invoice.amount,
    payment_amount: '10.00000000',
    payment_amount_usd: '10.00',
    merchant_amount: '9.80000000',
    commission: '0.20000000',
    is_final: status !== 'confirm_check',
    status,
    from: 'TXkc/4Bb+9q',
    network: 'tron',
    currency: 'USD',
    payer_currency: 'USDT',
    additional_data: 'wallet/top-up',
    txid: 'a1b2/c3',
    ...extra,
  };
  return phpJson({ ...data, sign: md5Sign(phpJson(data)) });
}

function deliver(raw: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/payments/crypto/webhook',
    headers: { 'content-type': 'application/json' },
    payload: raw,
  });
}

describe('Cryptomus crypto provider', () => {
  it('creates an invoice with merchant and sign headers and order_id = payment id', async () => {
    const user = await createUser(t.container);
    const before = fake.requests.length;
    const invoice = await createInvoice(user, '10.5');
    const request = fake.requests[before]!;
    expect(request.validSign).toBe(true);
    const [payment] = await t.container.db.select().from(payments).where(eq(payments.accountId, user.id));
    expect(request.body).toMatchObject({
      amount: '10.50',
      currency: 'USD',
      order_id: payment!.id,
      url_return: 'https://shop.example/wallet',
      url_callback: 'http://localhost:3000/api/v1/payments/crypto/webhook',
    });
    expect(invoice).toMatchObject({ order_id: payment!.id, amount: '10.50', payment_status: 'check' });
    expect(invoice.url).toBe(`https://pay.cryptomus.com/pay/${invoice.uuid}`);
    expect(payment).toMatchObject({ provider: 'cryptomus', providerRef: invoice.uuid, usdCents: 1050 });

    // A retried create for the same payment gets the same invoice back.
    const again = await t.container.paymentProviders.crypto.createInvoice({
      paymentId: payment!.id,
      accountId: user.id,
      purpose: 'topup',
      amountMinor: 1050,
      currency: 'USD',
      returnUrl: 'https://shop.example/wallet',
      successUrl: 'https://shop.example/wallet',
      callbackUrl: 'http://localhost:3000/api/v1/payments/crypto/webhook',
    });
    expect(again.invoiceId).toBe(invoice.uuid);
  });

  it('a provider refusal is 502', async () => {
    const user = await createUser(t.container);
    fake.failNextCreate();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/payments/crypto/create-invoice',
      headers: user.auth,
      payload: { amount: '5' },
    });
    expect(res.statusCode).toBe(502);
    const rows = await t.container.db.select().from(payments).where(eq(payments.accountId, user.id));
    expect(rows.map((r) => r.status)).toEqual(['failed']);
  });

  it('paid credits the invoiced amount once; replays are no-ops', async () => {
    const user = await createUser(t.container);
    const invoice = await createInvoice(user);
    const raw = webhookBody(invoice, 'paid');
    expect(raw).toContain('\\/');
    const first = await deliver(raw);
    expect(first.statusCode).toBe(200);
    expect(first.json().outcome).toBe('credited');
    expect((await deliver(raw)).json().outcome).toBe('duplicate');
    expect(await balanceOf(t.container, user.id)).toBe(1000);
  });

  it('paid_over credits the invoiced amount, not what was overpaid', async () => {
    const user = await createUser(t.container);
    const invoice = await createInvoice(user, '4');
    const res = await deliver(webhookBody(invoice, 'paid_over', { payment_amount_usd: '9.00' }));
    expect(res.json().outcome).toBe('credited');
    expect(await balanceOf(t.container, user.id)).toBe(400);
  });

  it('other statuses are recorded without credit; cancel closes the payment; paid afterwards still credits', async () => {
    const user = await createUser(t.container);
    const invoice = await createInvoice(user);
    for (const status of ['confirm_check', 'wrong_amount', 'refund_process']) {
      expect((await deliver(webhookBody(invoice, status))).json().outcome).toBe('recorded');
    }
    expect((await deliver(webhookBody(invoice, 'cancel'))).json().outcome).toBe('closed');
    const [closed] = await t.container.db
      .select()
      .from(payments)
      .where(eq(payments.providerRef, invoice.uuid));
    expect(closed!.status).toBe('cancelled');
    const events = await t.container.db
      .select()
      .from(paymentEvents)
      .where(eq(paymentEvents.paymentId, closed!.id));
    expect(events.map((e) => e.type).sort()).toEqual(
      ['payment.cancel', 'payment.confirm_check', 'payment.refund_process', 'payment.wrong_amount'].sort(),
    );
    expect(await balanceOf(t.container, user.id)).toBe(0);
    // Money that arrives on a closed invoice is still the customer's money.
    expect((await deliver(webhookBody(invoice, 'paid'))).json().outcome).toBe('credited');
    expect(await balanceOf(t.container, user.id)).toBe(1000);
  });

  it('refuses a paid event whose amount is not the invoiced one', async () => {
    const user = await createUser(t.container);
    const invoice = await createInvoice(user);
    const res = await deliver(webhookBody({ ...invoice, amount: '1000.00' }, 'paid'));
    expect(res.json().outcome).toBe('amount_mismatch');
    expect(await balanceOf(t.container, user.id)).toBe(0);
  });

  it('rejects unsigned, mis-signed, tampered and naively-escaped webhooks', async () => {
    const user = await createUser(t.container);
    const invoice = await createInvoice(user);
    const valid = JSON.parse(webhookBody(invoice, 'paid')) as Record<string, unknown>;
    const { sign, ...unsigned } = valid;
    const naive = JSON.stringify({
      ...unsigned,
      sign: createHash('md5')
        .update(Buffer.from(JSON.stringify(unsigned)).toString('base64') + API_KEY)
        .digest('hex'),
    });
    const cases = {
      unsigned: JSON.stringify(unsigned),
      wrongKey: JSON.stringify({ ...unsigned, sign: 'f'.repeat(32) }),
      tampered: JSON.stringify({ ...unsigned, amount: '99.00', sign }),
      naive,
      notJson: 'status=paid',
      empty: '',
    };
    for (const [name, raw] of Object.entries(cases)) {
      const res = await deliver(raw);
      expect(res.statusCode, name).toBe(400);
      expect(res.json().code, name).toBe('INVALID_SIGNATURE');
    }
    expect(await balanceOf(t.container, user.id)).toBe(0);
  });
});
