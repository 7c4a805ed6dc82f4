import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.js';
import { payments } from '../../db/schema/index.js';
import type { JobHandlers } from '../../jobs/worker.js';
import type { Clock } from '../../lib/clock.js';
import type { Logger } from '../../lib/logger.js';
import type { PaymentProviders } from '../../providers/payments/registry.js';
import type { AuditService } from '../audit/audit.service.js';
import { AppError } from '../errors.js';
import { PAYMENT_REFUND_JOB, type PaymentRecord } from './settlement.js';

/** Payments an operator must look at: refunds the provider could not make (issue 28 H8). */
export const REFUND_TASK_STATUSES = ['refund_manual', 'refund_pending'] as const;

function paymentIdOf(payload: Record<string, unknown>): string {
  if (typeof payload.paymentId !== 'string') throw new Error('job payload has no paymentId');
  return payload.paymentId;
}

/**
 * Money paid for an account deleted since its session opened goes back to the payer, never to
 * the dead wallet: the `payment.refund` job (queued by settlement.ts in the transaction that
 * received the money) asks the provider for a refund, outside any transaction, idempotently per
 * payment. A provider that cannot refund through its API (Cryptomus), a provider switched since,
 * or a refund still failing after its attempts parks the payment as `refund_manual`: an operator
 * task, listed by `GET /api/admin/v1/payments/refunds`.
 */
export function createPaymentRefunds(deps: {
  db: Db;
  clock: Clock;
  log: Logger;
  providers: PaymentProviders;
  /** Records an operator's closing of a manual refund (optional for narrow tests). */
  audit?: AuditService;
}) {
  const { db, clock, log } = deps;

  async function park(tx: DbOrTx, paymentId: string, reason: string): Promise<void> {
    const [parked] = await tx
      .update(payments)
      .set({ status: 'refund_manual', updatedAt: clock.now() })
      .where(and(eq(payments.id, paymentId), eq(payments.status, 'refund_pending')))
      .returning({ id: payments.id });
    if (parked) log.warn({ paymentId, reason }, 'refund of a deleted account’s payment needs an operator');
  }

  async function refundOne(paymentId: string, chargeRef: string | null): Promise<void> {
    const [payment] = await db.select().from(payments).where(eq(payments.id, paymentId));
    if (!payment || payment.status !== 'refund_pending') return;
    const provider = deps.providers[payment.method];
    if (provider.name !== payment.provider || !provider.refund || !payment.providerRef) {
      await park(db, paymentId, `${payment.provider} cannot refund through its API`);
      return;
    }
    const { refundId } = await provider.refund({
      paymentId,
      providerRef: payment.providerRef,
      chargeRef,
      amountMinor: payment.amountMinor,
      currency: payment.currency,
    });
    await db
      .update(payments)
      .set({
        status: 'refunded',
        providerData: { ...payment.providerData, refundId },
        updatedAt: clock.now(),
      })
      .where(and(eq(payments.id, paymentId), eq(payments.status, 'refund_pending')));
    log.info({ paymentId, refundId }, 'payment for a deleted account refunded to the payer');
  }

  return {
    registerJobs(handlers: JobHandlers): void {
      handlers[PAYMENT_REFUND_JOB] = {
        run: (job) =>
          refundOne(
            paymentIdOf(job.payload),
            typeof job.payload.chargeRef === 'string' ? job.payload.chargeRef : null,
          ),
        // Out of attempts: parked for an operator (listed there), so not a dead letter as well.
        async onExhausted(job, error, settle) {
          await db.transaction(async (tx) => {
            await park(tx, paymentIdOf(job.payload), error.message);
            await settle(tx);
          });
        },
        backoffMs: (attempts) => Math.min(60_000 * 2 ** (attempts - 1), 6 * 3600_000),
      };
    },

    /** The operator's refund tasks, newest first. */
    async listTasks(limit = 100): Promise<PaymentRecord[]> {
      return db
        .select()
        .from(payments)
        .where(inArray(payments.status, REFUND_TASK_STATUSES))
        .orderBy(desc(payments.updatedAt), desc(payments.id))
        .limit(limit);
    },

    /**
     * An operator paid a `refund_manual` payment back by hand (in the provider's dashboard, by
     * bank transfer…): the payment becomes `refunded`, with the operator's note kept on it, and an
     * audit row says who closed it, in one transaction. 404 PAYMENT_NOT_FOUND for an unknown payment;
     * 409 INVALID_STATE for any other status (a `refund_pending` one is still the job's).
     */
    async closeManual(paymentId: string, note: string, requestId?: string): Promise<PaymentRecord> {
      return db.transaction(async (tx) => {
        const [before] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for('update');
        if (!before) throw new AppError('PAYMENT_NOT_FOUND', 'Payment not found');
        if (before.status !== 'refund_manual')
          throw new AppError(
            'INVALID_STATE',
            `Only a refund_manual payment can be closed; this one is ${before.status}`,
          );
        const now = clock.now();
        const [closed] = await tx
          .update(payments)
          .set({
            status: 'refunded',
            providerData: { ...before.providerData, manualRefund: { note, closedAt: now.toISOString() } },
            updatedAt: now,
          })
          .where(eq(payments.id, paymentId))
          .returning();
        await deps.audit?.record(tx, {
          action: 'payment.refund.close',
          targetType: 'payment',
          targetId: paymentId,
          before: { status: before.status },
          after: { status: 'refunded', note },
          requestId,
        });
        return closed!;
      });
    },
  };
}

export type PaymentRefunds = ReturnType<typeof createPaymentRefunds>;
