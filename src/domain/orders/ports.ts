import type { Db, DbOrTx, Tx } from '../../db/client.js';
import type { esims, orders, plans } from '../../db/schema/index.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { Clock } from '../../lib/clock.js';
import type { Sleep } from '../../lib/rate-limiter.js';
import type { EsimProvider } from '../../providers/esim/types.js';
import type { EsimChanges } from '../events/esim-changes.js';
import type { PartnerEvents } from '../events/partner-events.js';
import type { Mailer } from '../mail/mailer.js';
import type { ReceiptScheduler } from '../mail/receipts.js';

export type OrderRow = typeof orders.$inferSelect;
export type EsimRow = typeof esims.$inferSelect;
export type OrderStatus = OrderRow['status'];
export type PaymentMethod = OrderRow['paymentMethod'];

/** What orders need from the catalog: a sellable plan with the price a buyer pays. */
export type SellablePlanLike = typeof plans.$inferSelect & { effectivePriceCents: number };

export interface SupportPort {
  openSystemTicket(input: {
    accountId: string;
    orderId: string;
    subject: string;
    message: string;
  }): Promise<{ id: string }>;
}

/** The slice of the payments service an order uses (owned by the payments area). */
export interface PaymentsPort {
  createCardPayment(input: {
    accountId: string;
    purpose: 'order';
    orderId: string;
    amountMinor: number;
    currency: 'USD';
    successUrl?: string;
    cancelUrl?: string;
  }): Promise<{ paymentId: string; sessionId: string; url: string }>;
  createCryptoPayment(input: {
    accountId: string;
    purpose: 'order';
    orderId: string;
    amountCents: number;
    currency?: string;
    returnUrl?: string;
  }): Promise<{ paymentId: string; invoice: { url: string } & Record<string, unknown> }>;
  /** Closes a still-pending payment as expired; false when it was already final. */
  expirePayment(paymentId: string): Promise<boolean>;
}

export interface OrderLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface OrderDeps {
  db: Db;
  clock: Clock;
  queue: JobQueue;
  /**
   * Read at call time, so a replaced provider (tests, configure) is the one used. `testEsim` (the
   * sandbox) provisions test-mode orders, whatever ESIM_PROVIDER is.
   */
  providers: { esim: EsimProvider; testEsim: EsimProvider };
  mailer: Mailer;
  /** Enqueues the receipt mail inside the completing transaction (sent after commit). */
  receipts?: Pick<ReceiptScheduler, 'orderCompleted' | 'orderCompletedJob'>;
  log: OrderLogger;
  /** Optional counters (GET /metrics). */
  metrics?: { fulfillmentFailed(source: string, retryable: boolean): void };
  findActivePlan(db: DbOrTx, planId: string): Promise<SellablePlanLike | null>;
  /** Support tickets for failed fulfillment; without it support is mailed directly. */
  support?: SupportPort;
  /**
   * Creating (and expiring) the payment of a card/crypto order: orders → payments is the only
   * direction in which orders calls payments. The way back (payment succeeded / closed) is the
   * payments area's OrderPaymentListener port, handled by `createOrderPaymentHandler`.
   */
  payments?: PaymentsPort;
  /** Partner events (outbox), written in the transactions below; absent in narrow unit tests. */
  events?: PartnerEvents;
  /** Told of every stored change of an eSIM's usage or status (src/domain/events/esim-changes.ts). */
  esimChanges?: EsimChanges;
  settings: {
    publicBaseUrl: string;
    supportEmail: string;
    usageCacheSeconds: number;
    fulfillmentMaxAttempts: number;
    fulfillmentRetryBaseSeconds: number;
    /**
     * The scheduled poll of eSIM state (ESIM_POLL_*): provider queries per second and eSIMs per
     * run; `sleep` is for tests (a ManualClock). Absent: 50 per run, unthrottled.
     */
    poll?: { ratePerSecond: number; batch: number; sleep?: Sleep };
  };
}

export type { Tx };

/** The provider of an order or eSIM: the configured one for live rows, the sandbox for test rows. */
export function esimProviderFor(deps: Pick<OrderDeps, 'providers'>, livemode: boolean): EsimProvider {
  return livemode ? deps.providers.esim : deps.providers.testEsim;
}

/** Job kinds of this area. */
export const ORDER_JOBS = {
  fulfill: 'order.fulfill',
  expire: 'order.expire',
  refreshEsims: 'esims.refresh',
  /** Finishes a claimed self-service cancellation whose request did not (./self-cancel.ts). */
  cancel: 'order.cancel',
} as const;

/** The dedupe key of an order's self-service cancellation job: one per order. */
export const cancelJobKey = (orderId: string) => `cancel:${orderId}`;

/** The dedupe key of an order's fulfillment job: at most one pending or running per order. */
export const fulfillJobKey = (orderId: string) => `fulfill:${orderId}`;

/** Unpaid card/crypto orders are cancelled after this long (decisions §3). */
export const UNPAID_ORDER_TTL_MS = 24 * 60 * 60 * 1000;
