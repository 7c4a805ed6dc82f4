import { boolean, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { accounts, ts } from './accounts.js';

/**
 * Issue 32 C6: the statement of a closed month, stored the first time it is produced and served
 * from here ever after, so it never changes (src/domain/statements). The current month is never
 * stored: it is computed from the ledger on every request.
 */
export const frozenStatements = pgTable(
  'frozen_statements',
  {
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    livemode: boolean('livemode').notNull(),
    /** YYYY-MM, a UTC month. */
    month: text('month').notNull(),
    /** The statement as the JSON format returns it (CSV and PDF are rendered from it). */
    body: jsonb('body').notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.livemode, t.month] })],
);
