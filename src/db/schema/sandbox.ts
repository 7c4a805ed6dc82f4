import { bigint, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from './accounts.js';

/**
 * State of the built-in sandbox providers. It lives in the database, like a real provider's
 * state lives on its side, so it survives a restart and is shared by every instance.
 */
export const sandboxEsimProfiles = pgTable(
  'sandbox_esim_profiles',
  {
    esimTranNo: text('esim_tran_no').primaryKey(),
    orderRef: text('order_ref').notNull(),
    packageCode: text('package_code').notNull(),
    iccid: text('iccid').notNull(),
    smdpAddress: text('smdp_address').notNull(),
    matchingId: text('matching_id').notNull(),
    status: text('status').notNull(),
    totalMb: integer('total_mb').notNull(),
    usedMb: integer('used_mb').notNull().default(0),
    durationDays: integer('duration_days').notNull(),
    createdAt: ts('created_at').notNull(),
    activatedAt: ts('activated_at'),
    expiresAt: ts('expires_at'),
    /**
     * eSIM Access smdpStatus of the profile (RELEASED until "installed" by the operator or a test
     * helper). Past RELEASED, or with data used, the profile was installed: eSIM Access cancels only
     * never-installed profiles.
     */
    smdpStatus: text('smdp_status').notNull().default('RELEASED'),
    /** Order ids of top-ups applied, so a repeated top-up call is a no-op (idempotent on order id). */
    topUpOrders: jsonb('top_up_orders').$type<string[]>().notNull().default([]),
  },
  (t) => [
    index('sandbox_esim_profiles_order_idx').on(t.orderRef),
    index('sandbox_esim_profiles_iccid_idx').on(t.iccid),
  ],
);

/** Single-row-per-name settings of the sandboxes (for example `esim.failNext`). */
export const sandboxSettings = pgTable('sandbox_settings', {
  name: text('name').primaryKey(),
  value: integer('value').notNull(),
});

/** Hosted card sessions and crypto invoices of the sandbox payment providers. */
export const sandboxPayments = pgTable('sandbox_payments', {
  id: text('id').primaryKey(),
  kind: text('kind', { enum: ['card', 'crypto'] }).notNull(),
  amountMinor: bigint('amount_minor', { mode: 'number' }).notNull(),
  currency: text('currency').notNull(),
  status: text('status').notNull(),
  reference: text('reference').notNull(),
  successUrl: text('success_url'),
  cancelUrl: text('cancel_url'),
  metadata: jsonb('metadata').$type<Record<string, string>>(),
  createdAt: ts('created_at').notNull(),
  updatedAt: ts('updated_at').notNull(),
});
