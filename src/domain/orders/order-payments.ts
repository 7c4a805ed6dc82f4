import { and, eq } from 'drizzle-orm';
import { orders } from '../../db/schema/index.js';
import type { EnqueueOptions } from '../../jobs/queue.js';
import type { OrderPaymentListener } from '../payments/settlement.js';
import { chargePurchase } from '../wallet/postings.js';
import { fulfillJobKey, ORDER_JOBS, type OrderDeps, type OrderRow, type Tx } from './ports.js';

export type OrderChargingDeps = Pick<OrderDeps, 'db' | 'clock' | 'queue' | 'events'> & {
  fulfillmentMaxAttempts: number;
};

/**
 * The two order transitions money drives, shared by the placing path (wallet orders) and the
 * payment handler below (card/crypto orders). Neither needs the payments service, so the handler
 * can be built before it and the two areas talk one way.
 */
export function createOrderCharging(deps: OrderChargingDeps) {
  const { db, clock, queue } = deps;

  /** Posts the purchase (a card/crypto order's money was deposited a moment ago). */
  async function charge(tx: Tx, order: OrderRow): Promise<void> {
    await chargePurchase(
      tx,
      order,
      clock.now(),
      // A card/crypto order's money was deposited a moment ago: no net change, no low-balance alert.
      order.paymentMethod === 'wallet' ? deps.events : undefined,
    );
  }

  /**
   * The order's fulfillment job. It starts `delayMs` from now so the synchronous attempt of a
   * wallet order normally wins; if the process dies first, it recovers.
   */
  function fulfillmentJob(orderId: string, delayMs: number): EnqueueOptions {
    return {
      kind: ORDER_JOBS.fulfill,
      payload: { orderId },
      runAt: new Date(clock.now().getTime() + delayMs),
      maxAttempts: deps.fulfillmentMaxAttempts,
      dedupeKey: fulfillJobKey(orderId),
    };
  }

  /** Posts the purchase and enqueues the fulfillment job, in the caller's transaction. */
  async function chargeAndEnqueue(tx: Tx, order: OrderRow, delayMs: number): Promise<void> {
    await charge(tx, order);
    await queue.enqueue(tx, fulfillmentJob(order.id, delayMs));
  }

  async function cancelUnpaid(orderId: string, tx?: Tx): Promise<OrderRow | null> {
    const now = clock.now();
    const [order] = await (tx ?? db)
      .update(orders)
      .set({ status: 'CANCELLED', updatedAt: now })
      .where(and(eq(orders.id, orderId), eq(orders.status, 'AWAITING_PAYMENT')))
      .returning();
    return order ?? null;
  }

  return { charge, fulfillmentJob, chargeAndEnqueue, cancelUnpaid };
}

/**
 * The orders area's side of the payments port: payments publishes "succeeded" / "closed" inside
 * its settling transaction, and this turns them into order transitions in that same transaction.
 * Both are conditional on `AWAITING_PAYMENT`, so a replayed or late event changes nothing: the
 * order is charged and queued for fulfillment at most once, and a payment arriving after its
 * order was cancelled (expired) stays in the wallet as credit.
 */
export function createOrderPaymentHandler(deps: OrderChargingDeps): OrderPaymentListener {
  const { chargeAndEnqueue, cancelUnpaid } = createOrderCharging(deps);
  return {
    async paymentSucceeded(tx, payment) {
      if (!payment.orderId) return;
      const [order] = await tx
        .update(orders)
        .set({ status: 'PROCESSING', paymentId: payment.id, updatedAt: deps.clock.now() })
        .where(and(eq(orders.id, payment.orderId), eq(orders.status, 'AWAITING_PAYMENT')))
        .returning();
      if (order) await chargeAndEnqueue(tx, order, 0);
    },
    async paymentClosed(tx, payment) {
      if (payment.orderId) await cancelUnpaid(payment.orderId, tx);
    },
  };
}
