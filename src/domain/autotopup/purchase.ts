import { and, eq } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../../db/client.js';
import { autoTopUpAttempts, autoTopUps, plans } from '../../db/schema/index.js';
import type { JobHandler } from '../../jobs/worker.js';
import type { Clock } from '../../lib/clock.js';
import type { Logger } from '../../lib/logger.js';
import type { SellablePlan } from '../catalog/catalog.service.js';
import { isAppError } from '../errors.js';
import type { IdempotencyStore } from '../idempotency/store.js';
import type { OrderService } from '../orders/orders.service.js';
import type { AttemptRow, AutoTopUpAnnouncer, FailureReason } from './announce.js';
import { topUpPlanProblem } from './settings.js';

/** The idempotency scope of auto top-up orders: the key is `<esimId>:<crossing>`. */
export const AUTO_TOP_UP_SCOPE = 'auto-topup';

/** The order is placed but not settled yet (its own fulfillment job is still retrying). */
class OrderStillProcessing extends Error {
  constructor(orderId: string) {
    super(`top-up order ${orderId} is still PROCESSING`);
  }
}

type Placed = { orderId: string } | { failed: FailureReason };

/**
 * The `esim.auto-topup` job: buys the crossing's top-up plan from the wallet through the order
 * path every top-up takes (orders.placeOrder: price, ledger posting, fulfillment, receipt), then
 * settles the attempt when the order has settled.
 *
 * Never twice: the order is placed under an Idempotency-Key claim (`auto-topup`,
 * `<esimId>:<crossing>`) that the order's own statement binds to the order. A job run that dies
 * after the order committed is retried by the queue; its retry takes the stale claim over and
 * recovers that order instead of placing another (src/domain/idempotency/store.ts). A retry while
 * a run still holds the claim fails fast (IDEMPOTENCY_KEY_IN_USE) and is retried later.
 */
export function createAutoTopUpPurchase(deps: {
  db: Db;
  clock: Clock;
  log: Logger;
  orders: Pick<OrderService, 'placeOrder' | 'repository'>;
  findActivePlan: (db: DbOrTx, planId: string) => Promise<SellablePlan | null>;
  idempotency: IdempotencyStore;
  announce: AutoTopUpAnnouncer;
  /** The trigger, run again once a top-up settled: its data re-arms it (the order stored it without). */
  rearm: (tx: Tx, esimId: string) => Promise<void>;
}) {
  const { db, clock, orders } = deps;

  /** Settles a pending attempt and tells its outcome, once (conditional on `pending`). */
  async function settle(
    attempt: AttemptRow,
    outcome: {
      status: 'succeeded' | 'failed';
      reason?: FailureReason;
      orderId?: string;
      amountCents?: number;
    },
  ): Promise<void> {
    await db.transaction(async (tx) => {
      const [settled] = await tx
        .update(autoTopUpAttempts)
        .set({
          status: outcome.status,
          reason: outcome.reason ?? null,
          ...(outcome.orderId ? { orderId: outcome.orderId } : {}),
          ...(outcome.amountCents !== undefined ? { amountCents: outcome.amountCents } : {}),
          updatedAt: clock.now(),
        })
        .where(and(eq(autoTopUpAttempts.id, attempt.id), eq(autoTopUpAttempts.status, 'pending')))
        .returning();
      if (!settled) return;
      deps.log.info(
        {
          esimId: settled.esimId,
          crossing: settled.crossing,
          status: settled.status,
          reason: settled.reason,
        },
        'auto top-up settled',
      );
      await deps.announce(tx, settled);
      if (settled.status === 'succeeded') await deps.rearm(tx, settled.esimId);
    });
  }

  /** Whether the eSIM can still take the plan; the failure reason when not. */
  async function eligible(attempt: AttemptRow): Promise<FailureReason | null> {
    const esim = await orders.repository.esimById(attempt.esimId);
    if (!esim || esim.status === 'EXPIRED' || esim.status === 'CANCELLED') return 'plan_unavailable';
    // The order path tops up the account's newest eSIM with the ICCID: it must be this one.
    const target = await orders.repository.ownEsimByIccid(esim.accountId, esim.iccid, esim.livemode);
    if (target?.id !== esim.id) return 'plan_unavailable';
    const [base] = await db.select().from(plans).where(eq(plans.id, esim.planId));
    const problem = topUpPlanProblem(await deps.findActivePlan(db, attempt.planId), base);
    return problem ? 'plan_unavailable' : null;
  }

  /** Places the order once per crossing; the order, or why nothing was bought. */
  async function place(attempt: AttemptRow): Promise<Placed> {
    const ref = {
      accountId: attempt.accountId,
      scope: AUTO_TOP_UP_SCOPE,
      key: `${attempt.esimId}:${attempt.crossing}`,
    };
    const acquired = await deps.idempotency.acquire(
      ref,
      { esimId: attempt.esimId, crossing: attempt.crossing },
      { waitMs: 0 },
    );
    if (acquired.kind === 'replay') return acquired.response.body as Placed;
    const claim = acquired.claim;
    const finish = async (placed: Placed) => {
      await deps.idempotency.complete(claim, { statusCode: 200, body: placed });
      return placed;
    };
    if (acquired.kind === 'recover') return finish({ orderId: String(acquired.bound.orderId) });
    const why = await eligible(attempt);
    if (why) return finish({ failed: why });
    const esim = await orders.repository.esimById(attempt.esimId);
    // The top-up goes through the channel the eSIM was bought through (receipts, events).
    const bought = await orders.repository.findOrder(esim!.orderId);
    try {
      const placed = await orders.placeOrder({
        accountId: attempt.accountId,
        channel: bought!.channel,
        planId: attempt.planId,
        quantity: 1,
        topUpIccid: esim!.iccid,
        paymentMethod: 'wallet',
        livemode: attempt.livemode,
        idempotency: { claim },
      });
      return finish({ orderId: placed.order.id });
    } catch (err) {
      if (isAppError(err)) {
        if (err.code === 'FULFILLMENT_FAILED') {
          const orderId = (err.details as { orderId?: string } | undefined)?.orderId;
          if (orderId) return finish({ orderId });
        }
        if (err.code === 'INSUFFICIENT_BALANCE') return finish({ failed: 'insufficient_balance' });
        if (err.code === 'PLAN_NOT_FOUND' || err.code === 'VALIDATION_ERROR')
          return finish({ failed: 'plan_unavailable' });
      }
      // Anything else (a conflict, the database): nothing bound stays claimable, the job retries.
      await deps.idempotency.release(claim);
      throw err;
    }
  }

  const handler: JobHandler = {
    async run(job) {
      const esimId = String(job.payload.esimId);
      const crossing = Number(job.payload.crossing);
      const [attempt] = await db
        .select()
        .from(autoTopUpAttempts)
        .where(and(eq(autoTopUpAttempts.esimId, esimId), eq(autoTopUpAttempts.crossing, crossing)));
      // Settled already (a replayed job, or the crossing was refused): nothing to do.
      if (!attempt || attempt.status !== 'pending') return;
      let orderId = attempt.orderId;
      if (!orderId) {
        // Turned off between the crossing and this run: nothing is bought, and nothing to tell.
        const [settings] = await db.select().from(autoTopUps).where(eq(autoTopUps.esimId, esimId));
        if (!settings?.enabled) {
          await db
            .update(autoTopUpAttempts)
            .set({ status: 'failed', updatedAt: clock.now() })
            .where(and(eq(autoTopUpAttempts.id, attempt.id), eq(autoTopUpAttempts.status, 'pending')));
          return;
        }
        const placed = await place(attempt);
        if ('failed' in placed) return settle(attempt, { status: 'failed', reason: placed.failed });
        orderId = placed.orderId;
        await db
          .update(autoTopUpAttempts)
          .set({ orderId, updatedAt: clock.now() })
          .where(eq(autoTopUpAttempts.id, attempt.id));
      }
      const order = await orders.repository.findOrder(orderId);
      if (order?.status === 'COMPLETED')
        return settle(attempt, { status: 'succeeded', orderId, amountCents: order.amountCents });
      if (order?.status === 'REFUNDED')
        return settle(attempt, { status: 'failed', reason: 'provider_error', orderId });
      // PROCESSING: the order's own job completes or refunds it; look again after the backoff.
      throw new OrderStillProcessing(orderId);
    },
    backoffMs: (attempts) => Math.min(30_000 * 2 ** (attempts - 1), 5 * 60_000),
  };

  return { handler, settle };
}
