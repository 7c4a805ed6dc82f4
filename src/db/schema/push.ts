import { index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { accounts, ts } from './accounts.js';

/**
 * Every push the service sends, one row per device (src/domain/push/): recorded in the sender's
 * transaction in every mode (PUSH_TRANSPORT=outbox stops there), and with `live` the result of
 * the real send. The device id is kept without a foreign key: a token the push service reports
 * gone removes the device, and the record of what happened stays.
 */
export const pushMessages = pgTable(
  'push_messages',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    deviceId: text('device_id').notNull(),
    platform: text('platform', { enum: ['IOS', 'ANDROID', 'WEB'] }).notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    data: jsonb('data').$type<Record<string, string>>().notNull(),
    /** The sender's business key (`usage:<esimId>:80`): one message per key and device, ever. */
    dedupeKey: text('dedupe_key').notNull(),
    /**
     * recorded: outbox only; pending: queued for the live send; sent; failed (rejected, or out of
     * retries); gone: the push service reported the token gone and the device was removed;
     * skipped: the device was removed before its turn came.
     */
    status: text('status', { enum: ['recorded', 'pending', 'sent', 'failed', 'gone', 'skipped'] }).notNull(),
    /** The push service's answer to the last attempt that did not succeed (never the token). */
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
    createdAt: ts('created_at').notNull(),
    sentAt: ts('sent_at'),
  },
  (t) => [
    uniqueIndex('push_messages_dedupe_device_unique').on(t.dedupeKey, t.deviceId),
    /** The operator's push list, newest first, all or per account. */
    index('push_messages_account_list_idx').on(t.accountId, t.createdAt, t.id),
    index('push_messages_list_idx').on(t.createdAt, t.id),
  ],
);
