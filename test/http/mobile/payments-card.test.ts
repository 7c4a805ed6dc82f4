import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { paymentEvents, payments } from '../../../src/db/schema/index.js';
import { signSandboxPayload } from '../../../src/providers/payments/sandbox.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { balanceOf, createUser, type TestUser } from '../../helpers/factories.js';
import { expectLedgerInvariant } from '../../helpers/ledger.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
  await t.container.exchangeRates.set(t.container.db, { EUR: '0.92', TRY: '34.25' });
});
afterAll(async () => t.close());
afterEach(async () => expectLedgerInvariant(t.container));

async function createSession(user: TestUser, body: Record<string, unknown>) {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/payments/card/create-session',
    headers: user.auth,
    payload: body,
  });
}

async function topUpSession(
  user: TestUser,
  body: Record<string, unknown> = { amount: 1000, currency: 'USD' },
) {
  const res = await createSession(user, body);
  expect(res.statusCode).toBe(200);
  return res.json<{ sessionId: string; url: string }>();
}

function complete(sessionId: string, outcome: string, form = false) {
  return t.app.inject({
    method: 'POST',
    url: `/sandbox/card/${sessionId}/complete`,
    ...(form
      ? { headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `outcome=${outcome}` }
      : { payload: { outcome } }),
  });
}

async function transactions(user: TestUser) {
  const res = await t.app.inject({
    method: 'GET',
    url: '/api/v1/user/wallet/transactions',
    headers: user.auth,
  });
  expect(res.statusCode).toBe(200);
  return res.json<{ transactions: Array<Record<string, unknown>> }>().transactions;
}

function webhook(rawBody: string, headers: Record<string, string>) {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/payments/card/webhook',
    headers: { 'content-type': 'application/json', ...headers },
    payload: rawBody,
  });
}

describe('card top-up through the sandbox', () => {
  it('create → hosted page → pay credits the wallet once and redirects to successUrl', async () => {
    const user = await createUser(t.container);
    const { sessionId, url } = await topUpSession(user, {
      amount: 1250,
      currency: 'USD',
      successUrl: 'myapp://wallet/success',
      cancelUrl: 'https://shop.example/cancel',
    });
    expect(url).toBe(`http://localhost:3000/sandbox/card/${sessionId}`);

    const page = await t.app.inject({ method: 'GET', url: new URL(url).pathname });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('12.50 USD');
    expect(page.body).toContain(`action="${sessionId}/complete"`);
    expect(page.body).not.toMatch(/<script|<link|src=/);

    const paid = await complete(sessionId, 'paid', true);
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe('myapp://wallet/success');

    expect(await balanceOf(t.container, user.id)).toBe(1250);
    const list = await transactions(user);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      kind: 'deposit',
      amount: 12.5,
      currency: 'USD',
      balanceAfter: 12.5,
      orderId: null,
    });

    const me = await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: user.auth });
    expect(me.json().user.walletBalance).toBe(12.5);

    const again = await complete(sessionId, 'paid');
    expect(again.statusCode).toBe(303);
    const cancelAfterPaid = await complete(sessionId, 'cancelled');
    expect(cancelAfterPaid.statusCode).toBe(303);
    expect(cancelAfterPaid.headers.location).toBe('myapp://wallet/success');
    expect(await balanceOf(t.container, user.id)).toBe(1250);
    const [payment] = await t.container.db.select().from(payments).where(eq(payments.providerRef, sessionId));
    expect(payment).toMatchObject({ status: 'paid', usdCents: 1250, currency: 'USD', provider: 'sandbox' });
    expect(payment!.paidAt).toBeInstanceOf(Date);

    const pageAfter = await t.app.inject({ method: 'GET', url: new URL(url).pathname });
    expect(pageAfter.body).toContain('already <strong>paid</strong>');
  });

  it('cancel credits nothing, redirects to cancelUrl and closes the payment', async () => {
    const user = await createUser(t.container);
    const { sessionId } = await topUpSession(user, { amount: 500, currency: 'USD' });
    const res = await complete(sessionId, 'cancelled');
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('http://localhost:3000/payment/cancel');
    const payAfter = await complete(sessionId, 'paid');
    expect(payAfter.headers.location).toBe('http://localhost:3000/payment/cancel');
    expect(await balanceOf(t.container, user.id)).toBe(0);
    expect(await transactions(user)).toEqual([]);
    const [payment] = await t.container.db.select().from(payments).where(eq(payments.providerRef, sessionId));
    expect(payment!.status).toBe('cancelled');
  });

  it('converts EUR and TRY at the stored rate, rounded down, and records the rate', async () => {
    const user = await createUser(t.container);
    const eur = await topUpSession(user, { amount: 1000, currency: 'EUR' });
    const tr = await topUpSession(user, { amount: 50_000, currency: 'try' });
    await complete(eur.sessionId, 'paid');
    await complete(tr.sessionId, 'paid');
    // 10.00 EUR / 0.92 = 10.869… → 10.86; 500.00 TRY / 34.25 = 14.598… → 14.59
    const rows = await t.container.db.select().from(payments).where(eq(payments.accountId, user.id));
    const byCurrency = Object.fromEntries(rows.map((r) => [r.currency, r]));
    expect(byCurrency.EUR).toMatchObject({ amountMinor: 1000, usdCents: 1086, exchangeRate: '0.92' });
    expect(byCurrency.TRY).toMatchObject({ amountMinor: 50_000, usdCents: 1459, exchangeRate: '34.25' });
    expect(await balanceOf(t.container, user.id)).toBe(1086 + 1459);
  });

  it('rejects bad amounts, currencies and URLs with 400 and creates nothing', async () => {
    const user = await createUser(t.container);
    const bad = [
      { amount: 199, currency: 'USD' },
      { amount: 0 },
      { amount: -500 },
      { amount: 10.5 },
      { amount: '1000x' },
      {},
      { amount: 1000, currency: 'JPY' },
      { amount: 1000, currency: 'US' },
      { amount: 1000, successUrl: 'not a url' },
      { amount: 1000, cancelUrl: 'javascript:alert(1)' },
      { amount: 1000, successUrl: 'ftp//x' },
    ];
    for (const body of bad) {
      const res = await createSession(user, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    }
    const rows = await t.container.db.select().from(payments).where(eq(payments.accountId, user.id));
    expect(rows).toHaveLength(0);
  });

  it('needs a session', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/payments/card/create-session',
      payload: { amount: 1000 },
    });
    expect(res.statusCode).toBe(401);
  });

  it('unknown sessions and bad outcomes are refused', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/sandbox/card/cs_sbx_nope' })).statusCode).toBe(404);
    expect((await complete('cs_sbx_nope', 'paid')).statusCode).toBe(404);
    const user = await createUser(t.container);
    const { sessionId } = await topUpSession(user);
    expect((await complete(sessionId, 'refunded')).statusCode).toBe(400);
    expect(await balanceOf(t.container, user.id)).toBe(0);
  });

  it('50 parallel completions of one session credit once', async () => {
    const user = await createUser(t.container);
    const { sessionId } = await topUpSession(user, { amount: 777, currency: 'USD' });
    const results = await Promise.all(Array.from({ length: 50 }, () => complete(sessionId, 'paid')));
    expect(results.every((r) => r.statusCode === 303)).toBe(true);
    expect(await balanceOf(t.container, user.id)).toBe(777);
    expect(await transactions(user)).toHaveLength(1);
  });

  it('a replayed webhook changes nothing; forged and unsigned ones get 400', async () => {
    const user = await createUser(t.container);
    const { sessionId } = await topUpSession(user, { amount: 900, currency: 'USD' });
    const [payment] = await t.container.db.select().from(payments).where(eq(payments.providerRef, sessionId));
    const body = JSON.stringify({
      id: `evt_forged_${sessionId}`,
      type: 'card.paid',
      data: {
        object: { id: sessionId, reference: payment!.id, amountMinor: 900, currency: 'USD', status: 'paid' },
      },
    });
    const now = Math.floor(t.clock.now().getTime() / 1000);

    const unsigned = await webhook(body, {});
    const forged = await webhook(body, {
      'sandbox-signature': signSandboxPayload('wrong-secret', body, now),
    });
    const stale = await webhook(body, {
      'sandbox-signature': signSandboxPayload(
        await t.container.paymentProviders.sandboxSecret(),
        body,
        now - 3600,
      ),
    });
    const garbage = await webhook(body, { 'sandbox-signature': 'nonsense' });
    for (const res of [unsigned, forged, stale, garbage]) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'INVALID_SIGNATURE' });
    }
    expect(await balanceOf(t.container, user.id)).toBe(0);
    const events = await t.container.db
      .select()
      .from(paymentEvents)
      .where(eq(paymentEvents.eventId, `evt_forged_${sessionId}`));
    expect(events).toHaveLength(0);

    const signature = signSandboxPayload(await t.container.paymentProviders.sandboxSecret(), body, now);
    const first = await webhook(body, { 'sandbox-signature': signature });
    const replay = await webhook(body, { 'sandbox-signature': signature });
    expect(first.json()).toEqual({ received: true, outcome: 'credited' });
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual({ received: true, outcome: 'duplicate' });
    expect(await balanceOf(t.container, user.id)).toBe(900);
  });

  it('a signed event whose amount differs from the session is refused and recorded', async () => {
    const user = await createUser(t.container);
    const { sessionId } = await topUpSession(user, { amount: 900, currency: 'USD' });
    const [payment] = await t.container.db.select().from(payments).where(eq(payments.providerRef, sessionId));
    const body = JSON.stringify({
      id: `evt_mismatch_${sessionId}`,
      type: 'card.paid',
      data: {
        object: {
          id: sessionId,
          reference: payment!.id,
          amountMinor: 90_000,
          currency: 'USD',
          status: 'paid',
        },
      },
    });
    const now = Math.floor(t.clock.now().getTime() / 1000);
    const res = await webhook(body, {
      'sandbox-signature': signSandboxPayload(await t.container.paymentProviders.sandboxSecret(), body, now),
    });
    expect(res.json()).toEqual({ received: true, outcome: 'amount_mismatch' });
    expect(await balanceOf(t.container, user.id)).toBe(0);
    const [event] = await t.container.db
      .select()
      .from(paymentEvents)
      .where(eq(paymentEvents.eventId, `evt_mismatch_${sessionId}`));
    expect(event).toMatchObject({ outcome: 'amount_mismatch', paymentId: payment!.id });
  });
});
