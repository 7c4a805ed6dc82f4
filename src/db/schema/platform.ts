import { sql } from 'drizzle-orm';
import {
  bigserial,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { ts } from './accounts.js';

/**
 * Durable background jobs (src/jobs/queue.ts). Enqueued in the same transaction as the change
 * that needs them, claimed with FOR UPDATE SKIP LOCKED so any number of workers can share it.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    /**
     * `failed`: the dead letter, waiting for an operator; `handled`: out of attempts, and its
     * handler dealt with that (an unfulfillable order refunded), so nobody has to act (issue 28 H22).
     */
    status: text('status', { enum: ['pending', 'running', 'done', 'failed', 'handled'] })
      .notNull()
      .default('pending'),
    runAt: ts('run_at').notNull(),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(5),
    lastError: text('last_error'),
    lockedBy: text('locked_by'),
    lockedUntil: ts('locked_until'),
    /** At most one pending or running job per key (periodic jobs, one fulfillment per order). */
    dedupeKey: text('dedupe_key'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [
    index('jobs_claim_idx').on(t.status, t.runAt),
    /** Retention deletes finished jobs by age. */
    index('jobs_done_idx')
      .on(t.updatedAt)
      .where(sql`${t.status} = 'done'`),
    /** The operator's dead-letter list, newest failure first (issue 12). */
    index('jobs_failed_list_idx')
      .on(t.updatedAt, t.id)
      .where(sql`${t.status} = 'failed'`),
    index('jobs_failed_kind_list_idx')
      .on(t.kind, t.updatedAt, t.id)
      .where(sql`${t.status} = 'failed'`),
    uniqueIndex('jobs_dedupe_active_unique')
      .on(t.dedupeKey)
      .where(sql`${t.status} in ('pending', 'running')`),
  ],
);

/** Stored responses of requests sent with an Idempotency-Key (decisions §4). */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    accountId: text('account_id').notNull(),
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    status: text('status', { enum: ['in_progress', 'done'] }).notNull(),
    responseStatus: integer('response_status'),
    responseBody: jsonb('response_body').$type<unknown>(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.scope, t.key] }),
    index('idempotency_keys_created_idx').on(t.createdAt),
  ],
);

export interface MailAttachmentRecord {
  filename: string;
  contentType: string;
  /** Content-ID of an inline image (`<img src="cid:…">`), null for a plain attachment. */
  cid: string | null;
  size: number;
}

/** Every message the service sends, recorded before (or instead of) delivery. */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: text('id').primaryKey(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html'),
    /** Inline images and files sent with the message: metadata only, the bytes are not kept. */
    attachments: jsonb('attachments').$type<MailAttachmentRecord[]>(),
    /** One message per business event (`order-receipt:<orderId>`): a second send is a no-op. */
    dedupeKey: text('dedupe_key').unique(),
    status: text('status', { enum: ['recorded', 'sent', 'failed'] }).notNull(),
    error: text('error'),
    createdAt: ts('created_at').notNull(),
    sentAt: ts('sent_at'),
  },
  (t) => [
    /** The operator's mail list, newest first, all or per recipient (issue 12). */
    index('mail_outbox_to_list_idx').on(t.to, t.createdAt, t.id),
    index('mail_outbox_list_idx').on(t.createdAt, t.id),
  ],
);

export const auditLog = pgTable(
  'audit_log',
  {
    id: text('id').primaryKey(),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    before: jsonb('before').$type<unknown>(),
    after: jsonb('after').$type<unknown>(),
    requestId: text('request_id'),
    /**
     * Who did it: `token` (ADMIN_TOKEN), `account:<id>` (a signed-in person, e.g. a partner's
     * member), `api_key` (a Partner API request, e.g. a webhook secret rotation), `system`; null
     * on rows written before issue 32.
     */
    actor: text('actor'),
    /** Set on a partner's own changes (keys, secrets, members, roles): its dashboard audit log. */
    partnerId: text('partner_id'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    /** The audit list, newest first, all or per target (issue 12). */
    index('audit_log_target_list_idx').on(t.targetId, t.createdAt, t.id),
    index('audit_log_list_idx').on(t.createdAt, t.id),
    /** A partner's audit log in its dashboard (issue 32 C4). */
    index('audit_log_partner_list_idx').on(t.partnerId, t.createdAt, t.id),
    /** The console's "who did it" filter (issue 33): one operator's, or the token's, actions. */
    index('audit_log_actor_list_idx').on(t.actor, t.createdAt, t.id),
  ],
);
