import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../../db/client.js';
import { placeholders, reusable, type InsertRow } from '../../db/reusable.js';
import { events, webhookDeliveries, webhookEndpoints } from '../../db/schema/index.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { Clock } from '../../lib/clock.js';
import { randomBase62 } from '../../lib/crypto.js';
import { AppError } from '../errors.js';

/** Event types a partner can receive and subscribe to (docs/partner.md, "Webhooks and events"). */
export const EVENT_TYPES = [
  'order.completed',
  'order.fulfillment_failed',
  'order.refunded',
  'esim.usage_threshold',
  'wallet.topup_succeeded',
  'wallet.low_balance',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
/** `ping` is only ever sent by POST /webhook-endpoints/:id/test, to that one endpoint. */
export type AnyEventType = EventType | 'ping';

export type EventRow = typeof events.$inferSelect;

export interface EmitEventInput {
  accountId: string;
  type: AnyEventType;
  /** The Partner API representation of the resource (see src/domain/events/partner-events.ts). */
  data: Record<string, unknown>;
  /** false for test-mode objects; default true. */
  livemode?: boolean;
  /** ping only: deliver to this endpoint and no other. */
  onlyEndpointId?: string;
}

/** The wire form of an event: webhook bodies and GET /events items. */
export interface PartnerEvent {
  id: string;
  type: string;
  createdAt: string;
  livemode: boolean;
  data: Record<string, unknown>;
}

export const WEBHOOK_DELIVER_JOB = 'webhook.deliver';
export const EVENTS_PURGE_JOB = 'events.purge';
/** 1 first attempt + 7 retries (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h). */
export const DELIVERY_MAX_ATTEMPTS = 8;
export const EVENT_RETENTION_DAYS = 30;

export function newEventId(): string {
  return `evt_${randomBase62(20)}`;
}

export function presentEvent(row: EventRow): PartnerEvent {
  return {
    id: row.id,
    type: row.type,
    createdAt: row.createdAt.toISOString(),
    livemode: row.livemode,
    data: row.data,
  };
}

/** `livemode` of an order or eSIM row once the test-mode column exists; live until then. */
export function livemodeOf(row: object): boolean {
  const value = (row as { livemode?: unknown }).livemode;
  return typeof value === 'boolean' ? value : true;
}

const EVENT_COLUMNS = [
  'id',
  'accountId',
  'type',
  'livemode',
  'data',
  'createdAt',
] as const satisfies ReadonlyArray<keyof typeof events.$inferInsert>;

/**
 * One statement: the event row, and beside it each endpoint it goes to (none: one row, null).
 * Built once per kind of recipient (src/db/reusable.ts): every subscribed, enabled endpoint of
 * the account and mode (placeholder typeList: the type as a JSON array), or one endpoint (ping).
 */
function insertEventWithEndpoints(db: DbOrTx, onlyEndpoint: boolean) {
  const inserted$ = db.$with('inserted').as(
    db
      .insert(events)
      .values(placeholders(EVENT_COLUMNS) as never)
      .returning(),
  );
  const conditions = [
    eq(webhookEndpoints.accountId, sql.placeholder('accountId')),
    eq(webhookEndpoints.livemode, sql.placeholder('livemode')),
    onlyEndpoint
      ? eq(webhookEndpoints.id, sql.placeholder('endpointId'))
      : and(
          eq(webhookEndpoints.status, 'enabled'),
          sql`(${webhookEndpoints.eventTypes} is null or ${webhookEndpoints.eventTypes} @> ${sql.placeholder('typeList')}::jsonb)`,
        ),
  ];
  return db
    .with(inserted$)
    .select({
      event: {
        id: inserted$.id,
        accountId: inserted$.accountId,
        type: inserted$.type,
        livemode: inserted$.livemode,
        data: inserted$.data,
        createdAt: inserted$.createdAt,
        seq: inserted$.seq,
        txid: inserted$.txid,
      },
      endpointId: webhookEndpoints.id,
    })
    .from(inserted$)
    .leftJoin(webhookEndpoints, and(...conditions));
}
const insertEventForSubscribers = reusable((db) => insertEventWithEndpoints(db, false));
const insertEventForEndpoint = reusable((db) => insertEventWithEndpoints(db, true));

/**
 * The outbox. `emitEvent` must be called with the transaction of the change it reports: the event
 * row, one delivery row per subscribed endpoint and the delivery jobs commit with that change or
 * not at all.
 */
export function createEventOutbox(deps: { db: Db; queue: JobQueue; clock: Clock }) {
  const { db, queue, clock } = deps;

  async function emitEvent(tx: Tx, input: EmitEventInput): Promise<EventRow> {
    const now = clock.now();
    const livemode = input.livemode ?? true;
    const values = {
      id: newEventId(),
      accountId: input.accountId,
      type: input.type,
      livemode,
      data: input.data,
      createdAt: now,
    } satisfies InsertRow<typeof events, typeof EVENT_COLUMNS>;
    const rows = input.onlyEndpointId
      ? await insertEventForEndpoint(tx, { ...values, endpointId: input.onlyEndpointId })
      : await insertEventForSubscribers(tx, { ...values, typeList: JSON.stringify([input.type]) });
    const row = rows[0]!.event;
    const endpoints = rows.flatMap((r) => (r.endpointId ? [{ id: r.endpointId }] : []));
    for (const endpoint of endpoints) {
      const deliveryId = `whd_${randomBase62(20)}`;
      await tx.insert(webhookDeliveries).values({
        id: deliveryId,
        eventId: row.id,
        endpointId: endpoint.id,
        nextAttemptAt: now,
        createdAt: now,
        updatedAt: now,
      });
      await queue.enqueue(tx, {
        kind: WEBHOOK_DELIVER_JOB,
        payload: { deliveryId },
        runAt: now,
        maxAttempts: DELIVERY_MAX_ATTEMPTS,
        dedupeKey: `deliver:${deliveryId}`,
      });
    }
    return row;
  }

  /**
   * Events of one account and mode, oldest first, after the cursor event. Only events written by
   * transactions older than every transaction still running are listed (pg_snapshot_xmin), and
   * they are ordered by (transaction id, insertion order): an event that commits later can never
   * sort before one already returned, so paging with `after` misses nothing.
   */
  async function list(
    accountId: string,
    options: { after?: string; limit: number; livemode?: boolean },
    reader: DbOrTx = db,
  ): Promise<{ data: PartnerEvent[]; hasMore: boolean }> {
    const livemode = options.livemode ?? true;
    const conditions = [
      eq(events.accountId, accountId),
      eq(events.livemode, livemode),
      sql`${events.type} <> 'ping'`,
      sql`${events.txid} < pg_snapshot_xmin(pg_current_snapshot())`,
    ];
    if (options.after) {
      const [cursor] = await reader
        .select({ txid: events.txid, seq: events.seq })
        .from(events)
        .where(
          and(eq(events.id, options.after), eq(events.accountId, accountId), eq(events.livemode, livemode)),
        );
      if (!cursor)
        throw new AppError(
          'VALIDATION_ERROR',
          'after does not name one of your events (or it is older than 30 days)',
          {
            field: 'after',
          },
        );
      conditions.push(sql`(${events.txid}, ${events.seq}) > (${cursor.txid}::xid8, ${cursor.seq})`);
    }
    const rows = await reader
      .select()
      .from(events)
      .where(and(...conditions))
      .orderBy(events.txid, events.seq)
      .limit(options.limit + 1);
    const hasMore = rows.length > options.limit;
    return { data: rows.slice(0, options.limit).map(presentEvent), hasMore };
  }

  /** Deletes events (and their deliveries) older than the retention; returns how many. */
  async function purge(): Promise<number> {
    const cutoff = new Date(clock.now().getTime() - EVENT_RETENTION_DAYS * 24 * 60 * 60 * 1000);
    const deleted = await db.delete(events).where(lt(events.createdAt, cutoff)).returning({ id: events.id });
    return deleted.length;
  }

  return { emitEvent, list, purge };
}

export type EventOutbox = ReturnType<typeof createEventOutbox>;
