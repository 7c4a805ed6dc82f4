import type { Db } from '../../db/client.js';
import type { JobHandlers, SettleExhausted } from '../../jobs/worker.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { Clock } from '../../lib/clock.js';
import type { OrderService } from './orders.service.js';
import { ORDER_JOBS, type OrderLogger, type PaymentsPort } from './ports.js';

/** How often the periodic job refreshes eSIM status and usage by default (ESIM_POLL_INTERVAL_SECONDS). */
export const ESIM_REFRESH_INTERVAL_MS = 5 * 60 * 1000;

function orderIdOf(payload: Record<string, unknown>): string {
  const id = payload.orderId;
  if (typeof id !== 'string') throw new Error('job payload has no orderId');
  return id;
}

/**
 * Background work of the order area:
 * - `order.fulfill`: retries fulfillment with backoff (base × 2^(n−1)); a non-retryable provider
 *   error or exhaustion refunds the order to the wallet (on exhaustion, in the transaction that
 *   ends the job as `handled`);
 * - `order.expire`: cancels a card/crypto order still unpaid after 24 h;
 * - `esims.refresh`: periodic status/usage refresh, re-enqueued for the next time slot.
 */
export function registerOrderJobs(deps: {
  db: Db;
  handlers: JobHandlers;
  queue: JobQueue;
  clock: Clock;
  log: OrderLogger;
  orders: OrderService;
  retryBaseSeconds: number;
  /** Time slot of the scheduled poll (esims.refresh); default ESIM_REFRESH_INTERVAL_MS. */
  refreshIntervalMs?: number;
  /** Closes the order's pending payment before the order is cancelled. */
  payments?: Pick<PaymentsPort, 'expirePayment'>;
}): { scheduleRefresh(): Promise<void> } {
  const { handlers, orders, queue, clock } = deps;
  const refreshEvery = deps.refreshIntervalMs ?? ESIM_REFRESH_INTERVAL_MS;
  const { fulfillment } = orders;

  async function refund(orderId: string, reason: string, settle?: SettleExhausted) {
    const refunded = await fulfillment.refund(orderId, reason, settle);
    if (refunded) deps.log.warn({ orderId, reason }, 'order refunded after failed fulfillment');
    // Already COMPLETED or REFUNDED (a concurrent attempt or the operator won): nothing to act on.
    else await settle?.(deps.db);
  }

  handlers[ORDER_JOBS.fulfill] = {
    async run(job) {
      const orderId = orderIdOf(job.payload);
      const result = await fulfillment.attempt(orderId, 'job');
      if (result.ok || result.order.status !== 'PROCESSING') return;
      await fulfillment.notifySupportOnce(result.order, result.error);
      if (!result.retryable) {
        await refund(orderId, `not retryable: ${result.error.message}`);
        return;
      }
      throw result.error;
    },
    // The refund and the job's end (`handled`, not dead-lettered) commit in one transaction.
    async onExhausted(job, error, settle) {
      await refund(orderIdOf(job.payload), `retries exhausted: ${error.message}`, settle);
    },
    backoffMs: (attempts) => deps.retryBaseSeconds * 1000 * 2 ** (attempts - 1),
  };

  handlers[ORDER_JOBS.expire] = {
    async run(job) {
      const orderId = orderIdOf(job.payload);
      const order = await orders.fulfillment.loadOrder(orderId);
      if (order.status !== 'AWAITING_PAYMENT') return;
      // Closing the payment first means a late "paid" webhook finds it final, not an open order.
      if (order.paymentId && deps.payments) await deps.payments.expirePayment(order.paymentId);
      await orders.cancelUnpaid(orderId);
    },
  };

  function slotKey(at: Date): string {
    return `esims.refresh:${Math.floor(at.getTime() / refreshEvery)}`;
  }

  async function scheduleRefresh(at?: Date): Promise<void> {
    const runAt = at ?? clock.now();
    await queue.enqueue(deps.db, { kind: ORDER_JOBS.refreshEsims, runAt, dedupeKey: slotKey(runAt) });
  }

  handlers[ORDER_JOBS.refreshEsims] = {
    async run() {
      try {
        await orders.refreshStatuses();
      } finally {
        // One job per time slot: the dedupe key stops several instances from piling up copies.
        await scheduleRefresh(new Date(clock.now().getTime() + refreshEvery));
      }
    },
  };

  return { scheduleRefresh: () => scheduleRefresh() };
}
