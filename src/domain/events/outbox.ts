import { and, desc, eq, getTableColumns, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { WithSubqueryWithSelection } from 'drizzle-orm/pg-core';
import type { Db, DbOrTx, Tx } from '../../db/client.js';
import { columnList, reusable, type InsertRow } from '../../db/reusable.js';
import { bind, rowsOf, step, type Step } from '../../db/steps.js';
import { events, jobs, webhookDeliveries, webhookEndpoints } from '../../db/schema/index.js';
import type { Clock } from '../../lib/clock.js';
import { randomBase62 } from '../../lib/crypto.js';
import { AppError } from '../errors.js';

/** Event types a partner can receive and subscribe to (docs/partner-reference.md, "Webhooks and events"). */
export const EVENT_TYPES = [
  'order.completed',
  'order.fulfillment_failed',
  'order.refunded',
  'esim.usage_threshold',
  'esim.expiring',
  'esim.status_changed',
  'esim.auto_topup_succeeded',
  'esim.auto_topup_failed',
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

export type EventValues = InsertRow<typeof events, typeof EVENT_COLUMNS>;

/**
 * The outbox's rows as steps of one statement (src/db/steps.ts): the event (`<name>`: a row per
 * row of `source`, or exactly one without a source; values `eventValues(input, now)`), a delivery
 * per endpoint it goes to (`<name>_delivery`: every enabled endpoint of the event's account and
 * mode subscribed to its type, or the one endpoint of its value `endpointId`), and each
 * delivery's job (`<name>_delivery_job`).
 *
 * A delivery's id is derived from its event and endpoint (`whd_` + 20 hex digits of their MD5):
 * unique as the pair is, and written by the database, so the number of endpoints need not be
 * known before the statement runs.
 */
export function eventSteps(
  name: string,
  source?: Step<object>,
  recipients: 'subscribers' | 'endpoint' = 'subscribers',
  /** The data built by SQL over each row of `source` (its `data` value unused), and only where `where`. */
  built?: { data: SQL; where: SQL },
) {
  const event = step<EventValues, unknown>(name, (db, p) =>
    db.$with(name, getTableColumns(events)).as(
      sql`insert into ${events} (${columnList(events, EVENT_COLUMNS)}) select ${sql.join(
        EVENT_COLUMNS.map((c) => (c === 'data' && built ? built.data : p(c))),
        sql`, `,
      )} ${source ? sql`from ${rowsOf(source)}` : sql``} ${built ? sql`where ${built.where}` : sql``} returning *`,
    ),
  );
  const delivery = step<{ endpointId?: string }, unknown>(`${name}_delivery`, (db, p, own) => {
    const to =
      recipients === 'endpoint'
        ? sql`e.id = ${p('endpointId')}`
        : sql`e.status = 'enabled' and (e.event_types is null or e.event_types @> jsonb_build_array(ev.type))`;
    return db.$with(own, {}).as(
      sql`insert into ${webhookDeliveries} (id, event_id, endpoint_id, next_attempt_at, created_at, updated_at)
        select 'whd_' || substr(md5(ev.id || ':' || e.id), 1, 20), ev.id, e.id, ev.created_at,
          ev.created_at, ev.created_at
        from ${rowsOf(event)} ev join ${webhookEndpoints} e
          on e.account_id = ev.account_id and e.livemode = ev.livemode and ${to}
        returning id, created_at`,
    );
  });
  const deliveryJob = step<Record<string, never>, unknown>(`${name}_delivery_job`, (db, _p, own) =>
    db.$with(own, {}).as(
      sql`insert into ${jobs} (kind, payload, run_at, max_attempts, dedupe_key, created_at, updated_at)
        select ${sql.raw(`'${WEBHOOK_DELIVER_JOB}'`)}, jsonb_build_object('deliveryId', d.id), d.created_at,
          ${sql.raw(String(DELIVERY_MAX_ATTEMPTS))}, 'deliver:' || d.id, d.created_at, d.created_at
        from ${rowsOf(delivery)} d
        on conflict do nothing`,
    ),
  );
  return { event, delivery, deliveryJob };
}

/** The values of `eventSteps`' event for an event emitted at `now`. */
export function eventValues(input: EmitEventInput, now: Date): EventValues {
  return {
    id: newEventId(),
    accountId: input.accountId,
    type: input.type,
    livemode: input.livemode ?? true,
    data: input.data,
    createdAt: now,
  };
}

/** One statement per kind of recipient: the event, its deliveries and their jobs. */
function emitStatement(recipients: 'subscribers' | 'endpoint') {
  const steps = eventSteps('event', undefined, recipients);
  const statement = reusable((db) => {
    const event$ = steps.event.cte(db) as WithSubqueryWithSelection<typeof events._.columns, 'event'>;
    return db
      .with(event$, steps.delivery.cte(db) as never, steps.deliveryJob.cte(db) as never)
      .select()
      .from(event$);
  });
  return { steps, statement };
}
export const emitToSubscribers = emitStatement('subscribers');
const emitToEndpoint = emitStatement('endpoint');
/**
 * The outbox. `emitEvent` must be called with the transaction of the change it reports: the event
 * row, one delivery row per subscribed endpoint and the delivery jobs (one statement,
 * `eventSteps`) commit with that change or not at all. A change written in one statement can
 * carry `eventSteps` itself instead.
 */
export function createEventOutbox(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;

  async function emitEvent(tx: Tx, input: EmitEventInput): Promise<EventRow> {
    const values = eventValues(input, clock.now());
    const { steps, statement } = input.onlyEndpointId ? emitToEndpoint : emitToSubscribers;
    const [row] = await statement(tx, {
      ...bind(steps.event, values),
      ...(input.onlyEndpointId && bind(steps.delivery, { endpointId: input.onlyEndpointId })),
    });
    return row!;
  }

  /**
   * Events of one account and mode, oldest first (newest first with `newestFirst`), after the
   * cursor event. Only events written by transactions older than every transaction still running
   * are listed (pg_snapshot_xmin), and they are ordered by (transaction id, insertion order): an
   * event that commits later can never sort before one already returned, so paging with `after`
   * misses nothing. `types`, `from` (inclusive) and `to` (exclusive) narrow the list by type and
   * creation time.
   */
  async function list(
    accountId: string,
    options: {
      after?: string | undefined;
      limit: number;
      livemode?: boolean;
      types?: readonly string[] | undefined;
      from?: Date | undefined;
      to?: Date | undefined;
      newestFirst?: boolean;
    },
    reader: DbOrTx = db,
  ): Promise<{ data: PartnerEvent[]; hasMore: boolean }> {
    const livemode = options.livemode ?? true;
    const conditions = [
      eq(events.accountId, accountId),
      eq(events.livemode, livemode),
      sql`${events.type} <> 'ping'`,
      sql`${events.txid} < pg_snapshot_xmin(pg_current_snapshot())`,
    ];
    if (options.types?.length) conditions.push(inArray(events.type, [...options.types]));
    if (options.from) conditions.push(gte(events.createdAt, options.from));
    if (options.to) conditions.push(lt(events.createdAt, options.to));
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
      conditions.push(
        options.newestFirst
          ? sql`(${events.txid}, ${events.seq}) < (${cursor.txid}::xid8, ${cursor.seq})`
          : sql`(${events.txid}, ${events.seq}) > (${cursor.txid}::xid8, ${cursor.seq})`,
      );
    }
    const rows = await reader
      .select()
      .from(events)
      .where(and(...conditions))
      .orderBy(...(options.newestFirst ? [desc(events.txid), desc(events.seq)] : [events.txid, events.seq]))
      .limit(options.limit + 1);
    const hasMore = rows.length > options.limit;
    return { data: rows.slice(0, options.limit).map(presentEvent), hasMore };
  }

  /** One event of the account and mode (pings included), or null. */
  async function find(accountId: string, eventId: string, livemode: boolean): Promise<PartnerEvent | null> {
    const [row] = await db
      .select()
      .from(events)
      .where(and(eq(events.id, eventId), eq(events.accountId, accountId), eq(events.livemode, livemode)));
    return row ? presentEvent(row) : null;
  }

  /** Deletes events (and their deliveries) older than the retention; returns how many. */
  async function purge(): Promise<number> {
    const cutoff = new Date(clock.now().getTime() - EVENT_RETENTION_DAYS * 24 * 60 * 60 * 1000);
    const deleted = await db.delete(events).where(lt(events.createdAt, cutoff)).returning({ id: events.id });
    return deleted.length;
  }

  return { emitEvent, list, find, purge };
}

export type EventOutbox = ReturnType<typeof createEventOutbox>;
