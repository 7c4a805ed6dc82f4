import { createHash } from 'node:crypto';
import { desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../../db/client.js';
import { esims, orders, providerNotifications } from '../../db/schema/index.js';
import type { WithSubqueryWithSelection } from 'drizzle-orm/pg-core';
import { columnList, reusable } from '../../db/reusable.js';
import { bind, step } from '../../db/steps.js';
import { enqueueStep, jobRow, type JobQueue } from '../../jobs/queue.js';
import type { JobHandlers } from '../../jobs/worker.js';
import type { Clock } from '../../lib/clock.js';
import { randomBase62 } from '../../lib/crypto.js';
import type { SandboxNotification } from '../../providers/esim/sandbox/profiles.js';
import type { EsimNotice, EsimNotification, NotifiedEsim } from '../../providers/esim/types.js';
import type { EsimRow } from '../orders/ports.js';
import type { EsimChanges } from './esim-changes.js';

export type NotificationOutcome =
  | 'duplicate'
  | 'health_check'
  | 'fulfillment_queued'
  | 'usage_updated'
  /** A usage reading measured before the one already stored: not applied. */
  | 'stale'
  | 'status_updated'
  | 'validity_updated'
  | 'unknown_order'
  | 'unknown_esim'
  | 'ignored';

export const ESIM_ORDER_READY_JOB = 'esim.order-ready';
export const SANDBOX_NOTIFY_JOB = 'sandbox.esim.notify';

/** Where eSIM statuses sit in a profile's life; a late notification never moves an eSIM back. */
const RANK: Record<EsimRow['status'], number> = {
  PENDING: 0,
  ACTIVE: 1,
  DEPLETED: 2,
  EXPIRED: 3,
  CANCELLED: 3,
};

/** Fetches an order's profiles now instead of waiting for its next scheduled retry. */
function orderReadyJob(orderId: string) {
  return {
    kind: ESIM_ORDER_READY_JOB,
    payload: { orderId },
    maxAttempts: 1,
    dedupeKey: `order-ready:${orderId}`,
  };
}

const NOTIFICATION_COLUMNS = ['id', 'provider', 'notifyId', 'type', 'payload', 'receivedAt'] as const;

/**
 * "Order ready" (eSIM Access: ORDER_STATUS GOT_RESOURCE), the notification of every order, in one statement and one commit
 * (built once, src/db/reusable.ts): the claim by (provider, notifyId) with its outcome read from
 * the order's status, and, for an order still PROCESSING, the job that fetches its profiles now
 * (steps, src/db/steps.ts). No row back: a replay, nothing written.
 */
const claimedStep = step<Record<(typeof NOTIFICATION_COLUMNS)[number] | 'orderId', unknown>, unknown>(
  'claimed',
  (db, p, name) =>
    db.$with(name, { outcome: providerNotifications.outcome }).as(
      sql`insert into ${providerNotifications} (${columnList(providerNotifications, NOTIFICATION_COLUMNS)}, outcome)
        select ${sql.join(
          NOTIFICATION_COLUMNS.map((c) => p(c)),
          sql`, `,
        )},
          case when ${orders.id} is null then 'unknown_order'
            when ${orders.status} = 'PROCESSING' then 'fulfillment_queued' else 'ignored' end
        from (select 1) as one left join ${orders} on ${orders.id} = ${p('orderId')}
        on conflict (provider, notify_id) do nothing
        returning outcome`,
    ),
);
const readyJobStep = enqueueStep('ready_job', claimedStep, sql`outcome = 'fulfillment_queued'`);
const applyOrderReady = reusable((db) => {
  const claimed$ = claimedStep.cte(db) as WithSubqueryWithSelection<
    { outcome: typeof providerNotifications.outcome },
    'claimed'
  >;
  return db
    .with(claimed$, readyJobStep.cte(db) as typeof claimed$)
    .select()
    .from(claimed$);
});

/**
 * Applies eSIM provider notifications, as the provider's adapter read them (EsimNotification,
 * src/providers/esim/types.ts; the webhooks reach here through ./esim-webhooks.ts): each is
 * claimed once by (provider, id) — a replay changes nothing — and applied in the same
 * transaction, telling the eSIM's observers (./esim-changes.ts: partner events, alerts).
 */
export function createProviderNotifications(deps: {
  db: Db;
  clock: Clock;
  queue: JobQueue;
  esimChanges: EsimChanges;
}) {
  const { db, clock, queue, esimChanges } = deps;

  async function findEsim(tx: Tx, ref: NotifiedEsim): Promise<EsimRow | undefined> {
    if (ref.providerRef) {
      const [row] = await tx.select().from(esims).where(eq(esims.providerRef, ref.providerRef));
      if (row) return row;
    }
    if (!ref.iccid) return undefined;
    // ICCIDs can be reused upstream: the newest eSIM with it is the one in service.
    const [row] = await tx
      .select()
      .from(esims)
      .where(eq(esims.iccid, ref.iccid))
      .orderBy(desc(esims.createdAt))
      .limit(1);
    return row;
  }

  async function esimStatus(
    tx: Tx,
    notice: Extract<EsimNotice, { kind: 'status' }>,
  ): Promise<NotificationOutcome> {
    const esim = await findEsim(tx, notice.esim);
    if (!esim) return 'unknown_esim';
    const { status, installState } = notice;
    // A top-up revives a DEPLETED eSIM; anything else only moves forward.
    const revived = esim.status === 'DEPLETED' && status === 'ACTIVE';
    const moves = status !== undefined && (RANK[status] > RANK[esim.status] || revived);
    // The install state follows the device (enabled ↔ disabled), so any change is applied.
    const installs = installState !== undefined && installState !== esim.installState;
    if (!moves && !installs) return 'ignored';
    const now = clock.now();
    await tx
      .update(esims)
      .set({
        ...(moves ? { status } : {}),
        ...(moves && status === 'ACTIVE' && !esim.activatedAt ? { activatedAt: now } : {}),
        ...(installs ? { installState } : {}),
        updatedAt: now,
      })
      .where(eq(esims.id, esim.id));
    await esimChanges.changed(tx, esim.id);
    return 'status_updated';
  }

  async function dataUsage(
    tx: Tx,
    notice: Extract<EsimNotice, { kind: 'usage' }>,
  ): Promise<NotificationOutcome> {
    const esim = await findEsim(tx, notice.esim);
    if (!esim) return 'unknown_esim';
    if (!notice.usage) return 'ignored';
    // A reading measured before the one we hold arrived late (webhooks are retried, out of order):
    // storing it would undo a top-up's data and re-trigger alerts and auto top-up.
    if (notice.measuredAt && esim.usageUpdatedAt && notice.measuredAt < esim.usageUpdatedAt) return 'stale';
    const now = clock.now();
    await tx
      .update(esims)
      .set({
        dataUsageMb: notice.usage.usedMb,
        totalVolumeMb: notice.usage.totalMb,
        usageCheckedAt: now,
        // When the provider measured it; a notice without that time: when it reached us.
        usageUpdatedAt: notice.measuredAt ?? now,
        updatedAt: now,
      })
      .where(eq(esims.id, esim.id));
    await esimChanges.changed(tx, esim.id);
    return 'usage_updated';
  }

  async function validityUsage(
    tx: Tx,
    notice: Extract<EsimNotice, { kind: 'validity' }>,
  ): Promise<NotificationOutcome> {
    const esim = await findEsim(tx, notice.esim);
    if (!esim) return 'unknown_esim';
    const { expiresAt } = notice;
    if (!expiresAt) return 'ignored';
    await tx.update(esims).set({ expiresAt, updatedAt: clock.now() }).where(eq(esims.id, esim.id));
    await esimChanges.changed(tx, esim.id);
    return 'validity_updated';
  }

  async function decide(tx: Tx, notice: EsimNotice): Promise<NotificationOutcome> {
    switch (notice.kind) {
      case 'health_check':
        return 'health_check';
      case 'status':
        return esimStatus(tx, notice);
      case 'usage':
        return dataUsage(tx, notice);
      case 'validity':
        return validityUsage(tx, notice);
      case 'order_ready': // applied by applyOrderReady, never here
      case 'other':
        return 'ignored';
    }
  }

  /** Applies one notification of `provider` (its registry name) once. */
  async function apply(provider: string, n: EsimNotification): Promise<NotificationOutcome> {
    // Without an id the payload itself is the identity, so a byte-identical replay is still a no-op.
    const notifyId = n.id ?? `sha256:${createHash('sha256').update(JSON.stringify(n.payload)).digest('hex')}`;
    const { notice } = n;
    if (notice.kind === 'order_ready') {
      const now = clock.now();
      const [claimed] = await applyOrderReady(db, {
        ...bind(claimedStep, {
          id: `pnt_${randomBase62(20)}`,
          provider,
          notifyId,
          type: n.type,
          payload: n.payload,
          receivedAt: now,
          orderId: notice.orderId,
        }),
        ...bind(readyJobStep, jobRow(orderReadyJob(notice.orderId), now)),
      });
      return (claimed?.outcome as NotificationOutcome | undefined) ?? 'duplicate';
    }
    return db.transaction(async (tx) => {
      const rowId = `pnt_${randomBase62(20)}`;
      const [claimed] = await tx
        .insert(providerNotifications)
        .values({ id: rowId, provider, notifyId, type: n.type, payload: n.payload, receivedAt: clock.now() })
        .onConflictDoNothing({ target: [providerNotifications.provider, providerNotifications.notifyId] })
        .returning({ id: providerNotifications.id });
      if (!claimed) return 'duplicate' as const;
      const outcome = await decide(tx, notice);
      await tx.update(providerNotifications).set({ outcome }).where(eq(providerNotifications.id, rowId));
      return outcome;
    });
  }

  function registerJobs(handlers: JobHandlers, fulfill: (orderId: string) => Promise<unknown>): void {
    handlers[ESIM_ORDER_READY_JOB] = {
      async run(job) {
        const orderId = job.payload.orderId;
        // Best effort: the order's own fulfillment job keeps retrying if this attempt fails.
        if (typeof orderId === 'string') await fulfill(orderId);
      },
    };
  }

  /**
   * How the sandbox provider "sends" a webhook: a job (./esim-webhooks.ts runs it) that reads
   * the bodies as the sandbox's webhook and applies them here.
   */
  async function sandboxNotify(...notifications: SandboxNotification[]): Promise<void> {
    await queue.enqueue(db, { kind: SANDBOX_NOTIFY_JOB, payload: { notifications } });
  }

  /**
   * The same job as a step (CTE `notified`) of the sandbox's own statement, one job per row of
   * `source`: the profiles and their ORDER_STATUS notification in one round trip.
   */
  const notified = (source: SQL) => enqueueStep('notified', source);
  const sandboxNotifyWithin = {
    cte: (db: DbOrTx, source: SQL) => notified(source).cte(db),
    values: (...notifications: SandboxNotification[]) =>
      bind(notified(sql``), jobRow({ kind: SANDBOX_NOTIFY_JOB, payload: { notifications } }, clock.now())),
  };

  return { apply, registerJobs, sandboxNotify, sandboxNotifyWithin };
}

export type ProviderNotifications = ReturnType<typeof createProviderNotifications>;
