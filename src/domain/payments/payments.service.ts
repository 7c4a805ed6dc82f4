import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { payments } from '../../db/schema/index.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import { isCurrency, type Currency } from '../../lib/money.js';
import { settlePendingJob, type JobQueue } from '../../jobs/queue.js';
import type { JobHandlers } from '../../jobs/worker.js';
import type { PaymentProviders } from '../../providers/payments/registry.js';
import type {
  PaymentPurpose,
  PaymentWebhookEvent,
  SandboxOutcome,
  SandboxSettlement,
  WebhookHeaders,
} from '../../providers/payments/types.js';
import { toUsdCentsRoundedDown, type ExchangeRateService } from '../catalog/exchange-rates.js';
import { AppError } from '../errors.js';
import type { PartnerEvents } from '../events/partner-events.js';
import { paymentProviderFailure } from './provider-errors.js';
import {
  createSettlement,
  type OrderPaymentListener,
  type PaymentMethod,
  type PaymentRecord,
  type SettlementDeps,
} from './settlement.js';
import type { Logger } from '../../lib/logger.js';

export type { EventOutcome, OrderPaymentListener, PaymentRecord } from './settlement.js';

/** Smallest wallet top-up, in minor units (specification §8: 200 cents, 2 USD). */
export const MIN_TOPUP_MINOR = 200;
/** Bounds of what one top-up may credit, in US cents whatever the paid currency (US$2 … US$10,000). */
export const MIN_TOPUP_USD_CENTS = 200;
export const MAX_TOPUP_USD_CENTS = 1_000_000;

export interface CreateCardPaymentInput {
  accountId: string;
  purpose: PaymentPurpose;
  orderId?: string;
  /** Minor units of `currency`. */
  amountMinor: number;
  currency: Currency;
  successUrl?: string;
  cancelUrl?: string;
}

export interface CreateCryptoPaymentInput {
  accountId: string;
  purpose: PaymentPurpose;
  orderId?: string;
  amountCents: number;
  /** Invoice currency; only USD (the wallet currency) is offered, anything else is a 400. */
  currency?: string;
  returnUrl?: string;
}

export interface PaymentsDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  publicBaseUrl: string;
  exchangeRates: ExchangeRateService;
  providers: PaymentProviders;
  receipts?: SettlementDeps['receipts'];
  /**
   * Told when an order's payment succeeds or closes, inside the settling transaction (the orders
   * area's `createOrderPaymentHandler`). Optional so top-up-only tests can leave it out.
   */
  orders?: OrderPaymentListener;
  /** Partner events (wallet.topup_succeeded); optional so narrow tests can leave it out. */
  events?: Pick<PartnerEvents, 'topUpSucceeded'>;
  /** Custom app schemes accepted as redirect targets (APP_URL_SCHEMES). */
  appUrlSchemes?: readonly string[];
  /** Durable jobs: refunds for deleted accounts, the sandbox's webhook (re)delivery. */
  queue?: Pick<JobQueue, 'enqueue'>;
}

/** The sandbox page's webhook, delivered through the queue like a real provider's retries. */
export const SANDBOX_WEBHOOK_JOB = 'payment.sandbox_webhook';
/** A real provider retries within seconds to minutes; so does the sandbox. */
const SANDBOX_WEBHOOK_RETRY_MS = 30_000;

const LOOPBACK_HOSTS = new Set(['localhost', '[::1]']);

function isLoopbackHost(hostname: string): boolean {
  return (
    LOOPBACK_HOSTS.has(hostname) || hostname.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(hostname)
  );
}

/**
 * Where a browser may be sent after paying: https URLs, http only to a loopback host (local
 * development), and the custom app schemes of APP_URL_SCHEMES (`myapp://payment/done`).
 * javascript:, data:, file:, intent: and every other scheme are refused, as are URLs with
 * credentials, whitespace or control characters (which URL parsers silently drop).
 */
export function isRedirectUrl(value: string, appSchemes: readonly string[] = []): boolean {
  // eslint-disable-next-line no-control-regex -- refusing control characters is the point
  if (value.length > 2048 || /[\u0000-\u0020\u007f\\]/.test(value)) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  if (url.protocol === 'https:') return url.hostname !== '';
  if (url.protocol === 'http:') return isLoopbackHost(url.hostname);
  const scheme = url.protocol.slice(0, -1).toLowerCase();
  return appSchemes.includes(scheme) && value.length > url.protocol.length;
}

function checkRedirect(value: string | undefined, field: string, appSchemes: readonly string[]): void {
  if (value !== undefined && !isRedirectUrl(value, appSchemes)) {
    throw new AppError(
      'VALIDATION_ERROR',
      `${field} must be an https URL (http only for localhost) or a link of an app scheme listed in APP_URL_SCHEMES`,
      { field },
    );
  }
}

function checkTopUpUsd(usdCents: number): void {
  if (usdCents < MIN_TOPUP_USD_CENTS || usdCents > MAX_TOPUP_USD_CENTS) {
    throw new AppError('VALIDATION_ERROR', 'A top-up must credit between US$2.00 and US$10,000.00', {
      field: 'amount',
    });
  }
}

export function createPaymentsService(deps: PaymentsDeps) {
  const { db, clock, providers } = deps;
  const appSchemes = deps.appUrlSchemes ?? [];
  const settlement = createSettlement({
    db,
    clock,
    log: deps.log,
    orders: deps.orders,
    receipts: deps.receipts,
    events: deps.events,
    queue: deps.queue,
  });
  const defaultUrl = (outcome: 'success' | 'cancel') => `${deps.publicBaseUrl}/payment/${outcome}`;

  function checkAmount(purpose: PaymentPurpose, amountMinor: number): void {
    if (!Number.isSafeInteger(amountMinor) || amountMinor <= 0) {
      throw new AppError('VALIDATION_ERROR', 'amount must be a positive integer number of cents', {
        field: 'amount',
      });
    }
    if (purpose === 'topup' && amountMinor < MIN_TOPUP_MINOR) {
      throw new AppError('VALIDATION_ERROR', `amount must be at least ${MIN_TOPUP_MINOR}`, {
        field: 'amount',
      });
    }
  }

  async function insertPending(values: Omit<typeof payments.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>) {
    const id = newId('pay');
    const now = clock.now();
    await db.insert(payments).values({ ...values, id, status: 'pending', createdAt: now, updatedAt: now });
    return id;
  }

  /** Runs the provider call outside any transaction; a failed call leaves the payment `failed`. */
  async function withProvider<T>(paymentId: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      await db
        .update(payments)
        .set({ status: 'failed', updatedAt: clock.now() })
        .where(and(eq(payments.id, paymentId), eq(payments.status, 'pending')));
      throw paymentProviderFailure(error, 'create');
    }
  }

  async function attach(paymentId: string, providerRef: string, url: string, data?: Record<string, unknown>) {
    await db
      .update(payments)
      .set({ providerRef, url, providerData: data ?? null, updatedAt: clock.now() })
      .where(eq(payments.id, paymentId));
  }

  function sandboxOf(method: PaymentMethod): SandboxSettlement {
    const sandbox = providers.sandbox[method];
    if (!sandbox) throw new AppError('NOT_FOUND', `The ${method} provider is not the sandbox`);
    return sandbox;
  }

  /** The session's final state (the first outcome wins) and its signed webhook, applied once. */
  async function deliverSandbox(method: PaymentMethod, id: string, outcome: SandboxOutcome) {
    const settled = await sandboxOf(method).settle(id, outcome);
    if (!settled) throw new AppError('PAYMENT_NOT_FOUND', 'Unknown sandbox session');
    await service.handleWebhook(method, settled.rawBody, settled.headers);
    return settled;
  }

  const service = {
    async createCardPayment(input: CreateCardPaymentInput) {
      if (providers.card.name === 'off')
        throw new AppError('SERVICE_UNAVAILABLE', 'Card payments are switched off');
      checkAmount(input.purpose, input.amountMinor);
      if (!isCurrency(input.currency))
        throw new AppError('VALIDATION_ERROR', 'Unsupported currency', { field: 'currency' });
      checkRedirect(input.successUrl, 'successUrl', appSchemes);
      checkRedirect(input.cancelUrl, 'cancelUrl', appSchemes);
      const rate = await deps.exchangeRates.get(input.currency);
      const usdCents = toUsdCentsRoundedDown(input.amountMinor, rate);
      if (usdCents < 1)
        throw new AppError('VALIDATION_ERROR', 'amount is below one US cent', { field: 'amount' });
      if (input.purpose === 'topup') checkTopUpUsd(usdCents);
      const successUrl = input.successUrl ?? defaultUrl('success');
      const cancelUrl = input.cancelUrl ?? defaultUrl('cancel');
      const paymentId = await insertPending({
        accountId: input.accountId,
        purpose: input.purpose,
        orderId: input.orderId ?? null,
        method: 'card',
        provider: providers.card.name,
        amountMinor: input.amountMinor,
        currency: input.currency,
        usdCents,
        exchangeRate: rate,
        successUrl,
        cancelUrl,
      });
      const session = await withProvider(paymentId, () =>
        providers.card.createSession({
          paymentId,
          accountId: input.accountId,
          purpose: input.purpose,
          amountMinor: input.amountMinor,
          currency: input.currency,
          description:
            input.purpose === 'order' ? `eSIM order ${input.orderId ?? ''}`.trim() : 'Wallet top-up',
          successUrl,
          cancelUrl,
        }),
      );
      await attach(paymentId, session.sessionId, session.url);
      return { paymentId, sessionId: session.sessionId, url: session.url };
    },

    async createCryptoPayment(input: CreateCryptoPaymentInput) {
      if (providers.crypto.name === 'off')
        throw new AppError('SERVICE_UNAVAILABLE', 'Crypto payments are switched off');
      checkAmount(input.purpose, input.amountCents);
      if (input.purpose === 'topup') checkTopUpUsd(input.amountCents);
      const currency = (input.currency ?? 'USD').toUpperCase();
      if (currency !== 'USD')
        throw new AppError('VALIDATION_ERROR', 'Crypto invoices are in USD', { field: 'currency' });
      checkRedirect(input.returnUrl, 'url_return', appSchemes);
      const returnUrl = input.returnUrl ?? defaultUrl('cancel');
      const successUrl = input.returnUrl ?? defaultUrl('success');
      const paymentId = await insertPending({
        accountId: input.accountId,
        purpose: input.purpose,
        orderId: input.orderId ?? null,
        method: 'crypto',
        provider: providers.crypto.name,
        amountMinor: input.amountCents,
        currency,
        usdCents: input.amountCents,
        exchangeRate: '1',
        successUrl,
        cancelUrl: returnUrl,
      });
      const created = await withProvider(paymentId, () =>
        providers.crypto.createInvoice({
          paymentId,
          accountId: input.accountId,
          purpose: input.purpose,
          amountMinor: input.amountCents,
          currency,
          returnUrl,
          successUrl,
          callbackUrl: `${deps.publicBaseUrl}/api/v1/payments/crypto/webhook`,
        }),
      );
      await attach(paymentId, created.invoiceId, created.url, created.invoice);
      return { paymentId, invoice: created.invoice };
    },

    /** The single entry point of provider webhooks, real or sandbox: verify, then apply once. */
    async handleWebhook(method: PaymentMethod, rawBody: Buffer, headers: WebhookHeaders) {
      const provider = providers[method];
      let event: PaymentWebhookEvent;
      try {
        event = await provider.parseWebhook(rawBody, headers);
      } catch (error) {
        throw paymentProviderFailure(error, 'webhook');
      }
      return settlement.applyEvent(provider.name, method, event);
    },

    async sandboxView(method: PaymentMethod, id: string) {
      const view = await sandboxOf(method).view(id);
      if (!view) throw new AppError('PAYMENT_NOT_FOUND', 'Unknown sandbox session');
      return view;
    },

    /**
     * Settles a sandbox session and delivers its signed webhook through `handleWebhook`. The
     * delivery is queued first (issue 28 H22): the sandbox marks the session paid before the
     * wallet is credited, so a process dying in between has the job re-send it, as a real provider
     * retries its webhook; delivered here, the job is settled and never runs.
     */
    async completeSandbox(method: PaymentMethod, id: string, outcome: SandboxOutcome) {
      if (!(await sandboxOf(method).view(id)))
        throw new AppError('PAYMENT_NOT_FOUND', 'Unknown sandbox session');
      const jobKey = `sandbox-webhook:${id}`;
      await deps.queue?.enqueue(db, {
        kind: SANDBOX_WEBHOOK_JOB,
        payload: { method, id, outcome },
        runAt: new Date(clock.now().getTime() + SANDBOX_WEBHOOK_RETRY_MS),
        maxAttempts: 10,
        dedupeKey: jobKey,
      });
      const settled = await deliverSandbox(method, id, outcome);
      await settlePendingJob(db, jobKey, clock.now());
      return {
        status: settled.status,
        redirectUrl: settled.redirectUrl ?? defaultUrl(settled.status === 'paid' ? 'success' : 'cancel'),
      };
    },

    registerJobs(handlers: JobHandlers): void {
      handlers[SANDBOX_WEBHOOK_JOB] = {
        async run(job) {
          const { method, id, outcome } = job.payload as {
            method: PaymentMethod;
            id: string;
            outcome: SandboxOutcome;
          };
          await deliverSandbox(method, id, outcome);
        },
      };
    },

    /**
     * Closes a still-pending payment as expired (its order hears `paymentClosed` in the same
     * transaction); false if it was already final.
     */
    async expirePayment(paymentId: string): Promise<boolean> {
      return db.transaction((tx) => settlement.markClosed(tx, paymentId, 'expired'));
    },

    async get(paymentId: string): Promise<PaymentRecord | undefined> {
      const [row] = await db.select().from(payments).where(eq(payments.id, paymentId));
      return row;
    },
  };
  return service;
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;
