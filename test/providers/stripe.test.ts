import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { paymentEvents, payments } from '../../src/db/schema/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { balanceOf, createUser, type TestUser } from '../helpers/factories.js';
import { expectLedgerInvariant } from '../helpers/ledger.js';

const SECRET_KEY = 'sk_test_fake_0123456789';
const WEBHOOK_SECRET = 'whsec_test_fake_secret';

interface Recorded {
  headers: IncomingHttpHeaders;
  form: URLSearchParams;
}

/** Answers POST /v1/checkout/sessions and /v1/refunds like Stripe, including Idempotency-Key replay. */
function fakeStripe() {
  const requests: Recorded[] = [];
  const byKey = new Map<string, string>();
  let failNext = false;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      requests.push({ headers: req.headers, form });
      res.setHeader('content-type', 'application/json');
      // Refunds (issue 28 H8): one per Idempotency-Key, like Stripe.
      if (req.method === 'POST' && req.url === '/v1/refunds') {
        const key = req.headers['idempotency-key'] as string;
        const stored = byKey.get(key);
        if (stored) return res.end(stored);
        const json = JSON.stringify({
          id: `re_test_${requests.length}`,
          object: 'refund',
          payment_intent: form.get('payment_intent'),
          status: 'succeeded',
        });
        byKey.set(key, json);
        return res.end(json);
      }
      if (req.method !== 'POST' || req.url !== '/v1/checkout/sessions') {
        res.statusCode = 404;
        return res.end(
          JSON.stringify({ error: { type: 'invalid_request_error', message: 'Unrecognized request URL' } }),
        );
      }
      if (req.headers.authorization !== `Bearer ${SECRET_KEY}`) {
        res.statusCode = 401;
        return res.end(
          JSON.stringify({ error: { type: 'invalid_request_error', message: 'Invalid API Key' } }),
        );
      }
      if (failNext) {
        failNext = false;
        res.statusCode = 400;
        return res.end(
          JSON.stringify({ error: { type: 'invalid_request_error', message: 'Amount too small' } }),
        );
      }
      const key = req.headers['idempotency-key'] as string;
      const stored = byKey.get(key);
      if (stored) return res.end(stored);
      const id = `cs_test_${requests.length}_${Math.random().toString(36).slice(2, 10)}`;
      const session = {
        id,
        object: 'checkout.session',
        mode: form.get('mode'),
        status: 'open',
        payment_status: 'unpaid',
        amount_total: Number(form.get('line_items[0][price_data][unit_amount]')),
        currency: form.get('line_items[0][price_data][currency]'),
        client_reference_id: form.get('client_reference_id'),
        metadata: {
          paymentId: form.get('metadata[paymentId]'),
          accountId: form.get('metadata[accountId]'),
          purpose: form.get('metadata[purpose]'),
        },
        success_url: form.get('success_url'),
        cancel_url: form.get('cancel_url'),
        url: `https://checkout.stripe.com/c/pay/${id}`,
      };
      const json = JSON.stringify(session);
      byKey.set(key, json);
      res.end(json);
    });
  });
  return {
    server,
    requests,
    failNextCreate: () => (failNext = true),
  };
}

let fake: ReturnType<typeof fakeStripe>;
let t: TestApp;
const signer = new Stripe('sk_test_signer_only');

beforeAll(async () => {
  fake = fakeStripe();
  await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
  const { port } = fake.server.address() as AddressInfo;
  t = await buildTestApp({
    env: {
      CARD_PROVIDER: 'stripe',
      CRYPTO_PROVIDER: 'off',
      STRIPE_SECRET_KEY: SECRET_KEY,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE_URL: `http://127.0.0.1:${port}`,
    },
  });
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => fake.server.close(resolve));
});
afterEach(async () => expectLedgerInvariant(t.container));

async function createSession(user: TestUser, amount = 1500, currency = 'USD') {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/payments/card/create-session',
    headers: user.auth,
    payload: {
      amount,
      currency,
      successUrl: 'https://shop.example/ok',
      cancelUrl: 'https://shop.example/no',
    },
  });
  expect(res.statusCode).toBe(200);
  const { sessionId, url } = res.json<{ sessionId: string; url: string }>();
  const [payment] = await t.container.db.select().from(payments).where(eq(payments.providerRef, sessionId));
  return { sessionId, url, payment: payment! };
}

let eventCounter = 0;
function event(type: string, session: Record<string, unknown>, id = `evt_test_${++eventCounter}`) {
  return JSON.stringify({
    id,
    object: 'event',
    type,
    created: Math.floor(Date.now() / 1000),
    data: { object: { object: 'checkout.session', currency: 'usd', ...session } },
  });
}

function deliver(payload: string, secret = WEBHOOK_SECRET, header?: string) {
  const signature = header ?? signer.webhooks.generateTestHeaderString({ payload, secret });
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/payments/card/webhook',
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature },
    payload,
  });
}

const sessionFields = (s: { sessionId: string; payment: { id: string; amountMinor: number } }) => ({
  id: s.sessionId,
  client_reference_id: s.payment.id,
  amount_total: s.payment.amountMinor,
});

describe('Stripe card provider', () => {
  it('paid after the account was deleted: not credited; refunded once through refunds.create', async () => {
    const user = await createUser(t.container);
    const s = await createSession(user);
    const deleted = await t.app.inject({ method: 'DELETE', url: '/api/v1/user/account', headers: user.auth });
    expect(deleted.statusCode).toBeLessThan(300);
    const payload = event('checkout.session.completed', {
      ...sessionFields(s),
      payment_status: 'paid',
      payment_intent: 'pi_test_deleted',
    });
    expect((await deliver(payload)).json()).toMatchObject({ outcome: 'refund_queued' });
    expect(await balanceOf(t.container, user.id)).toBe(0);
    // Due at once; a second run changes nothing. (The clock stays: later events are signed now.)
    await t.container.worker.runDue();
    await t.container.worker.runDue();
    const refunds = fake.requests.filter((r) => r.form.get('payment_intent') === 'pi_test_deleted');
    expect(refunds).toHaveLength(1);
    expect(refunds[0]!.headers['idempotency-key']).toBe(`refund_${s.payment.id}`);
    const [row] = await t.container.db.select().from(payments).where(eq(payments.id, s.payment.id));
    expect(row).toMatchObject({
      status: 'refunded',
      providerData: { refundId: expect.stringMatching(/^re_test_/) },
    });
    expect(await balanceOf(t.container, user.id)).toBe(0);
  });

  it('creates a Checkout Session in payment mode with reference, metadata and idempotency key', async () => {
    const user = await createUser(t.container);
    const before = fake.requests.length;
    const s = await createSession(user, 2500, 'EUR');
    expect(s.url).toBe(`https://checkout.stripe.com/c/pay/${s.sessionId}`);
    const request = fake.requests[before]!;
    expect(request.headers['idempotency-key']).toBe(s.payment.id);
    expect(Object.fromEntries(request.form)).toMatchObject({
      mode: 'payment',
      client_reference_id: s.payment.id,
      'metadata[paymentId]': s.payment.id,
      'metadata[accountId]': user.id,
      'metadata[purpose]': 'topup',
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][unit_amount]': '2500',
      'line_items[0][price_data][currency]': 'eur',
      success_url: 'https://shop.example/ok',
      cancel_url: 'https://shop.example/no',
    });
    expect(s.payment).toMatchObject({
      provider: 'stripe',
      status: 'pending',
      currency: 'EUR',
      amountMinor: 2500,
    });
  });

  it('a provider refusal is 502 and leaves the payment failed', async () => {
    const user = await createUser(t.container);
    fake.failNextCreate();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/payments/card/create-session',
      headers: user.auth,
      payload: { amount: 1000, currency: 'USD' },
    });
    expect(res.statusCode).toBe(502);
    expect(res.json().code).toBe('PROVIDER_ERROR');
    const rows = await t.container.db.select().from(payments).where(eq(payments.accountId, user.id));
    expect(rows.map((r) => r.status)).toEqual(['failed']);
  });

  it('completed + paid credits once, however often it is delivered', async () => {
    const user = await createUser(t.container);
    const s = await createSession(user);
    const payload = event('checkout.session.completed', { ...sessionFields(s), payment_status: 'paid' });
    const first = await deliver(payload);
    expect(first.statusCode).toBe(200);
    expect(first.json().outcome).toBe('credited');
    const replays = await Promise.all(Array.from({ length: 5 }, () => deliver(payload)));
    expect(replays.map((r) => r.json().outcome)).toEqual(Array(5).fill('duplicate'));
    expect(await balanceOf(t.container, user.id)).toBe(1500);
  });

  it('completed + unpaid does not credit; async_payment_succeeded does', async () => {
    const user = await createUser(t.container);
    const s = await createSession(user);
    const unpaid = await deliver(
      event('checkout.session.completed', { ...sessionFields(s), payment_status: 'unpaid' }),
    );
    expect(unpaid.json().outcome).toBe('recorded');
    expect(await balanceOf(t.container, user.id)).toBe(0);
    const succeeded = await deliver(
      event('checkout.session.async_payment_succeeded', { ...sessionFields(s), payment_status: 'paid' }),
    );
    expect(succeeded.json().outcome).toBe('credited');
    expect(await balanceOf(t.container, user.id)).toBe(1500);
  });

  it('expired is recorded; an expired arriving after paid does not change the status', async () => {
    const user = await createUser(t.container);
    const expiring = await createSession(user);
    const expired = await deliver(event('checkout.session.expired', sessionFields(expiring)));
    expect(expired.json().outcome).toBe('closed');
    const [closed] = await t.container.db.select().from(payments).where(eq(payments.id, expiring.payment.id));
    expect(closed!.status).toBe('expired');

    const paid = await createSession(user);
    await deliver(event('checkout.session.completed', { ...sessionFields(paid), payment_status: 'paid' }));
    const late = await deliver(event('checkout.session.expired', sessionFields(paid)));
    expect(late.json().outcome).toBe('already_final');
    const failed = await deliver(event('checkout.session.async_payment_failed', sessionFields(paid)));
    expect(failed.json().outcome).toBe('already_final');
    const [row] = await t.container.db.select().from(payments).where(eq(payments.id, paid.payment.id));
    expect(row!.status).toBe('paid');
    expect(await balanceOf(t.container, user.id)).toBe(1500);
  });

  it('refuses an amount or currency that does not match the session', async () => {
    const user = await createUser(t.container);
    const s = await createSession(user);
    const wrongAmount = await deliver(
      event('checkout.session.completed', {
        ...sessionFields(s),
        amount_total: 150_000,
        payment_status: 'paid',
      }),
    );
    const wrongCurrency = await deliver(
      event('checkout.session.completed', { ...sessionFields(s), currency: 'eur', payment_status: 'paid' }),
    );
    expect(wrongAmount.json().outcome).toBe('amount_mismatch');
    expect(wrongCurrency.json().outcome).toBe('amount_mismatch');
    expect(await balanceOf(t.container, user.id)).toBe(0);
    const [row] = await t.container.db.select().from(payments).where(eq(payments.id, s.payment.id));
    expect(row!.status).toBe('pending');
  });

  it('answers 200 for a verified event about an unknown session or another object', async () => {
    const unknown = await deliver(
      event('checkout.session.completed', {
        id: 'cs_test_unknown',
        client_reference_id: 'pay_unknown',
        amount_total: 100,
        payment_status: 'paid',
      }),
    );
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json().outcome).toBe('unknown_payment');
    const other = JSON.stringify({
      id: 'evt_other_1',
      object: 'event',
      type: 'customer.created',
      data: { object: { object: 'customer', id: 'cus_1' } },
    });
    expect((await deliver(other)).json().outcome).toBe('unknown_payment');
    const [recorded] = await t.container.db
      .select()
      .from(paymentEvents)
      .where(eq(paymentEvents.eventId, 'evt_other_1'));
    expect(recorded).toMatchObject({ provider: 'stripe', type: 'customer.created' });
  });

  it('unsigned, mis-signed, tampered and stale webhooks get 400 and change nothing', async () => {
    const user = await createUser(t.container);
    const s = await createSession(user);
    const payload = event(
      'checkout.session.completed',
      { ...sessionFields(s), payment_status: 'paid' },
      'evt_forged',
    );
    const noHeader = await t.app.inject({
      method: 'POST',
      url: '/api/v1/payments/card/webhook',
      headers: { 'content-type': 'application/json' },
      payload,
    });
    const wrongSecret = await deliver(payload, 'whsec_wrong');
    const validForOther = signer.webhooks.generateTestHeaderString({
      payload: payload + ' ',
      secret: WEBHOOK_SECRET,
    });
    const tampered = await deliver(payload, WEBHOOK_SECRET, validForOther);
    const stale = await deliver(
      payload,
      WEBHOOK_SECRET,
      signer.webhooks.generateTestHeaderString({
        payload,
        secret: WEBHOOK_SECRET,
        timestamp: Math.floor(Date.now() / 1000) - 3600,
      }),
    );
    for (const [name, res] of Object.entries({ noHeader, wrongSecret, tampered, stale })) {
      expect(res.statusCode, name).toBe(400);
      expect(res.json().code).toBe('INVALID_SIGNATURE');
    }
    expect(await balanceOf(t.container, user.id)).toBe(0);
    expect(
      await t.container.db.select().from(paymentEvents).where(eq(paymentEvents.eventId, 'evt_forged')),
    ).toEqual([]);
  });

  it('the sandbox card pages are not served when the card provider is Stripe', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/sandbox/card/cs_test_x' })).statusCode).toBe(404);
  });
});
