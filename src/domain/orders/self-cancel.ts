import { settlePendingJob } from '../../jobs/queue.js';
import type { JobHandlers } from '../../jobs/worker.js';
import { EsimProviderError, type ProviderProfile } from '../../providers/esim/types.js';
import type { AuditService } from '../audit/audit.service.js';
import { AppError, type ErrorCode } from '../errors.js';
import { refundPurchase } from '../wallet/postings.js';
import { createCancellationsRepository } from './cancellations.repository.js';
import type { OrderChannel } from './order-numbers.js';
import type { OrdersRepository } from './orders.repository.js';
import {
  cancelJobKey,
  esimProviderFor,
  ORDER_JOBS,
  type EsimRow,
  type OrderDeps,
  type OrderRow,
} from './ports.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The per-account limit counts the self-service refunds of the last 30 days. */
const LIMIT_PERIOD_MS = 30 * DAY_MS;
/**
 * How long after the claim the safety-net job runs: the request normally finishes the cancel
 * within seconds (and settles the job); the job finishes it when the request died or the
 * provider was down.
 */
export const CANCEL_JOB_DELAY_MS = 2 * 60 * 1000;

export interface SelfCancelSettings {
  windowDays: number;
  per30Days: number;
  supportEmail: string;
  publicBaseUrl: string;
}

export interface CancelRequest {
  accountId: string;
  orderId: string;
  livemode: boolean;
  /** The Partner API cancels its own channel's orders only (as it reads them). */
  channel?: OrderChannel;
  requestId?: string;
}

export type CancelledOrder = { order: OrderRow; esims: EsimRow[] };

const REASONS: Partial<Record<ErrorCode, string>> = {
  ORDER_NOT_CANCELLABLE:
    'Only a completed eSIM order (not a top-up) whose eSIMs are unused can be cancelled; this one cannot.',
  ESIM_INSTALLED: 'An eSIM of this order was installed on a device, so the order cannot be cancelled.',
  ESIM_USED: 'An eSIM of this order has used data, so the order cannot be cancelled.',
  REFUND_WINDOW_PASSED: 'The order is older than the self-service refund window.',
  SELF_REFUND_LIMIT: 'The account reached its self-service refunds for the last 30 days.',
};

/** Why a profile (as the provider, or our last reading, sees it) stops the cancel; null: it does not. */
export function cancelBlocker(
  profile: Pick<ProviderProfile, 'status' | 'dataUsageMb' | 'everInstalled'>,
): ErrorCode | null {
  if (profile.status === 'CANCELLED' || profile.status === 'EXPIRED') return 'ORDER_NOT_CANCELLABLE';
  if (profile.dataUsageMb > 0 || profile.status === 'DEPLETED') return 'ESIM_USED';
  if (profile.everInstalled ?? profile.status !== 'PENDING') return 'ESIM_INSTALLED';
  return null;
}

/**
 * Self-service cancel and refund (issue 31 L4; docs/orders.md "Cancel and refund"). Never holds a
 * transaction across a provider call:
 * 1. read the order (own, COMPLETED, not a top-up, within REFUND_WINDOW_DAYS, under the limit);
 * 2. ask the provider for each eSIM: never installed, no data used;
 * 3. claim: an `order_cancellations` row `pending` (one transaction with the `order.cancel` job,
 *    dedupe `cancel:<orderId>`), conditional, so concurrent cancels and replays cannot both go on;
 * 4. cancel each profile at the provider (a repeat is harmless);
 * 5. one transaction: claim `done`, order REFUNDED, eSIMs CANCELLED, the refund posting of the
 *    whole amount to the wallet, order.refunded, the audit row, the job settled.
 * A crash between 3 and 5 leaves the claim pending and the job due: it repeats 4 and 5.
 */
export function createSelfCancel(
  deps: OrderDeps & { audit: AuditService; repository: OrdersRepository; selfCancel: SelfCancelSettings },
) {
  const { db, clock, repository, audit } = deps;
  const settings = deps.selfCancel;
  const cancellations = createCancellationsRepository(db);

  function refusal(code: ErrorCode): AppError {
    const supportUrl = `${settings.publicBaseUrl}/support`;
    return new AppError(
      code,
      `${REASONS[code] ?? code} Ask support at ${settings.supportEmail} or ${supportUrl}.`,
      { supportEmail: settings.supportEmail, supportUrl },
    );
  }

  const windowPassed = (order: OrderRow) =>
    clock.now().getTime() - order.createdAt.getTime() > settings.windowDays * DAY_MS;
  const limitSince = () => new Date(clock.now().getTime() - LIMIT_PERIOD_MS);

  /** The checks that need no provider, in the order the customer can act on them. */
  async function localBlocker(order: OrderRow, esims: EsimRow[]): Promise<ErrorCode | null> {
    if (order.status !== 'COMPLETED' || order.topUpEsimId || esims.length === 0)
      return 'ORDER_NOT_CANCELLABLE';
    const claimed = await cancellations.find(order.id);
    if (claimed && claimed.status !== 'released') return 'ORDER_NOT_CANCELLABLE';
    if (windowPassed(order)) return 'REFUND_WINDOW_PASSED';
    for (const esim of esims) {
      const blocker = cancelBlocker({ status: esim.status, dataUsageMb: esim.dataUsageMb });
      if (blocker) return blocker;
    }
    const recent = await cancellations.countRecent(order.accountId, order.livemode, limitSince());
    return recent >= settings.per30Days ? 'SELF_REFUND_LIMIT' : null;
  }

  /** For the order view: could the owner cancel it now, as far as we know without the provider? */
  async function cancellable(order: OrderRow, esims: EsimRow[]): Promise<boolean> {
    return (await localBlocker(order, esims)) === null;
  }

  /** Step 2: each profile as the provider sees it now. */
  async function askProvider(order: OrderRow, esims: EsimRow[]): Promise<void> {
    const provider = esimProviderFor(deps, order.livemode);
    for (const esim of esims) {
      let profile: ProviderProfile | undefined;
      try {
        [profile] = await provider.queryProfiles({ providerRef: esim.providerRef });
      } catch (err) {
        deps.log.warn({ orderId: order.id, err: (err as Error).message }, 'cancel: provider query failed');
        throw new AppError('PROVIDER_ERROR', 'The eSIM provider could not be asked; try again shortly');
      }
      const blocker = profile ? cancelBlocker(profile) : 'ORDER_NOT_CANCELLABLE';
      if (blocker) throw refusal(blocker);
    }
  }

  /** Step 4 for one profile; an already cancelled profile counts as cancelled. */
  async function cancelAtProvider(order: OrderRow, esim: EsimRow): Promise<void> {
    const provider = esimProviderFor(deps, order.livemode);
    try {
      await provider.cancelProfile(esim.providerRef);
    } catch (err) {
      if (!(err instanceof EsimProviderError) || err.kind !== 'not_cancellable') throw err;
      const [profile] = await provider.queryProfiles({ providerRef: esim.providerRef });
      if (profile?.status !== 'CANCELLED') throw err;
    }
  }

  /** Step 5: everything in one transaction; null when another finisher won. */
  async function finish(order: OrderRow, requestId?: string): Promise<CancelledOrder | null> {
    return db.transaction(async (tx) => {
      const now = clock.now();
      const finished = await cancellations.finish(tx, order, now);
      if (!finished) return null;
      // The whole amount back to the wallet of the order's mode, however it was paid: a card or
      // crypto payment was credited to the wallet and charged from it when the order was placed.
      await refundPurchase(tx, finished.order, now);
      await deps.events?.orderRefunded(tx, finished.order, finished.esims);
      await audit.record(tx, {
        action: 'order.self_refund',
        targetType: 'order',
        targetId: order.id,
        before: { status: 'COMPLETED' },
        after: { status: 'REFUNDED', amountCents: order.amountCents, esims: finished.esims.length },
        requestId,
      });
      await settlePendingJob(tx, cancelJobKey(order.id), now);
      return finished;
    });
  }

  /**
   * Steps 4 and 5 for a claimed (pending) cancellation, from the request or the job. A provider
   * refusal (the eSIM was installed meanwhile) releases the claim: nothing was refunded, the order
   * stays COMPLETED. Any other provider failure leaves the claim to the job (CANCELLATION_PENDING).
   */
  async function drive(order: OrderRow, requestId?: string): Promise<CancelledOrder> {
    const esims = await repository.esimsOfOrder(order);
    for (const esim of esims) {
      try {
        await cancelAtProvider(order, esim);
      } catch (err) {
        const message = (err as Error).message;
        if (err instanceof EsimProviderError && !err.retryable) {
          // Released nothing: a concurrent finisher completed the cancel meanwhile.
          if (!(await cancellations.release(order.id, message, clock.now()))) return settled(order.id);
          await settlePendingJob(db, cancelJobKey(order.id), clock.now());
          deps.log.warn(
            { orderId: order.id, err: message },
            'cancel refused by the provider; claim released',
          );
          const [profile] = await esimProviderFor(deps, order.livemode)
            .queryProfiles({ providerRef: esim.providerRef })
            .catch(() => []);
          throw refusal((profile && cancelBlocker(profile)) ?? 'ESIM_INSTALLED');
        }
        deps.log.warn({ orderId: order.id, err: message }, 'cancel: provider failed; the job finishes it');
        throw new AppError(
          'CANCELLATION_PENDING',
          'The eSIM provider did not confirm the cancellation yet; it is retried automatically and the refund reaches the wallet when it does.',
          { orderId: order.id },
        );
      }
    }
    const finished = await finish(order, requestId);
    if (finished) return finished;
    return settled(order.id);
  }

  /** What a finished (or concurrently finished) cancellation left. */
  async function settled(orderId: string): Promise<CancelledOrder> {
    const order = (await repository.findOrder(orderId))!;
    if (order.status !== 'REFUNDED') throw refusal('ORDER_NOT_CANCELLABLE');
    return { order, esims: await repository.esimsOfOrder(order) };
  }

  /** The answer of a cancel this order already has: the refunded order, or the pending one driven on. */
  async function followClaim(order: OrderRow, requestId?: string): Promise<CancelledOrder | null> {
    const existing = await cancellations.find(order.id);
    if (existing?.status === 'done') return settled(order.id);
    if (existing?.status === 'pending') return drive(order, requestId);
    return null;
  }

  async function cancel(request: CancelRequest): Promise<CancelledOrder> {
    const order = await repository.findOwnOrder(
      request.accountId,
      request.orderId,
      request.livemode,
      request.channel,
    );
    if (!order) throw new AppError('ORDER_NOT_FOUND', 'Order not found');
    // A repeat of a finished cancel answers the refunded order; one left pending is driven on.
    const repeat = await followClaim(order, request.requestId);
    if (repeat) return repeat;
    const esims = await repository.esimsOfOrder(order);
    try {
      const blocker = await localBlocker(order, esims);
      if (blocker) throw refusal(blocker);
      await askProvider(order, esims);
    } catch (err) {
      // A concurrent cancel of the same order claimed it (or finished it) meanwhile: what it
      // refuses here (order no longer COMPLETED, profile already cancelled) is that cancel's doing,
      // so this request answers as its repeat.
      const concurrent = await followClaim(order, request.requestId);
      if (concurrent) return concurrent;
      throw err;
    }
    const claim = await db.transaction(async (tx) => {
      const now = clock.now();
      const outcome = await cancellations.claim(tx, order, {
        now,
        since: limitSince(),
        limit: settings.per30Days,
      });
      if (outcome.kind === 'claimed')
        await deps.queue.enqueue(tx, {
          kind: ORDER_JOBS.cancel,
          payload: { orderId: order.id },
          dedupeKey: cancelJobKey(order.id),
          runAt: new Date(now.getTime() + CANCEL_JOB_DELAY_MS),
          // Backoff from 5 s doubling: about 85 minutes of provider outage before a dead letter.
          maxAttempts: 10,
        });
      return outcome;
    });
    if (claim.kind === 'limit') throw refusal('SELF_REFUND_LIMIT');
    if (claim.kind === 'state') throw refusal('ORDER_NOT_CANCELLABLE');
    if (claim.kind === 'taken' && claim.cancellation.status === 'done') return settled(order.id);
    return drive(order, request.requestId);
  }

  /** The `order.cancel` job: finishes a claim still pending; anything else is already settled. */
  async function resume(orderId: string): Promise<void> {
    const existing = await cancellations.find(orderId);
    if (existing?.status !== 'pending') return;
    const order = (await repository.findOrder(orderId))!;
    try {
      await drive(order);
    } catch (err) {
      // A refusal released the claim: done. CANCELLATION_PENDING: the queue retries with backoff.
      if (err instanceof AppError && err.code !== 'CANCELLATION_PENDING') return;
      throw err;
    }
  }

  return { cancel, cancellable, resume, cancellations };
}

export type SelfCancel = ReturnType<typeof createSelfCancel>;

/** The `order.cancel` job (dedupe `cancel:<orderId>`): the safety net of a claimed cancellation. */
export function registerSelfCancelJob(handlers: JobHandlers, selfCancel: SelfCancel): void {
  handlers[ORDER_JOBS.cancel] = {
    async run(job) {
      const orderId = job.payload.orderId;
      if (typeof orderId !== 'string') throw new Error('job payload has no orderId');
      await selfCancel.resume(orderId);
    },
  };
}
