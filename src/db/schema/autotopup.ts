import { bigint, boolean, index, integer, pgTable, text, unique } from 'drizzle-orm/pg-core';
import { accounts, ts } from './accounts.js';
import { plans } from './catalog.js';
import { esims, orders } from './orders.js';

/**
 * Auto top-up from the wallet (issue 31 L5), one row per eSIM that has it configured. Kept apart
 * from `esims` so the hot order statements (which return whole eSIM rows) do not change, and an
 * eSIM without the feature costs one primary-key miss per usage change.
 *
 * The trigger is a latch: `armed` while the usage is below `whenPercentUsed`; the first reading
 * at or above it disarms it and counts a `crossing` (one conditional UPDATE, so concurrent
 * readings count it once); a reading below the threshold (the top-up's data) arms it again.
 */
export const autoTopUps = pgTable('auto_top_ups', {
  esimId: text('esim_id')
    .primaryKey()
    .references(() => esims.id),
  accountId: text('account_id')
    .notNull()
    .references(() => accounts.id),
  enabled: boolean('enabled').notNull().default(false),
  planId: text('plan_id').references(() => plans.id),
  whenPercentUsed: integer('when_percent_used').notNull().default(80),
  maxPerMonth: integer('max_per_month').notNull().default(2),
  armed: boolean('armed').notNull().default(true),
  /** Crossings counted so far; the n-th buys at most once (auto_top_up_attempts' unique key). */
  crossing: integer('crossing').notNull().default(0),
  createdAt: ts('created_at').notNull(),
  updatedAt: ts('updated_at').notNull(),
});

/**
 * One row per crossing that fired: what it did (pending while the job runs, then succeeded or
 * failed with a reason). The unique (esim, crossing) is what makes a crossing buy at most once,
 * whatever the number of usage reports, job runs or replays.
 */
export const autoTopUpAttempts = pgTable(
  'auto_top_up_attempts',
  {
    id: text('id').primaryKey(),
    esimId: text('esim_id')
      .notNull()
      .references(() => esims.id),
    crossing: integer('crossing').notNull(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id),
    planId: text('plan_id').notNull(),
    /** Calendar month (UTC) of the crossing, `YYYY-MM`: what maxPerMonth counts. */
    month: text('month').notNull(),
    status: text('status', { enum: ['pending', 'succeeded', 'failed'] }).notNull(),
    reason: text('reason', {
      enum: ['insufficient_balance', 'monthly_limit', 'plan_unavailable', 'provider_error'],
    }),
    /** The top-up order it placed (once placed). */
    orderId: text('order_id').references(() => orders.id),
    amountCents: bigint('amount_cents', { mode: 'number' }),
    livemode: boolean('livemode').notNull(),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [
    unique('auto_top_up_attempts_crossing_unique').on(t.esimId, t.crossing),
    index('auto_top_up_attempts_month_idx').on(t.esimId, t.month),
  ],
);
