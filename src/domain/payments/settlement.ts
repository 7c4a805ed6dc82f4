import { and, eq, inArray } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { accounts, paymentEvents, payments } from '../../db/schema/index.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import type { PaymentWebhookEvent } from '../../providers/payments/types.js';
import type { ReceiptScheduler } from '../mail/receipts.js';
import type { PartnerEvents } from '../events/partner-events.js';
import { creditDeposit } from '../wallet/postings.js';
import type { Logger } from '../../lib/logger.js';

export type PaymentRecord = typeof payments.$inferSelect;
export type PaymentMethod = PaymentRecord['method'];

/**
 * What the payments area publishes about a payment of `purpose = order`; the orders area handles
 * it (wired once at the composition root, src/container.ts). Payments never imports orders.
 * Both run inside the settlement transaction, after the payment row changed state (so each runs
 * at most once per payment); if one throws, the whole settlement rolls back and the provider's
 * retry is applied in full.
 */
export interface OrderPaymentListener {
  /** The payment became `paid` and its money was deposited into the payer's wallet a moment ago. */
  paymentSucceeded(tx: Tx, payment: PaymentRecord): Promise<void>;
  /** A pending payment closed without money: `payment.status` is `expired`, `cancelled` or `failed`. */
  paymentClosed(tx: Tx, payment: PaymentRecord): Promise<void>;
}

/** What a verified event did; stored on its payment_events row. */
export type EventOutcome =
  | 'credited'
  | 'refund_queued'
  | 'closed'
  | 'recorded'
  | 'already_final'
  | 'duplicate'
  | 'unknown_payment'
  | 'amount_mismatch';

/** The job that hands a deleted account's payment back to the payer (payment-refunds.ts). */
export const PAYMENT_REFUND_JOB = 'payment.refund';
/** Payment states in which money may still arrive (a late payment is still money paid). */
const OPEN_OR_CLOSED = ['pending', 'cancelled', 'expired', 'failed'] as const;

export interface SettlementDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  /** The orders area's handler of order payments; absent where only top-ups exist (narrow tests). */
  orders?: OrderPaymentListener;
  /** Enqueues the top-up receipt mail inside the settling transaction (sent after commit). */
  receipts?: Pick<ReceiptScheduler, 'topUpCredited'>;
  /** Partner events: wallet.topup_succeeded is written in the crediting transaction. */
  events?: Pick<PartnerEvents, 'topUpSucceeded'>;
  /** Queues the refund of money paid for a deleted account; without it such money is refused. */
  queue?: Pick<JobQueue, 'enqueue'>;
}

type ClosedStatus = 'cancelled' | 'expired' | 'failed';

function describeDeposit(payment: PaymentRecord): string {
  const method = payment.method === 'card' ? 'Card' : 'Crypto';
  return payment.purpose === 'order'
    ? `${method} payment for order ${payment.orderId ?? ''}`.trim()
    : `${method} top-up`;
}

export function createSettlement(deps: SettlementDeps) {
  const { db, clock, log } = deps;

  /**
   * Money received: pending, cancelled, expired or failed → paid, exactly once (the conditional
   * update is the guard: of two racing events only one gets the row). A payment that arrives
   * after its session was closed is still money the customer paid, so it is credited too.
   */
  async function markPaid(tx: Tx, paymentId: string): Promise<boolean> {
    const now = clock.now();
    const [paid] = await tx
      .update(payments)
      .set({ status: 'paid', paidAt: now, updatedAt: now })
      .where(and(eq(payments.id, paymentId), inArray(payments.status, OPEN_OR_CLOSED)))
      .returning();
    if (!paid) return false;
    await creditDeposit(tx, paid, describeDeposit(paid), now);
    if (paid.purpose === 'order') await deps.orders?.paymentSucceeded(tx, paid);
    else {
      await deps.receipts?.topUpCredited(tx, paid);
      await deps.events?.topUpSucceeded(tx, {
        accountId: paid.accountId,
        amountCents: paid.usdCents,
        paymentId: paid.id,
      });
    }
    return true;
  }

  /**
   * Money paid for an account deleted since the session opened (issue 28 H8): nobody could reach
   * it in the wallet, so it is not credited; the payment becomes `refund_pending` and a job hands
   * it back to the payer through the provider (or parks it for an operator). The account row is
   * read locked, so a deletion committing at the same moment is either seen here or waits and
   * then finds the credited balance (409 WALLET_NOT_EMPTY).
   */
  async function payerDeleted(tx: Tx, accountId: string): Promise<boolean> {
    const [row] = await tx
      .select({ status: accounts.status })
      .from(accounts)
      .where(eq(accounts.id, accountId))
      .for('no key update');
    return row?.status === 'DELETED';
  }

  async function queueRefund(tx: Tx, paymentId: string, chargeRef: string | null): Promise<boolean> {
    const now = clock.now();
    const [held] = await tx
      .update(payments)
      .set({ status: 'refund_pending', paidAt: now, updatedAt: now })
      .where(and(eq(payments.id, paymentId), inArray(payments.status, OPEN_OR_CLOSED)))
      .returning();
    if (!held) return false;
    await deps.queue!.enqueue(tx, {
      kind: PAYMENT_REFUND_JOB,
      payload: { paymentId, chargeRef },
      maxAttempts: 8,
      dedupeKey: `refund:${paymentId}`,
    });
    // Its order (AWAITING_PAYMENT) is cancelled: nobody is left to receive the eSIM.
    if (held.purpose === 'order') await deps.orders?.paymentClosed(tx, held);
    log.warn({ paymentId, accountId: held.accountId }, 'payment for a deleted account: refund queued');
    return true;
  }

  /** Only a pending payment closes: a late `expired` never undoes `paid`. */
  async function markClosed(tx: Tx, paymentId: string, status: ClosedStatus): Promise<boolean> {
    const [closed] = await tx
      .update(payments)
      .set({ status, updatedAt: clock.now() })
      .where(and(eq(payments.id, paymentId), eq(payments.status, 'pending')))
      .returning();
    if (!closed) return false;
    if (closed.purpose === 'order') await deps.orders?.paymentClosed(tx, closed);
    return true;
  }

  async function findPayment(tx: Tx, provider: string, method: PaymentMethod, event: PaymentWebhookEvent) {
    const key = event.paymentId
      ? eq(payments.id, event.paymentId)
      : event.providerRef
        ? eq(payments.providerRef, event.providerRef)
        : undefined;
    if (!key) return undefined;
    const [payment] = await tx
      .select()
      .from(payments)
      .where(and(key, eq(payments.provider, provider), eq(payments.method, method)));
    // An event naming our payment id but another session is not about this payment.
    if (payment?.providerRef && event.providerRef && payment.providerRef !== event.providerRef)
      return undefined;
    return payment;
  }

  async function decide(tx: Tx, payment: PaymentRecord | undefined, event: PaymentWebhookEvent) {
    if (!payment) return 'unknown_payment' as const;
    if (event.status === null) return 'recorded' as const;
    if (event.status !== 'paid') {
      return (await markClosed(tx, payment.id, event.status))
        ? ('closed' as const)
        : ('already_final' as const);
    }
    if (
      event.amountMinor !== payment.amountMinor ||
      (event.currency ?? payment.currency) !== payment.currency
    ) {
      return 'amount_mismatch' as const;
    }
    if (deps.queue && (await payerDeleted(tx, payment.accountId))) {
      return (await queueRefund(tx, payment.id, event.chargeRef ?? null))
        ? ('refund_queued' as const)
        : ('already_final' as const);
    }
    return (await markPaid(tx, payment.id)) ? ('credited' as const) : ('already_final' as const);
  }

  return {
    markPaid,
    markClosed,

    /**
     * Applies one verified provider event in one transaction. Claiming (provider, event id)
     * first with ON CONFLICT DO NOTHING makes every redelivery a no-op, also when deliveries race.
     */
    async applyEvent(
      provider: string,
      method: PaymentMethod,
      event: PaymentWebhookEvent,
    ): Promise<EventOutcome> {
      const outcome = await db.transaction(async (tx) => {
        const rowId = newId('pev');
        const [claimed] = await tx
          .insert(paymentEvents)
          .values({
            id: rowId,
            provider,
            eventId: event.eventId,
            type: event.type,
            payload: event.payload,
            receivedAt: clock.now(),
          })
          .onConflictDoNothing({ target: [paymentEvents.provider, paymentEvents.eventId] })
          .returning({ id: paymentEvents.id });
        if (!claimed) return 'duplicate' as const;
        const payment = await findPayment(tx, provider, method, event);
        const result = await decide(tx, payment, event);
        await tx
          .update(paymentEvents)
          .set({ paymentId: payment?.id ?? null, outcome: result })
          .where(eq(paymentEvents.id, rowId));
        return result;
      });
      if (outcome === 'amount_mismatch' || outcome === 'unknown_payment') {
        log.warn(
          {
            provider,
            eventId: event.eventId,
            paymentId: event.paymentId,
            amountMinor: event.amountMinor,
            outcome,
          },
          'payment event refused',
        );
      }
      return outcome;
    },
  };
}

export type Settlement = ReturnType<typeof createSettlement>;
