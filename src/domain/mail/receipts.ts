import { and, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { accounts, esims, orders, payments, plans, walletTransactions } from '../../db/schema/index.js';
import type { JobHandler } from '../../jobs/worker.js';
import type { EnqueueOptions, JobQueue } from '../../jobs/queue.js';
import { fromUsdCents, rateInForce } from '../catalog/exchange-rates.js';
import { planTitle } from '../catalog/plan-names.js';
import { isCurrency } from '../../lib/money.js';
import { installUrl, iosInstallUrl, qrCodeUrl } from '../orders/esim-links.js';
import type { AlertPort } from '../alerts/ports.js';
import type { Mailer } from './mailer.js';
import {
  formatDay,
  formatMoney,
  orderReceiptMail,
  topUpReceiptMail,
  type ReceiptEsim,
} from './receipt-templates.js';
import { mailLang, type MailLang } from './templates.js';
import { qrPng } from '../../lib/qr-png.js';

/** The inline QR image of an eSIM: a PNG of its LPA activation string (as the QR endpoint, smaller). */
export function receiptQrPng(lpa: string): Buffer {
  return qrPng(lpa, 440);
}

/** Job kinds of the receipt mails. */
export const RECEIPT_JOBS = {
  order: 'mail.order-receipt',
  topUp: 'mail.topup-receipt',
} as const;

/**
 * Called by the money paths inside their own transaction, right where the order became
 * COMPLETED or the top-up was credited (the conditional update that only one run wins). They
 * only enqueue a job, so the mail is built and sent after commit by the worker: it never delays
 * or fails the money path, survives a crash between commit and sending, and is sent once (the job
 * is deduplicated while pending and the outbox row is unique per order or payment).
 */
export interface ReceiptScheduler {
  orderCompleted(tx: Tx, order: { id: string; channel: 'mobile' | 'partner' }): Promise<void>;
  /** The job `orderCompleted` enqueues, for a completion written in one statement; none: no mail. */
  orderCompletedJob(order: { id: string; channel: 'mobile' | 'partner' }): EnqueueOptions | undefined;
  topUpCredited(tx: Tx, payment: { id: string; purpose: 'topup' | 'order' }): Promise<void>;
}

export interface ReceiptDeps {
  db: Db;
  queue: JobQueue;
  mailer: Mailer;
  /** "Your eSIM is ready" pushes (the receipt mail already says so). */
  alerts?: Pick<AlertPort, 'send'>;
  publicBaseUrl: string;
}

/** Sending is retried a few times (a database hiccup); delivery failures are recorded, not retried. */
const MAX_ATTEMPTS = 5;

export function createReceipts(deps: ReceiptDeps) {
  const { db } = deps;

  const scheduler: ReceiptScheduler = {
    async orderCompleted(tx, order) {
      const job = scheduler.orderCompletedJob(order);
      if (job) await deps.queue.enqueue(tx, job);
    },
    orderCompletedJob(order) {
      // Partner orders are for the partner's own customers, not the account holder (docs/orders.md).
      if (order.channel !== 'mobile') return undefined;
      return {
        kind: RECEIPT_JOBS.order,
        payload: { orderId: order.id },
        maxAttempts: MAX_ATTEMPTS,
        dedupeKey: `${RECEIPT_JOBS.order}:${order.id}`,
      };
    },
    async topUpCredited(tx, payment) {
      if (payment.purpose !== 'topup') return;
      await deps.queue.enqueue(tx, {
        kind: RECEIPT_JOBS.topUp,
        payload: { paymentId: payment.id },
        maxAttempts: MAX_ATTEMPTS,
        dedupeKey: `${RECEIPT_JOBS.topUp}:${payment.id}`,
      });
    },
  };

  async function recipient(accountId: string) {
    const [account] = await db
      .select({
        email: accounts.email,
        firstName: accounts.firstName,
        locale: accounts.locale,
        preferredCurrency: accounts.preferredCurrency,
        status: accounts.status,
      })
      .from(accounts)
      .where(eq(accounts.id, accountId));
    // A deleted account's address is anonymised: nobody to write to.
    return account && account.status !== 'DELETED' ? account : undefined;
  }

  /** The order's amount in the reader's currency at the rate in force when it was placed. */
  async function displayAmount(
    order: { amountCents: number; createdAt: Date },
    currency: string,
    lang: MailLang,
  ) {
    if (!isCurrency(currency) || currency === 'USD') return undefined;
    const rate = await rateInForce(db, currency, order.createdAt);
    if (!rate) return undefined;
    return {
      amount: formatMoney(fromUsdCents(order.amountCents, rate.ratePerUsd), currency, lang),
      rateDate: rate.asOf ? formatDay(rate.asOf, lang) : null,
    };
  }

  /**
   * The order receipt: plan, amount and, per new eSIM, its install page, QR (inline), LPA string,
   * iOS link, ICCID.
   */
  async function sendOrderReceipt(orderId: string): Promise<void> {
    const [row] = await db
      .select({ order: orders, plan: plans })
      .from(orders)
      .innerJoin(plans, eq(plans.id, orders.planId))
      .where(eq(orders.id, orderId));
    if (row?.order.status !== 'COMPLETED') return;
    const { order, plan } = row;
    const account = await recipient(order.accountId);
    if (!account) return;
    const lang = mailLang(account.locale);
    const rows = order.topUpEsimId
      ? await db.select().from(esims).where(eq(esims.id, order.topUpEsimId))
      : await db.select().from(esims).where(eq(esims.orderId, order.id)).orderBy(esims.createdAt, esims.id);
    await announceReady(order, rows);
    const list: ReceiptEsim[] = [];
    for (const [index, esim] of rows.entries()) {
      list.push({
        iccid: esim.iccid,
        activationCode: esim.activationCode,
        smdpAddress: esim.smdpAddress,
        matchingId: esim.matchingId,
        iosInstallUrl: iosInstallUrl(esim.activationCode),
        qrCodeUrl: qrCodeUrl(deps.publicBaseUrl, esim.qrToken),
        installUrl: installUrl(deps.publicBaseUrl, esim.installToken),
        ...(order.topUpEsimId
          ? {}
          : { qr: { cid: `qr-${index + 1}-${esim.id}@esim`, png: receiptQrPng(esim.activationCode) } }),
      });
    }
    const message = orderReceiptMail(lang, {
      display: await displayAmount(order, account.preferredCurrency, lang),
      receiptUrl: `${deps.publicBaseUrl}/orders/${encodeURIComponent(order.id)}/receipt`,
      to: account.email,
      firstName: account.firstName,
      orderNumber: order.orderNumber,
      completedAt: order.completedAt ?? order.updatedAt,
      planTitle: planTitle(plan, lang),
      quantity: order.quantity,
      amountCents: order.amountCents,
      paymentMethod: order.paymentMethod,
      isTopUp: order.topUpEsimId !== null,
      esims: list,
      // One eSIM: its own page (usage, top-up), which the traveller's alerts open too.
      esimsUrl:
        rows.length === 1
          ? `${deps.publicBaseUrl}/esims/${encodeURIComponent(rows[0]!.iccid)}`
          : `${deps.publicBaseUrl}/esims`,
    });
    await deps.mailer.send({ ...message, dedupeKey: `order-receipt:${order.id}` });
  }

  /**
   * "Your eSIM is ready" (issue 31 L2) for a web order paid by card or crypto: the traveller left
   * the checkout and waits for it (a wallet checkout answers with the eSIM). Sent by the receipt's
   * job, which the completing statement enqueues, so a crash right after completion still
   * announces it; the job's retries queue it once (the alert's dedupe key).
   */
  async function announceReady(
    order: typeof orders.$inferSelect,
    issued: Array<{ id: string; iccid: string }>,
  ) {
    const { alerts } = deps;
    if (!alerts || order.topUpEsimId) return;
    if (order.paymentMethod !== 'card' && order.paymentMethod !== 'crypto') return;
    for (const esim of issued)
      await alerts.send(
        db,
        order.accountId,
        { kind: 'esim_ready', iccid: esim.iccid, orderId: order.id },
        `esim_ready:${esim.id}`,
      );
  }

  /** The wallet top-up receipt: USD credited, the charged amount when it was another currency. */
  async function sendTopUpReceipt(paymentId: string): Promise<void> {
    const [payment] = await db.select().from(payments).where(eq(payments.id, paymentId));
    if (payment?.status !== 'paid' || payment.purpose !== 'topup') return;
    const account = await recipient(payment.accountId);
    if (!account) return;
    const [deposit] = await db
      .select({ balanceAfterCents: walletTransactions.balanceAfterCents })
      .from(walletTransactions)
      .where(and(eq(walletTransactions.paymentId, payment.id), eq(walletTransactions.kind, 'deposit')));
    const message = topUpReceiptMail(mailLang(account.locale), {
      to: account.email,
      firstName: account.firstName,
      paymentId: payment.id,
      paidAt: payment.paidAt ?? payment.updatedAt,
      method: payment.method,
      creditedCents: payment.usdCents,
      chargedMinor: payment.amountMinor,
      chargedCurrency: payment.currency,
      balanceAfterCents: deposit?.balanceAfterCents ?? null,
      walletUrl: `${deps.publicBaseUrl}/wallet`,
    });
    await deps.mailer.send({ ...message, dedupeKey: `topup-receipt:${payment.id}` });
  }

  const payloadString = (payload: unknown, key: string): string | undefined => {
    const value = (payload as Record<string, unknown> | null)?.[key];
    return typeof value === 'string' ? value : undefined;
  };

  const jobs: Record<string, JobHandler> = {
    [RECEIPT_JOBS.order]: {
      async run(job) {
        const orderId = payloadString(job.payload, 'orderId');
        if (orderId) await sendOrderReceipt(orderId);
      },
    },
    [RECEIPT_JOBS.topUp]: {
      async run(job) {
        const paymentId = payloadString(job.payload, 'paymentId');
        if (paymentId) await sendTopUpReceipt(paymentId);
      },
    },
  };

  return { scheduler, jobs, sendOrderReceipt, sendTopUpReceipt };
}

export type Receipts = ReturnType<typeof createReceipts>;
