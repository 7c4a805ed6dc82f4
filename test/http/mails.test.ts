import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { accounts, jobs, payments } from '../../src/db/schema/index.js';
import { SECOND } from '../../src/lib/clock.js';
import { ADMIN_TOKEN, buildTestApp, type TestApp } from '../helpers/app.js';
import { registerViaApi } from '../helpers/accounts.js';
import { pickPlan } from '../helpers/catalog.js';
import { balanceOf, createUser, type TestUser } from '../helpers/factories.js';
import { expectLedgerInvariant } from '../helpers/ledger.js';
import type { MailedEsim as Esim, OutboxMessage } from '../helpers/outbox.js';
import { createPartner, postOrder } from './partner/helpers.js';

/**
 * Mails that lead into the web app, observed the way an operator sees them: the admin mail
 * outbox (`GET /api/admin/v1/mail`). PUBLIC_BASE_URL has a trailing slash and a custom host on
 * purpose: every link must be `<base>/<route>` with exactly one slash.
 */
const BASE = 'https://shop.example.com';
const RETRY_BASE_SECONDS = 10;
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

let t: TestApp;
let planId: string;
let priceCents: number;

beforeAll(async () => {
  t = await buildTestApp({
    env: {
      PUBLIC_BASE_URL: `${BASE}/`,
      AUTH_RATE_LIMIT: '10000',
      FULFILLMENT_RETRY_BASE_SECONDS: String(RETRY_BASE_SECONDS),
    },
  });
  const plan = await pickPlan(t.container, { destination: 'TR' });
  planId = plan.id;
  priceCents = plan.effectivePriceCents;
  await t.container.exchangeRates.set(t.container.db, { EUR: '0.92', TRY: '34.25' });
}, 120_000);
afterAll(async () => t.close());
afterEach(async () => expectLedgerInvariant(t.container));

/** Runs due background jobs (receipts are sent by the worker), then reads the outbox over HTTP. */
async function mailsTo(email: string): Promise<OutboxMessage[]> {
  await t.container.worker.runDue();
  const res = await t.app.inject({
    url: `/api/admin/v1/mail?to=${encodeURIComponent(email)}`,
    headers: admin,
  });
  expect(res.statusCode).toBe(200);
  return res.json().messages;
}

function checkout(user: TestUser, payload: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url: '/api/v1/checkout', headers: user.auth, payload });
}

async function esimsOf(user: TestUser): Promise<Esim[]> {
  const res = await t.app.inject({ url: '/api/v1/user/esims', headers: user.auth });
  expect(res.statusCode).toBe(200);
  return res.json().esims;
}

function completePage(url: string, outcome: 'paid' | 'cancelled') {
  return t.app.inject({ method: 'POST', url: `${new URL(url).pathname}/complete`, payload: { outcome } });
}

async function emailOf(accountId: string): Promise<string> {
  const [row] = await t.container.db
    .select({ email: accounts.email })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  return row!.email;
}

async function paymentIdOf(sessionId: string): Promise<string> {
  const [row] = await t.container.db
    .select({ id: payments.id })
    .from(payments)
    .where(eq(payments.providerRef, sessionId));
  return row!.id;
}

const usd = (cents: number) => `$${(cents / 100).toFixed(2)}`;
const usdTr = (cents: number) => `$${(cents / 100).toFixed(2).replace('.', ',')}`;

describe('password reset mail', () => {
  it('links to PUBLIC_BASE_URL/reset-password?token=… (the web app route) and the token works', async () => {
    const user = await registerViaApi(t.app);
    const forgot = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/forgot-password',
      payload: { email: user.email, locale: 'en' },
    });
    expect(forgot.statusCode).toBe(200);
    const [mail] = await mailsTo(user.email);
    const link = /https?:\/\/\S+/.exec(mail!.text)![0];
    const url = new URL(link);
    expect(`${url.origin}${url.pathname}`).toBe(`${BASE}/reset-password`);
    const token = url.searchParams.get('token')!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(mail!.html).toContain(`href="${BASE}/reset-password?token=${token}"`);
    // What the web page does with it: check, then reset.
    const check = await t.app.inject({ url: `/api/v1/auth/reset-password?token=${token}` });
    expect(check.statusCode).toBe(200);
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/reset-password',
      payload: { token, newPassword: 'a brand new password' },
    });
    expect(reset.statusCode).toBe(200);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: user.email, password: 'a brand new password' },
    });
    expect(login.statusCode).toBe(200);
  });
});

describe('order receipt', () => {
  it('wallet order in English: plan, amount, and per eSIM the inline QR, LPA string, iOS link, ICCID', async () => {
    const user = await createUser(t.container, { locale: 'en', balanceCents: priceCents * 2 });
    const res = await checkout(user, { planId, quantity: 2, paymentMethod: 'wallet' });
    expect(res.statusCode, res.body).toBe(200);
    const { orderNumber, status } = res.json();
    expect(status).toBe('COMPLETED');
    expect(await balanceOf(t.container, user.id)).toBe(0);

    const mails = await mailsTo(user.email);
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.subject).toBe(`Your eSIMs are ready – order ${orderNumber}`);
    expect(mail.text).toContain('Hi Test,');
    expect(mail.text).toContain(`Order: ${orderNumber}`);
    expect(mail.text).toContain('Plan: Türkiye · 1 GB · 7 days');
    expect(mail.text).toContain('Quantity: 2');
    expect(mail.text).toContain(`Amount: ${usd(priceCents * 2)}`);
    expect(mail.text).toContain('Paid with: Wallet balance');
    expect(mail.text).toContain(`${BASE}/esims`);
    expect(mail.html).toContain(`href="${BASE}/esims"`);

    const esims = await esimsOf(user);
    expect(esims).toHaveLength(2);
    expect(mail.attachments).toHaveLength(2);
    for (const esim of esims) {
      expect(mail.text).toContain(`ICCID: ${esim.iccid}`);
      expect(mail.text).toContain(esim.activationCode);
      expect(mail.text).toContain(esim.iosInstallUrl);
      expect(mail.text).toContain(esim.qrCodeUrl);
      expect(esim.qrCodeUrl.startsWith(`${BASE}/api/v1/esims/`)).toBe(true);
      expect(mail.html).toContain(esim.iccid);
      // The activation string contains `$`: shown as text, and inside the iOS link's href.
      expect(mail.html).toContain(esim.activationCode);
      expect(mail.html).toContain(`href="${esim.iosInstallUrl}"`);
      // The hosted install page (issue 30 T2): in both parts, and it opens without a session.
      expect(esim.installUrl.startsWith(`${BASE}/install/`)).toBe(true);
      expect(mail.text).toContain(
        `Install page (open it on the phone, or send it to whoever installs the eSIM): ${esim.installUrl}`,
      );
      expect(mail.html).toContain(`href="${esim.installUrl}"`);
      const installPage = await t.app.inject({
        url: `/api/v1${new URL(esim.installUrl).pathname}`,
      });
      expect(installPage.statusCode).toBe(200);
      expect(installPage.json().iccid).toBe(esim.iccid);
      const attachment = mail.attachments.find((a) => a.filename === `esim-${esim.iccid}.png`)!;
      expect(attachment).toMatchObject({ contentType: 'image/png' });
      expect(attachment.size).toBeGreaterThan(200);
      expect(mail.html).toContain(`<img src="cid:${attachment.cid}"`);
      // The public QR URL in the mail serves the same activation code.
      const qr = await t.app.inject({ url: new URL(esim.qrCodeUrl).pathname });
      expect(qr.statusCode).toBe(200);
      expect(qr.headers['content-type']).toBe('image/png');
    }
    expect(new Set(mail.attachments.map((a) => a.cid)).size).toBe(2);
  });

  it('card order in Turkish (the account locale), sent once the payment completed it', async () => {
    const user = await registerViaApi(t.app, { firstName: 'Ayşe' }); // locale tr by default
    const res = await checkout(user, { planId, paymentMethod: 'card' });
    expect(res.statusCode, res.body).toBe(200);
    const { orderNumber, url } = res.json();
    expect(await mailsTo(user.email)).toEqual([]); // nothing until paid
    expect((await completePage(url, 'paid')).statusCode).toBe(303);
    const mails = await mailsTo(user.email);
    // One mail: a card payment for an order is not a wallet top-up.
    expect(mails.map((m) => m.subject)).toEqual([`eSIM'iniz hazır – sipariş ${orderNumber}`]);
    const mail = mails[0]!;
    expect(mail.text).toContain('Merhaba Ayşe,');
    expect(mail.text).toContain('Paket: Türkiye · 1 GB · 7 gün');
    expect(mail.text).toContain(`Tutar: ${usdTr(priceCents)}`);
    expect(mail.text).toContain('Ödeme: Kart');
    const [esim] = await esimsOf(user);
    // One eSIM: the link opens its own page (usage and top-up), as the alerts do.
    expect(mail.text).toContain(`${BASE}/esims/${esim!.iccid}`);
    expect(mail.text).toContain(esim!.activationCode);
    expect(mail.text).toContain(`iPhone’a tek dokunuşla kur: ${esim!.iosInstallUrl}`);
    expect(mail.text).toContain(
      `Kurulum sayfası (telefonda açın ya da eSIM’i kuracak kişiye gönderin): ${esim!.installUrl}`,
    );
    expect(mail.attachments).toHaveLength(1);
  });

  it('a German account gets its receipt in German, plan name included', async () => {
    const user = await createUser(t.container, { locale: 'de', balanceCents: 10_000 });
    const order = await checkout(user, { planId, paymentMethod: 'wallet' });
    expect(order.json().status).toBe('COMPLETED');
    const [mail] = await mailsTo(user.email);
    expect(mail!.subject).toBe(`Ihre eSIM ist bereit – Bestellung ${order.json().orderNumber}`);
    expect(mail!.text).toMatch(/Tarif: Türkei · 1\sGB · 7\sTage/);
    expect(mail!.text).toContain('Bezahlt mit: Wallet-Guthaben');
    expect(mail!.html).toContain('Installationsseite öffnen');
  });

  it('other locales fall back to English; a top-up plan order confirms the ICCID without a QR', async () => {
    const user = await createUser(t.container, { locale: 'it', balanceCents: 10_000 });
    const first = await checkout(user, { planId, paymentMethod: 'wallet' });
    expect(first.json().status).toBe('COMPLETED');
    const [esim] = await esimsOf(user);
    const topUpPlan = await pickPlan(t.container, { destination: 'TR', isTopUp: true });
    const topUp = await checkout(user, { planId: topUpPlan.id, iccid: esim!.iccid, paymentMethod: 'wallet' });
    expect(topUp.statusCode, topUp.body).toBe(200);
    const mails = await mailsTo(user.email);
    expect(mails).toHaveLength(2);
    const receipt = mails.find((m) => m.subject.includes(topUp.json().orderNumber))!;
    expect(receipt.subject).toBe(`Data added to your eSIM – order ${topUp.json().orderNumber}`);
    expect(receipt.text).toContain('Plan: Türkiye · 1 GB · top-up');
    expect(receipt.text).toContain(`ICCID: ${esim!.iccid}`);
    expect(receipt.text).not.toContain('LPA');
    expect(receipt.attachments).toEqual([]);
    const base = mails.find((m) => m.subject.includes(first.json().orderNumber))!;
    expect(base.subject).toMatch(/^Your eSIM is ready/);
  });

  it('partner orders send no mail: the eSIMs are for the partner’s customers', async () => {
    const partner = await createPartner(t, 10_000);
    const res = await postOrder(t, partner.headers, { planId, quantity: 1 });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().status).toBe('COMPLETED');
    expect(await mailsTo(await emailOf(partner.id))).toEqual([]);
    const receiptJobs = await t.container.db
      .select()
      .from(jobs)
      .where(
        and(eq(jobs.kind, 'mail.order-receipt'), eq(jobs.dedupeKey, `mail.order-receipt:${res.json().id}`)),
      );
    expect(receiptJobs).toEqual([]);
  });

  it('is sent once when completion runs again (operator retry, job retry after a failed attempt)', async () => {
    const user = await createUser(t.container, { locale: 'en', balanceCents: priceCents * 2 });
    const done = await checkout(user, { planId, paymentMethod: 'wallet' });
    const orderId = done.json().orderId as string;
    expect(await mailsTo(user.email)).toHaveLength(1);
    // Completion path again: operator retry of a completed order, and the fulfillment job.
    const retry = await t.app.inject({
      method: 'POST',
      url: `/api/admin/v1/orders/${orderId}/retry`,
      headers: admin,
    });
    expect(retry.statusCode).toBe(409); // INVALID_STATE: only PROCESSING orders are retried
    await t.container.orders.fulfillment.attempt(orderId, 'job');
    // And the mail job itself running twice (a retried job, a second worker).
    await t.container.receipts.sendOrderReceipt(orderId);
    expect(await mailsTo(user.email)).toHaveLength(1);

    // A provider failure first: the request answers 502, the background retry completes it.
    const faults = await t.app.inject({
      method: 'POST',
      url: '/api/admin/v1/sandbox/esim-provider/faults',
      headers: admin,
      payload: { failNext: 1 },
    });
    expect(faults.statusCode).toBe(200);
    const failed = await checkout(user, { planId, paymentMethod: 'wallet' });
    expect(failed.statusCode).toBe(502);
    const failedOrderNumber = (await t.container.orders.getOrder(user.id, failed.json().orderId)).order
      .orderNumber;
    const before = await mailsTo(user.email);
    expect(before.filter((m) => m.subject.includes(failedOrderNumber))).toEqual([]);
    t.clock.advance(RETRY_BASE_SECONDS * SECOND + SECOND);
    const after = await mailsTo(user.email);
    expect(after.filter((m) => m.subject.includes(failedOrderNumber))).toHaveLength(1);
    expect(after).toHaveLength(2);
  });

  it('a failing mailer never fails or blocks the order; the receipt follows when it recovers', async () => {
    const user = await createUser(t.container, { locale: 'en', balanceCents: priceCents });
    const mailer = t.container.mailer;
    const send = mailer.send;
    mailer.send = async () => {
      throw new Error('outbox unavailable');
    };
    try {
      const res = await checkout(user, { planId, paymentMethod: 'wallet' });
      expect(res.statusCode).toBe(200);
      expect(res.json().status).toBe('COMPLETED');
      expect(await balanceOf(t.container, user.id)).toBe(0);
      await t.container.worker.runDue(); // the receipt job fails and is rescheduled
    } finally {
      mailer.send = send;
    }
    expect(await mailsTo(user.email)).toEqual([]);
    t.clock.advance(60 * SECOND);
    const mails = await mailsTo(user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toMatch(/^Your eSIM is ready/);
  });
});

describe('top-up receipt', () => {
  it('card top-up in EUR (English): USD credited, the EUR charged, new balance, wallet link; once', async () => {
    const user = await createUser(t.container, { locale: 'en' });
    const session = await t.app.inject({
      method: 'POST',
      url: '/api/v1/payments/card/create-session',
      headers: user.auth,
      payload: { amount: 2300, currency: 'EUR' },
    });
    expect(session.statusCode, session.body).toBe(200);
    const { url, sessionId } = session.json();
    const paymentId = await paymentIdOf(sessionId);
    expect(await mailsTo(user.email)).toEqual([]);
    expect((await completePage(url, 'paid')).statusCode).toBe(303);
    // Replayed delivery of the same settlement.
    expect((await completePage(url, 'paid')).statusCode).toBe(303);
    expect(await balanceOf(t.container, user.id)).toBe(2500);

    const mails = await mailsTo(user.email);
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.subject).toBe('Wallet top-up received – $25.00');
    expect(mail.text).toContain('We received your payment and added $25.00 to your wallet.');
    expect(mail.text).toContain('Added to wallet: $25.00');
    expect(mail.text).toContain('Charged: €23.00');
    expect(mail.text).toContain('Paid with: Card');
    expect(mail.text).toContain('New balance: $25.00');
    expect(mail.text).toContain(`Reference: ${paymentId}`);
    expect(mail.text).toContain(`${BASE}/wallet`);
    expect(mail.html).toContain(`href="${BASE}/wallet"`);
    await t.container.receipts.sendTopUpReceipt(paymentId);
    expect(await mailsTo(user.email)).toHaveLength(1);
  });

  it('crypto top-up in Turkish: USD only, no charged line', async () => {
    const user = await createUser(t.container, { locale: 'tr', balanceCents: 100 });
    const invoice = await t.app.inject({
      method: 'POST',
      url: '/api/v1/payments/crypto/create-invoice',
      headers: user.auth,
      payload: { amount: '12.34', currency: 'USD' },
    });
    expect(invoice.statusCode, invoice.body).toBe(200);
    expect((await completePage(invoice.json().url, 'paid')).statusCode).toBe(303);
    const mails = await mailsTo(user.email);
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.subject).toBe('Cüzdan yüklemesi alındı – $12,34');
    expect(mail.text).toContain('Cüzdana eklenen: $12,34');
    expect(mail.text).toContain('Ödeme: Kripto');
    expect(mail.text).toContain('Yeni bakiye: $13,34');
    expect(mail.text).not.toContain('Tahsil edilen');
    expect(mail.text).toContain(`${BASE}/wallet`);
  });

  it('a cancelled top-up sends nothing; a partner’s own wallet top-up is receipted', async () => {
    const user = await createUser(t.container, { locale: 'en' });
    const cancelled = await t.app.inject({
      method: 'POST',
      url: '/api/v1/payments/card/create-session',
      headers: user.auth,
      payload: { amount: 500, currency: 'USD' },
    });
    expect((await completePage(cancelled.json().url, 'cancelled')).statusCode).toBe(303);
    expect(await mailsTo(user.email)).toEqual([]);

    const partner = await createPartner(t);
    const { token } = await t.container.sessions.issue(t.container.db, partner.id);
    const session = await t.app.inject({
      method: 'POST',
      url: '/api/v1/payments/card/create-session',
      headers: { authorization: `Bearer ${token}` },
      payload: { amount: 5000, currency: 'USD' },
    });
    expect((await completePage(session.json().url, 'paid')).statusCode).toBe(303);
    const mails = await mailsTo(await emailOf(partner.id));
    expect(mails.map((m) => m.subject)).toEqual(['Wallet top-up received – $50.00']);
    expect(mails[0]!.text).not.toContain('Charged:');
  });
});
