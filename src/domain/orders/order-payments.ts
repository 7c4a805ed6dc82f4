import type { OrderPaymentListener } from '../payments/settlement.js';
import { chargePurchase } from '../wallet/postings.js';
import { createOrdersRepository } from './orders.repository.js';
import { fulfillJobKey, ORDER_JOBS, type OrderDeps } from './ports.js';

export type OrderChargingDeps = Pick<OrderDeps, 'db' | 'clock' | 'queue' | 'events'> & {
  fulfillmentMaxAttempts: number;
};

/**
 * The orders area's side of the payments port: payments publishes "succeeded" / "closed" inside
 * its settling transaction, and this turns them into order transitions in that same transaction.
 * Both are conditional on `AWAITING_PAYMENT`, so a replayed or late event changes nothing: the
 * order is charged and queued for fulfillment at most once, and a payment arriving after its
 * order was cancelled (expired) stays in the wallet as credit.
 */
export function createOrderPaymentHandler(deps: OrderChargingDeps): OrderPaymentListener {
  const { clock, queue } = deps;
  const repository = createOrdersRepository(deps.db);
  return {
    async paymentSucceeded(tx, payment) {
      if (!payment.orderId) return;
      const now = clock.now();
      const order = await repository.markPaid(tx, payment.orderId, payment.id, now);
      if (!order) return;
      // The money was deposited a moment ago in this transaction: the purchase takes it back out,
      // no net change, so no low-balance observer.
      await chargePurchase(tx, order, now);
      await queue.enqueue(tx, {
        kind: ORDER_JOBS.fulfill,
        payload: { orderId: order.id },
        runAt: now,
        maxAttempts: deps.fulfillmentMaxAttempts,
        dedupeKey: fulfillJobKey(order.id),
      });
    },
    async paymentClosed(tx, payment) {
      if (payment.orderId) await repository.cancelUnpaid(payment.orderId, clock.now(), tx);
    },
  };
}
