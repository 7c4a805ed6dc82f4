import { sql } from 'drizzle-orm';
import { bigint, index, jsonb, pgTable, text, unique } from 'drizzle-orm/pg-core';
import { accounts, ts } from './accounts.js';

/**
 * One row per hosted payment (card checkout session or crypto invoice), whether it tops up the
 * wallet or pays one order.
 */
export const payments = pgTable(
  'payments',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id),
    purpose: text('purpose', { enum: ['topup', 'order'] }).notNull(),
    orderId: text('order_id'),
    method: text('method', { enum: ['card', 'crypto'] }).notNull(),
    /** sandbox | stripe | cryptomus */
    provider: text('provider').notNull(),
    providerRef: text('provider_ref'),
    /** Amount asked of the payer, in minor units of `currency`. */
    amountMinor: bigint('amount_minor', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    /** USD cents credited (top-up) or paid (order). */
    usdCents: bigint('usd_cents', { mode: 'number' }).notNull(),
    /** Units of `currency` per USD used for the conversion, as stored when the payment was made. */
    exchangeRate: text('exchange_rate').notNull(),
    /**
     * `refund_pending` → `refunded` | `refund_manual`: paid for an account deleted meanwhile, handed
     * back to the payer by the provider, or (provider cannot refund) waiting for an operator.
     */
    status: text('status', {
      enum: [
        'pending',
        'paid',
        'cancelled',
        'expired',
        'failed',
        'refund_pending',
        'refunded',
        'refund_manual',
      ],
    })
      .notNull()
      .default('pending'),
    url: text('url'),
    successUrl: text('success_url'),
    cancelUrl: text('cancel_url'),
    providerData: jsonb('provider_data').$type<Record<string, unknown>>(),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    paidAt: ts('paid_at'),
  },
  (t) => [
    unique('payments_provider_ref_unique').on(t.provider, t.providerRef),
    index('payments_account_idx').on(t.accountId),
    /** Retention's scan for abandoned sessions and invoices (src/domain/ops/maintenance.ts). */
    index('payments_pending_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'pending'`),
  ],
);

/** Every verified provider event, once: the unique key makes a replay a no-op. */
export const paymentEvents = pgTable(
  'payment_events',
  {
    id: text('id').primaryKey(),
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    paymentId: text('payment_id'),
    type: text('type').notNull(),
    /** What the event did: credited, closed, recorded, duplicate-free no-op, or why it was refused. */
    outcome: text('outcome'),
    payload: jsonb('payload').$type<unknown>(),
    receivedAt: ts('received_at').notNull(),
  },
  (t) => [unique('payment_events_provider_event_unique').on(t.provider, t.eventId)],
);
