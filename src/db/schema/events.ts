import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  unique,
} from 'drizzle-orm/pg-core';
import { accounts, ts } from './accounts.js';

/** PostgreSQL's 64-bit transaction id, read as a decimal string. */
const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => 'xid8' });

/**
 * The partner event outbox (src/domain/events). A row is written in the same transaction as the
 * change it reports, so an event exists if and only if that change committed.
 *
 * `txid` + `seq` order the events: `txid` is the writing transaction's id, so a reader that only
 * shows events of transactions older than every running one (pg_snapshot_xmin) never lets a later
 * commit slip in before a cursor it already handed out.
 */
export const events = pgTable(
  'events',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    livemode: boolean('livemode').notNull().default(true),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    createdAt: ts('created_at').notNull(),
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    txid: xid8('txid')
      .notNull()
      .default(sql`pg_current_xact_id()`),
  },
  (t) => [
    index('events_account_order_idx').on(t.accountId, t.livemode, t.txid, t.seq),
    index('events_created_idx').on(t.createdAt),
  ],
);

/** Partner webhook endpoints: at most 10 per account; the secret signs every delivery. */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    description: text('description'),
    /** Event types delivered; null = all. */
    eventTypes: jsonb('event_types').$type<string[] | null>(),
    /** `whsec_<base64>`; shown to the partner once, kept to sign deliveries. */
    secret: text('secret').notNull(),
    /**
     * The secret replaced by the last rotation: deliveries carry its signature too until
     * `previousSecretExpiresAt` (24 h), so the receiver can switch without losing a message.
     */
    previousSecret: text('previous_secret'),
    previousSecretExpiresAt: ts('previous_secret_expires_at'),
    /** Events of this mode are delivered here (live keys create live endpoints). */
    livemode: boolean('livemode').notNull().default(true),
    status: text('status', { enum: ['enabled', 'disabled'] })
      .notNull()
      .default('enabled'),
    /** First failed attempt since the last success; 5 days of failures disable the endpoint. */
    failingSince: ts('failing_since'),
    disabledAt: ts('disabled_at'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [index('webhook_endpoints_account_idx').on(t.accountId)],
);

/** One event to one endpoint; its attempts run as `webhook.deliver` jobs. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    eventId: text('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['pending', 'succeeded', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastAttemptAt: ts('last_attempt_at'),
    nextAttemptAt: ts('next_attempt_at'),
    responseStatus: integer('response_status'),
    lastError: text('last_error'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [
    unique('webhook_deliveries_event_endpoint_unique').on(t.eventId, t.endpointId),
    index('webhook_deliveries_endpoint_idx').on(t.endpointId),
    /** An endpoint's delivery log, newest first (keyset pages). */
    index('webhook_deliveries_endpoint_log_idx').on(t.endpointId, t.createdAt, t.id),
    /** Deliveries not succeeded, for the gauges read at every scrape (not the 30 days of history). */
    index('webhook_deliveries_open_idx')
      .on(t.status, t.createdAt)
      .where(sql`${t.status} in ('pending', 'failed')`),
  ],
);

/**
 * One attempt of one delivery (the delivery log, issue 32 C2): what the receiver answered (status
 * or network error), how long it took, the first 1 KB of its body (as text) and when the next
 * attempt was scheduled. Deleted with its delivery (cascade), i.e. with the event after 30 days.
 */
export const webhookDeliveryAttempts = pgTable(
  'webhook_delivery_attempts',
  {
    id: text('id').primaryKey(),
    deliveryId: text('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    /** 1-based, over the delivery's whole life (resends continue the count). */
    attempt: integer('attempt').notNull(),
    startedAt: ts('started_at').notNull(),
    /** The HTTP status, or null when no answer came (then `error` says why). */
    responseStatus: integer('response_status'),
    error: text('error'),
    durationMs: integer('duration_ms').notNull(),
    /** At most 1024 bytes of the answer, decoded as UTF-8, control characters removed. */
    responseBody: text('response_body'),
    nextRetryAt: ts('next_retry_at'),
    /** A resend asked for by the partner (dashboard or API), not a scheduled retry. */
    manual: boolean('manual').notNull().default(false),
  },
  (t) => [unique('webhook_delivery_attempts_delivery_attempt_unique').on(t.deliveryId, t.attempt)],
);

/** Every inbound eSIM provider notification, once: the unique key makes a replay a no-op. */
export const providerNotifications = pgTable(
  'provider_notifications',
  {
    id: text('id').primaryKey(),
    provider: text('provider').notNull(),
    notifyId: text('notify_id').notNull(),
    type: text('type').notNull(),
    payload: jsonb('payload').$type<unknown>(),
    /** What it did: applied, ignored (unknown eSIM/order or type), … */
    outcome: text('outcome'),
    receivedAt: ts('received_at').notNull(),
  },
  (t) => [unique('provider_notifications_provider_notify_unique').on(t.provider, t.notifyId)],
);
