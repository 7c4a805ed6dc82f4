import { bigserial, boolean, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { accounts, ts } from './accounts.js';

/**
 * The Partner API request log (issue 32 C3): one row per call whose key was known, written in
 * batches by src/domain/requestlog (never inside the request), kept 30 days by the retention job.
 * Bodies and query strings are never stored: `path` is the URL path alone.
 */
export const partnerRequests = pgTable(
  'partner_requests',
  {
    /** Insertion order: the tie-break of the newest-first keyset (created_at, seq). */
    seq: bigserial('seq', { mode: 'number' }).primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    livemode: boolean('livemode').notNull(),
    /** When the request arrived. */
    createdAt: ts('created_at').notNull(),
    method: text('method').notNull(),
    /** The route's pattern (`/api/public/v1/orders/:id`); null when no route matched. */
    route: text('route'),
    /** The concrete URL path, without the query string (cut at 512 characters). */
    path: text('path').notNull(),
    status: integer('status').notNull(),
    durationMs: integer('duration_ms').notNull(),
    requestId: text('request_id').notNull(),
    idempotencyKey: text('idempotency_key'),
    /** The `error.code` of an error answer (VALIDATION_ERROR, INSUFFICIENT_BALANCE, …). */
    errorCode: text('error_code'),
  },
  (t) => [
    index('partner_requests_account_idx').on(t.accountId, t.livemode, t.createdAt.desc(), t.seq.desc()),
    index('partner_requests_request_id_idx').on(t.accountId, t.requestId),
    index('partner_requests_created_idx').on(t.createdAt),
  ],
);

export type PartnerRequestRow = typeof partnerRequests.$inferSelect;
