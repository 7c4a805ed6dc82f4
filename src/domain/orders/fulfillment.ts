import type { plans } from '../../db/schema/index.js';
import { EsimProviderError, type ProviderProfile } from '../../providers/esim/types.js';
import { AppError } from '../errors.js';
import { delayedOrderTicket } from '../support/templates.js';
import { refundPurchase } from '../wallet/postings.js';
import { createOrderCompletion, RepeatedProfileError, type AttemptSource } from './complete-order.js';
import type { OrdersRepository } from './orders.repository.js';
import { esimProviderFor, type EsimRow, type OrderDeps, type OrderRow, type Tx } from './ports.js';

export type { AttemptSource } from './complete-order.js';

/** The plan fields an attempt needs; the placing path already has them. */
export type PlanForFulfillment = Pick<
  typeof plans.$inferSelect,
  'id' | 'providerPackageCode' | 'wholesaleCents'
>;

export type AttemptResult =
  | { ok: true; order: OrderRow; esims: EsimRow[] }
  | { ok: false; order: OrderRow; error: Error; retryable: boolean };

/**
 * The order's state machine after it is paid: PROCESSING → COMPLETED (an attempt got the eSIMs)
 * or → REFUNDED (fulfillment abandoned). An attempt calls the provider outside any transaction,
 * then stores the result in one statement (./complete-order.ts). Safe to run concurrently for the
 * same order (request + job + operator): the provider is idempotent on the order id, eSIM rows are
 * keyed by the unique provider_ref, and completion and refund are conditional on PROCESSING.
 */
export function createFulfillment(deps: OrderDeps, repository: OrdersRepository) {
  const { db, clock } = deps;
  const complete = createOrderCompletion(deps);

  async function loadOrder(orderId: string): Promise<OrderRow> {
    const order = await repository.findOrder(orderId);
    if (!order) throw new AppError('ORDER_NOT_FOUND', 'Order not found');
    return order;
  }

  /** The provider's profiles for the order, and a top-up's eSIM as it was before. */
  async function callProvider(
    order: OrderRow,
    known?: PlanForFulfillment,
  ): Promise<{ profiles: ProviderProfile[]; target?: EsimRow }> {
    const provider = esimProviderFor(deps, order.livemode);
    const plan = known?.id === order.planId ? known : await repository.planForFulfillment(order.planId);
    if (!plan) throw new EsimProviderError('unknown_package', 'plan row missing', false);
    if (order.topUpEsimId) {
      const target = await repository.esimById(order.topUpEsimId);
      if (!target) throw new EsimProviderError('not_found', 'top-up target eSIM missing', false);
      const profile = await provider.topUp({
        orderId: order.id,
        providerRef: target.providerRef,
        iccid: target.iccid,
        packageCode: plan.providerPackageCode,
      });
      return { profiles: [profile], target };
    }
    const profiles = await provider.issueProfiles({
      orderId: order.id,
      packageCode: plan.providerPackageCode,
      quantity: order.quantity,
      wholesaleCents: plan.wholesaleCents,
    });
    return { profiles };
  }

  async function failed(order: OrderRow, source: AttemptSource, err: unknown): Promise<AttemptResult> {
    const error = err instanceof Error ? err : new Error(String(err));
    const retryable = !(err instanceof EsimProviderError) || err.retryable;
    const counted = await repository.recordFailure(
      order.id,
      source,
      error.message.slice(0, 500),
      clock.now(),
    );
    deps.log.warn({ orderId: order.id, source, err: error.message }, 'fulfillment attempt failed');
    deps.metrics?.fulfillmentFailed(source, retryable);
    return { ok: false, order: counted, error, retryable };
  }

  /**
   * One attempt for an order, given as its id (jobs, operator) or as the row the caller has just
   * written (placing an order, with the plan it read): the order is read at most once.
   */
  async function attempt(
    orderOrId: string | OrderRow,
    source: AttemptSource,
    plan?: PlanForFulfillment,
  ): Promise<AttemptResult> {
    const order = typeof orderOrId === 'string' ? await loadOrder(orderOrId) : orderOrId;
    if (order.status !== 'PROCESSING') {
      return order.status === 'COMPLETED'
        ? { ok: true, order, esims: await repository.esimsOfOrder(order) }
        : { ok: false, order, error: new Error(`order is ${order.status}`), retryable: false };
    }
    let issued: { profiles: ProviderProfile[]; target?: EsimRow };
    try {
      issued = await callProvider(order, plan);
    } catch (err) {
      return failed(order, source, err);
    }
    let completed: { order: OrderRow; esims: EsimRow[] } | null;
    try {
      completed = await complete(order, issued.profiles, source, issued.target);
    } catch (err) {
      if (err instanceof RepeatedProfileError) return failed(order, source, err);
      throw err;
    }
    if (completed) return { ok: true, ...completed };
    // Lost the race: read what the winner (a concurrent attempt or a refund) left.
    const latest = await loadOrder(order.id);
    if (latest.status === 'COMPLETED')
      return { ok: true, order: latest, esims: await repository.esimsOfOrder(latest) };
    if (!order.topUpEsimId) await cancelOrphans(order, issued.profiles);
    return { ok: false, order: latest, error: new Error(`order is ${latest.status}`), retryable: false };
  }

  /** Profiles that arrived after the order was refunded: hand them back (best effort, logged). */
  async function cancelOrphans(order: OrderRow, profiles: ProviderProfile[]): Promise<void> {
    for (const profile of profiles) {
      try {
        await esimProviderFor(deps, order.livemode).cancelProfile(profile.providerRef);
      } catch (err) {
        deps.log.error(
          { orderId: order.id, providerRef: profile.providerRef, err: (err as Error).message },
          'could not cancel a profile issued for a refunded order',
        );
      }
    }
  }

  /**
   * Fulfillment abandoned: the order becomes REFUNDED and its amount goes back to the wallet, in
   * one transaction conditional on PROCESSING; the unique ledger reference makes a second refund
   * impossible even under races. Returns null when the order was not PROCESSING.
   */
  async function refund(orderId: string, reason: string, onRefunded?: (tx: Tx) => Promise<void>) {
    return db.transaction(async (tx) => {
      const now = clock.now();
      const order = await repository.markRefunded(tx, orderId, reason, now);
      if (!order) return null;
      await refundPurchase(tx, order, now);
      await deps.events?.orderRefunded(tx, order);
      await onRefunded?.(tx);
      return order;
    });
  }

  /** Tells support once per order (ticket on the account; SUPPORT_EMAIL through the outbox). */
  async function notifySupportOnce(order: OrderRow, error: Error): Promise<void> {
    // The claim and order.fulfillment_failed commit together: the event fires once per order.
    const claimed = await db.transaction(async (tx) => {
      const row = await repository.claimSupportNotice(tx, order.id, clock.now());
      if (row && row.status === 'PROCESSING') await deps.events?.orderFulfillmentFailed(tx, row);
      return row;
    });
    // Test-mode failures are the partner's own experiments (often requested through the test
    // helpers): the webhook event above, but no ticket and no mail to support.
    if (!order.livemode || !claimed) return;
    deps.log.warn({ orderId: order.id, err: error.message }, 'fulfillment failed; support notified');
    const { subject, message } = delayedOrderTicket(order);
    try {
      const support = deps.support;
      // The support service announces new system tickets to SUPPORT_EMAIL itself.
      if (support)
        await support.openSystemTicket({ accountId: order.accountId, orderId: order.id, subject, message });
      else await deps.mailer.send({ to: deps.settings.supportEmail, subject, text: message });
    } catch (err) {
      deps.log.error({ orderId: order.id, err: (err as Error).message }, 'support notification failed');
    }
  }

  return {
    attempt,
    refund,
    notifySupportOnce,
    esimsOfOrder: (order: OrderRow) => repository.esimsOfOrder(order),
    loadOrder,
  };
}

export type Fulfillment = ReturnType<typeof createFulfillment>;
