import { createHash } from 'node:crypto';
import { desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { esims, orders, providerNotifications } from '../../db/schema/index.js';
import { columnList, placeholderList, prefixed, reusable } from '../../db/reusable.js';
import { insertJobFrom, jobRow, type JobQueue } from '../../jobs/queue.js';
import type { JobHandlers } from '../../jobs/worker.js';
import type { Clock } from '../../lib/clock.js';
import { randomBase62 } from '../../lib/crypto.js';
import { esimAccessUnits } from '../../providers/esim/esimaccess/client.js';
import { mapEsimAccessStatus } from '../../providers/esim/esimaccess/profiles.js';
import { AppError } from '../errors.js';
import type { EsimRow } from '../orders/ports.js';
import type { PartnerEvents } from './partner-events.js';

/**
 * An eSIM Access webhook body (shared/research/providers-and-peers.md §2.11):
 * `{ notifyType, notifyId, eventGenerateTime, content: {…} }`. The sandbox provider emits the same.
 */
export interface EsimAccessNotification {
  notifyType: string;
  notifyId?: string;
  eventGenerateTime?: string;
  content?: Record<string, unknown>;
}

export type NotificationOutcome =
  | 'duplicate'
  | 'health_check'
  | 'fulfillment_queued'
  | 'usage_updated'
  | 'status_updated'
  | 'validity_updated'
  | 'unknown_order'
  | 'unknown_esim'
  | 'ignored';

export const ESIM_ORDER_READY_JOB = 'esim.order-ready';
export const SANDBOX_NOTIFY_JOB = 'sandbox.esim.notify';

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const num = (v: unknown): number | undefined => {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : undefined;
};

/** Where eSIM statuses sit in a profile's life; a late notification never moves an eSIM back. */
const RANK: Record<EsimRow['status'], number> = {
  PENDING: 0,
  ACTIVE: 1,
  DEPLETED: 2,
  EXPIRED: 3,
  CANCELLED: 3,
};

/** The order of an ORDER_STATUS GOT_RESOURCE: its profiles are ready to fetch. */
function orderReadyNotice(n: EsimAccessNotification): string | undefined {
  if (n.notifyType !== 'ORDER_STATUS' || str(n.content?.orderStatus) !== 'GOT_RESOURCE') return undefined;
  return str(n.content?.transactionId);
}

/** Fetches an order's profiles now instead of waiting for its next scheduled retry. */
function orderReadyJob(orderId: string) {
  return {
    kind: ESIM_ORDER_READY_JOB,
    payload: { orderId },
    maxAttempts: 1,
    dedupeKey: `order-ready:${orderId}`,
  };
}

export function parseNotification(body: unknown): EsimAccessNotification {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw new AppError('VALIDATION_ERROR', 'Body must be a JSON object');
  const b = body as Record<string, unknown>;
  const notifyType = str(b.notifyType);
  if (!notifyType) throw new AppError('VALIDATION_ERROR', 'notifyType is missing', { field: 'notifyType' });
  const content = b.content && typeof b.content === 'object' ? (b.content as Record<string, unknown>) : {};
  return {
    notifyType,
    notifyId: str(b.notifyId),
    eventGenerateTime: str(b.eventGenerateTime),
    content,
  };
}

const NOTIFICATION_COLUMNS = ['id', 'provider', 'notifyId', 'type', 'payload', 'receivedAt'] as const;

/**
 * ORDER_STATUS GOT_RESOURCE, the notification of every order, in one statement and one commit
 * (built once, src/db/reusable.ts): the claim by (provider, notifyId) with its outcome read from
 * the order's status, and, for an order still PROCESSING, the job that fetches its profiles now
 * (placeholders `job.<column>`). No row back: a replay, nothing written.
 */
const applyOrderStatus = reusable((db) => {
  const claimed$ = db.$with('claimed', { outcome: providerNotifications.outcome }).as(
    sql`insert into ${providerNotifications} (${columnList(providerNotifications, NOTIFICATION_COLUMNS)}, outcome)
      select ${placeholderList(NOTIFICATION_COLUMNS)},
        case when ${orders.id} is null then 'unknown_order'
          when ${orders.status} = 'PROCESSING' then 'fulfillment_queued' else 'ignored' end
      from (select 1) as one left join ${orders} on ${orders.id} = ${sql.placeholder('orderId')}
      on conflict (provider, notify_id) do nothing
      returning outcome`,
  );
  const ready$ = db
    .$with('ready_job', {})
    .as(insertJobFrom('job.', sql`claimed where claimed.outcome = 'fulfillment_queued'`));
  return db.with(claimed$, ready$).select().from(claimed$);
});

/**
 * Consumes eSIM provider notifications (ORDER_STATUS, ESIM_STATUS, DATA_USAGE, VALIDITY_USAGE):
 * each is claimed once by (provider, notifyId) — a replay changes nothing — and applied in the
 * same transaction, raising the partner events it implies (esim.usage_threshold).
 */
export function createProviderNotifications(deps: {
  db: Db;
  clock: Clock;
  queue: JobQueue;
  events: PartnerEvents;
}) {
  const { db, clock, queue, events } = deps;

  async function findEsim(tx: Tx, content: Record<string, unknown>): Promise<EsimRow | undefined> {
    const ref = str(content.esimTranNo);
    if (ref) {
      const [row] = await tx.select().from(esims).where(eq(esims.providerRef, ref));
      if (row) return row;
    }
    const iccid = str(content.iccid);
    if (!iccid) return undefined;
    // ICCIDs can be reused upstream: the newest eSIM with it is the one in service.
    const [row] = await tx
      .select()
      .from(esims)
      .where(eq(esims.iccid, iccid))
      .orderBy(desc(esims.createdAt))
      .limit(1);
    return row;
  }

  async function esimStatus(tx: Tx, content: Record<string, unknown>): Promise<NotificationOutcome> {
    const esim = await findEsim(tx, content);
    if (!esim) return 'unknown_esim';
    const vendorStatus = str(content.esimStatus);
    if (!vendorStatus) return 'ignored';
    const status = mapEsimAccessStatus(vendorStatus);
    // A top-up revives a DEPLETED eSIM; anything else only moves forward.
    const revived = esim.status === 'DEPLETED' && status === 'ACTIVE';
    if (RANK[status] <= RANK[esim.status] && !revived) return 'ignored';
    const now = clock.now();
    await tx
      .update(esims)
      .set({
        status,
        ...(status === 'ACTIVE' && !esim.activatedAt ? { activatedAt: now } : {}),
        updatedAt: now,
      })
      .where(eq(esims.id, esim.id));
    await events.usageChanged(tx, esim.id);
    return 'status_updated';
  }

  async function dataUsage(tx: Tx, content: Record<string, unknown>): Promise<NotificationOutcome> {
    const esim = await findEsim(tx, content);
    if (!esim) return 'unknown_esim';
    const used = num(content.orderUsage);
    const total = num(content.totalVolume);
    if (used === undefined || total === undefined) return 'ignored';
    const now = clock.now();
    await tx
      .update(esims)
      .set({
        dataUsageMb: esimAccessUnits.bytesToMb(used),
        totalVolumeMb: esimAccessUnits.bytesToMb(total),
        usageCheckedAt: now,
        updatedAt: now,
      })
      .where(eq(esims.id, esim.id));
    await events.usageChanged(tx, esim.id);
    return 'usage_updated';
  }

  async function validityUsage(tx: Tx, content: Record<string, unknown>): Promise<NotificationOutcome> {
    const esim = await findEsim(tx, content);
    if (!esim) return 'unknown_esim';
    const expiresAt = esimAccessUnits.parseTime(str(content.expiredTime));
    if (!expiresAt) return 'ignored';
    await tx.update(esims).set({ expiresAt, updatedAt: clock.now() }).where(eq(esims.id, esim.id));
    return 'validity_updated';
  }

  async function decide(tx: Tx, n: EsimAccessNotification): Promise<NotificationOutcome> {
    const content = n.content ?? {};
    switch (n.notifyType) {
      case 'CHECK_HEALTH':
        return 'health_check';
      case 'ORDER_STATUS':
        // GOT_RESOURCE is applied by applyOrderStatus; other order statuses change nothing here.
        return 'ignored';
      case 'ESIM_STATUS':
        return esimStatus(tx, content);
      case 'DATA_USAGE':
        return dataUsage(tx, content);
      case 'VALIDITY_USAGE':
        return validityUsage(tx, content);
      default:
        return 'ignored';
    }
  }

  /** Applies one notification once; `provider` is `esimaccess` or `sandbox`. */
  async function apply(provider: string, body: unknown): Promise<NotificationOutcome> {
    const n = parseNotification(body);
    // Without a notifyId the body itself is the identity, so a byte-identical replay is still a no-op.
    const notifyId =
      n.notifyId ?? `sha256:${createHash('sha256').update(JSON.stringify(body)).digest('hex')}`;
    const readyOrderId = orderReadyNotice(n);
    if (readyOrderId) {
      const now = clock.now();
      const [claimed] = await applyOrderStatus(db, {
        id: `pnt_${randomBase62(20)}`,
        provider,
        notifyId,
        type: n.notifyType,
        payload: body,
        receivedAt: now,
        orderId: readyOrderId,
        ...prefixed('job.', jobRow(orderReadyJob(readyOrderId), now)),
      });
      return (claimed?.outcome as NotificationOutcome | undefined) ?? 'duplicate';
    }
    return db.transaction(async (tx) => {
      const rowId = `pnt_${randomBase62(20)}`;
      const [claimed] = await tx
        .insert(providerNotifications)
        .values({ id: rowId, provider, notifyId, type: n.notifyType, payload: body, receivedAt: clock.now() })
        .onConflictDoNothing({ target: [providerNotifications.provider, providerNotifications.notifyId] })
        .returning({ id: providerNotifications.id });
      if (!claimed) return 'duplicate' as const;
      const outcome = await decide(tx, n);
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
    handlers[SANDBOX_NOTIFY_JOB] = {
      run: async (job) => {
        // One job per "connection": its notifications are applied in the order they were sent.
        const batch = Array.isArray(job.payload.notifications) ? job.payload.notifications : [job.payload];
        for (const notification of batch) await apply('sandbox', notification);
      },
    };
  }

  /** How the sandbox provider "sends" a webhook: a job that runs the same consumer. */
  async function sandboxNotify(...notifications: EsimAccessNotification[]): Promise<void> {
    await queue.enqueue(db, { kind: SANDBOX_NOTIFY_JOB, payload: { notifications } });
  }

  /**
   * The same job as a CTE of the sandbox's own statement (placeholders `notify.<column>`): the
   * profiles and their ORDER_STATUS notification in one round trip.
   */
  const sandboxNotifyWithin = {
    cte: (source: SQL) => insertJobFrom('notify.', source),
    values: (...notifications: EsimAccessNotification[]) =>
      prefixed('notify.', jobRow({ kind: SANDBOX_NOTIFY_JOB, payload: { notifications } }, clock.now())),
  };

  return { apply, registerJobs, sandboxNotify, sandboxNotifyWithin };
}

export type ProviderNotifications = ReturnType<typeof createProviderNotifications>;
