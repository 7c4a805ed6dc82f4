import { sql } from 'drizzle-orm';
import { isUniqueViolation } from '../../db/errors.js';
import { perShape, reusable, rowValues } from '../../db/reusable.js';
import { bind, type Step } from '../../db/steps.js';
import { enqueueStep, jobRow, settleStep } from '../../jobs/queue.js';
import { randomToken } from '../../lib/crypto.js';
import { newId } from '../../lib/ids.js';
import type { ProviderProfile } from '../../providers/esim/types.js';
import { eventSteps, eventValues } from '../events/outbox.js';
import { newInstallToken } from './esim-links.js';
import { byCreationThenId, orderSteps, type DoneCte, type NewEsimRow } from './orders.repository.js';
import { fulfillJobKey, type EsimRow, type OrderDeps, type OrderRow } from './ports.js';

export type AttemptSource = 'request' | 'job' | 'admin';

/**
 * The completion statement (src/db/steps.ts), per shape: `esimCount` new eSIM rows, or 0 for a
 * top-up (its eSIM updated); with or without the order.completed event and the receipt job. Only
 * while the order is PROCESSING (`done`): the order completed and the attempt counted, the
 * fulfillment job settled (it was queued as a safety net in case this process died), the eSIMs,
 * the event with its deliveries and the receipt job. Nothing else is written when `done` is empty.
 */
function buildCompletion(esimCount: number, withEvent: boolean, withReceipt: boolean) {
  const done = orderSteps.done;
  const attempt = orderSteps.attempt(done);
  const settled = settleStep('settled', done);
  const stored = esimCount === 0 ? orderSteps.toppedUp(done) : orderSteps.storedEsims(esimCount, done);
  const event = withEvent ? eventSteps('event', done) : undefined;
  const receipt = withReceipt ? enqueueStep('receipt_job', done) : undefined;
  const steps: Array<Step<object>> = [
    done,
    attempt,
    settled,
    stored,
    ...(event ? [event.event, event.delivery, event.deliveryJob] : []),
    ...(receipt ? [receipt] : []),
  ];
  const statement = reusable((db) => {
    const done$ = orderSteps.done.cte(db) as DoneCte;
    // Typed as `done` only for Drizzle's builder; the rows are read as { done, stored } below.
    const stored$ = stored.cte(db) as typeof done$;
    return db
      .with(...steps.map((s) => s.cte(db) as typeof done$))
      .select()
      .from(done$)
      .leftJoin(stored$, sql`true`);
  });
  return { attempt, settled, stored, event, receipt, statement };
}
export const completionFor = perShape(buildCompletion);

export function esimRowFor(order: OrderRow, p: ProviderProfile, now: Date): NewEsimRow {
  return {
    id: newId('esim'),
    orderId: order.id,
    accountId: order.accountId,
    planId: order.planId,
    iccid: p.iccid,
    providerRef: p.providerRef,
    smdpAddress: p.smdpAddress,
    matchingId: p.matchingId,
    activationCode: p.activationCode,
    qrToken: randomToken(24),
    installToken: newInstallToken(),
    status: p.status,
    dataUsageMb: p.dataUsageMb,
    totalVolumeMb: p.totalVolumeMb,
    usageCheckedAt: now,
    activatedAt: p.activatedAt,
    expiresAt: p.expiresAt,
    createdAt: now,
    updatedAt: now,
    livemode: order.livemode,
  };
}

/** A profile the provider handed out that is already stored for another order. */
export class RepeatedProfileError extends Error {
  constructor() {
    super('the provider returned a profile already stored for another order');
  }
}

/**
 * Stores a fulfillment attempt's result: one statement, the only write path of a completion.
 * Returns the completed order with its eSIMs, or null when a concurrent attempt or a refund won.
 * `target`: a top-up's eSIM as it was before (the event presents it as it is after).
 */
export function createOrderCompletion(deps: OrderDeps) {
  const { db, clock } = deps;

  return async function complete(
    order: OrderRow,
    profiles: ProviderProfile[],
    source: AttemptSource,
    target?: EsimRow,
  ): Promise<{ order: OrderRow; esims: EsimRow[] } | null> {
    const now = clock.now();
    const topUp = Boolean(order.topUpEsimId && target);
    // The order and eSIMs as this statement writes them, for the event and the receipt (checked by
    // tests against what is read back).
    const done: OrderRow = {
      ...order,
      status: 'COMPLETED',
      completedAt: now,
      updatedAt: now,
      lastError: null,
      fulfillmentAttempts: order.fulfillmentAttempts + 1,
    };
    const rows = topUp ? [] : profiles.map((p) => esimRowFor(order, p, now));
    const profile = profiles[0]!;
    const toppedUp = topUp
      ? {
          esimId: target!.id,
          status: profile.status,
          totalVolumeMb: profile.totalVolumeMb,
          dataUsageMb: profile.dataUsageMb,
          expiresAt: profile.expiresAt,
          now,
        }
      : undefined;
    const written: EsimRow[] = toppedUp
      ? [{ ...target!, ...toppedUp, id: target!.id, usageCheckedAt: now, updatedAt: now }]
      : rows
          .map((r) => ({
            ...r,
            usageThresholdNotified: 0,
            usageRearms: 0,
            usageUpdatedAt: null,
            installState: null,
            installStateNotified: null,
            expiryNotified: null,
          }))
          .sort(byCreationThenId);
    const event = deps.events?.orderCompletedEvent(done, written);
    const receipt = deps.receipts?.orderCompletedJob(done);
    const s = completionFor(rows.length, Boolean(event), Boolean(receipt));
    try {
      const result = await s.statement(db, {
        ...bind(orderSteps.done, { orderId: order.id, now }),
        ...bind(s.attempt, { attemptId: newId('att'), source }),
        ...bind(s.settled, { dedupeKey: fulfillJobKey(order.id), now }),
        ...(toppedUp ? bind(s.stored, toppedUp) : bind(s.stored, rowValues(rows))),
        ...(s.event && event && bind(s.event.event, eventValues(event, now))),
        ...(s.receipt && receipt && bind(s.receipt, jobRow(receipt, now))),
      });
      if (result.length === 0) return null;
      const first = result[0] as unknown as { done: OrderRow };
      const stored = (result as unknown as Array<{ stored: EsimRow | null }>).flatMap((r) =>
        r.stored ? [r.stored] : [],
      );
      return { order: first.done, esims: stored.sort(byCreationThenId) };
    } catch (err) {
      // A provider_ref already stored: the provider repeated another order's profile. Nothing was
      // written; the attempt fails and is retried (then refunded), never completed without it.
      if (isUniqueViolation(err)) throw new RepeatedProfileError();
      throw err;
    }
  };
}
