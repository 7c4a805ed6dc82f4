import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, text, unique } from 'drizzle-orm/pg-core';
import { accounts, ts } from './accounts.js';
import { plans } from './catalog.js';

export const orders = pgTable(
  'orders',
  {
    id: text('id').primaryKey(),
    orderNumber: text('order_number').notNull().unique(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id),
    channel: text('channel', { enum: ['mobile', 'partner'] }).notNull(),
    planId: text('plan_id')
      .notNull()
      .references(() => plans.id),
    quantity: integer('quantity').notNull(),
    /** For top-up plans: the ICCID of the caller's eSIM being topped up. */
    topUpIccid: text('top_up_iccid'),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    currency: text('currency').notNull().default('USD'),
    paymentMethod: text('payment_method', { enum: ['wallet', 'card', 'crypto'] }).notNull(),
    status: text('status', {
      enum: ['AWAITING_PAYMENT', 'PROCESSING', 'COMPLETED', 'CANCELLED', 'REFUNDED'],
    }).notNull(),
    paymentId: text('payment_id'),
    fulfillmentAttempts: integer('fulfillment_attempts').notNull().default(0),
    lastError: text('last_error'),
    /** For top-up plans: our eSIM that received the top-up (its esimIds entry). */
    topUpEsimId: text('top_up_esim_id'),
    /** Set when support was told about a failed fulfillment, so it is told once per order. */
    supportNotifiedAt: ts('support_notified_at'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    completedAt: ts('completed_at'),
    /** false for test-mode orders (svc_test_sk_ key): sandbox-provisioned, paid from the test wallet. */
    livemode: boolean('livemode').notNull().default(true),
  },
  (t) => [
    /** The account's order list (newest first, keyset on created_at, id): issue 12. */
    index('orders_account_list_idx').on(t.accountId, t.livemode, t.createdAt, t.id),
    /**
     * The operator's order list across accounts (newest first, keyset on created_at, id): issue
     * 33 O3. Without livemode in front, so one walk serves live, test and both; test orders are
     * few, so the live list skips little.
     */
    index('orders_created_list_idx').on(t.createdAt, t.id),
    /**
     * Open orders only, for the `esim_orders` gauge read at every scrape: its cost follows the
     * orders still in flight, not the history (docs/operations.md, Metrics).
     */
    index('orders_open_idx')
      .on(t.status)
      .where(sql`${t.status} in ('AWAITING_PAYMENT', 'PROCESSING')`),
  ],
);

export const esims = pgTable(
  'esims',
  {
    id: text('id').primaryKey(),
    orderId: text('order_id')
      .notNull()
      .references(() => orders.id),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id),
    planId: text('plan_id').notNull(),
    iccid: text('iccid').notNull(),
    /** The provider's own profile id (eSIM Access esimTranNo); ICCIDs can be reused upstream. */
    providerRef: text('provider_ref').notNull(),
    smdpAddress: text('smdp_address').notNull(),
    matchingId: text('matching_id').notNull(),
    activationCode: text('activation_code').notNull(),
    /** Unguessable token of the public QR code URL. */
    qrToken: text('qr_token').notNull().unique(),
    /**
     * Unguessable token of the hosted install page `/install/<token>` (issue 30 T2), distinct from
     * the QR token so the page can be revoked alone. Kept in plain, not hashed: every eSIM object
     * of the APIs and partner events carries the page's URL, so it is rebuilt on each read (and
     * the page shows nothing the row does not hold in plain already: the activation code).
     * New eSIMs and new links get randomToken(32) from the service (the completing statement's
     * event already carries the URL); the default gave the rows that existed when the column came
     * (a volatile default is evaluated per row): 32 bytes of two v4 UUIDs (244 random bits from
     * pg_strong_random) as base64url, 43 characters like the service's.
     */
    installToken: text('install_token')
      .notNull()
      .unique()
      .default(
        sql`translate(encode(decode(replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''), 'hex'), 'base64'), '+/=', '-_')`,
      ),
    status: text('status', { enum: ['PENDING', 'ACTIVE', 'DEPLETED', 'EXPIRED', 'CANCELLED'] })
      .notNull()
      .default('PENDING'),
    dataUsageMb: integer('data_usage_mb').notNull().default(0),
    totalVolumeMb: integer('total_volume_mb').notNull(),
    usageCheckedAt: ts('usage_checked_at'),
    /**
     * Highest usage threshold announced (0, 50, 80, 90, 100): esim.usage_threshold for a partner
     * eSIM, the traveller alert for a web one (an eSIM has one channel, so one mark serves both).
     * Lowered again when usage drops below it (a top-up), so the next crossing is announced.
     */
    usageThresholdNotified: integer('usage_threshold_notified').notNull().default(0),
    /** How often the usage mark was lowered: part of the alert's dedupe key (a new crossing, not a replay). */
    usageRearms: integer('usage_rearms').notNull().default(0),
    /** When the provider measured `dataUsageMb` (eSIM Access lastUpdateTime; a poll: its time). */
    usageUpdatedAt: ts('usage_updated_at'),
    /**
     * The profile's state on the device, from the provider's lifecycle (eSIM Access smdpStatus);
     * null until the provider reported one.
     */
    installState: text('install_state', {
      enum: ['RELEASED', 'INSTALLED', 'ENABLED', 'DISABLED', 'DELETED'],
    }),
    /** The install state esim.status_changed last announced: a change is announced once. */
    installStateNotified: text('install_state_notified'),
    /**
     * Fewest days left announced before expiry (3, then 1); null: none yet. Reset when the
     * validity moves beyond 3 days (a top-up), so the new end is announced again.
     */
    expiryNotified: integer('expiry_notified'),
    activatedAt: ts('activated_at'),
    expiresAt: ts('expires_at'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    /** Copied from the order: false for test-mode eSIMs (sandbox profiles). */
    livemode: boolean('livemode').notNull().default(true),
  },
  (t) => [
    unique('esims_provider_ref_unique').on(t.providerRef),
    /** The account's eSIM list (newest first, keyset on created_at, id): issue 12. */
    index('esims_account_list_idx').on(t.accountId, t.livemode, t.createdAt, t.id),
    index('esims_order_idx').on(t.orderId),
    index('esims_iccid_idx').on(t.iccid),
  ],
);

export const fulfillmentAttempts = pgTable(
  'fulfillment_attempts',
  {
    id: text('id').primaryKey(),
    orderId: text('order_id')
      .notNull()
      .references(() => orders.id),
    attempt: integer('attempt').notNull(),
    outcome: text('outcome', { enum: ['success', 'failure'] }).notNull(),
    /** Who made the attempt: the placing request, the background job or an operator. */
    source: text('source', { enum: ['request', 'job', 'admin'] })
      .notNull()
      .default('request'),
    error: text('error'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [index('fulfillment_attempts_order_idx').on(t.orderId)],
);

/**
 * Self-service cancellations (issue 31 L4): one row per order, the claim that lets exactly one
 * cancel of an order go to the provider and to the wallet. `pending`: claimed, the provider's
 * cancel may be under way (the `order.cancel` job finishes it if the request dies); `done`: the
 * order is REFUNDED; `released`: given up before anything was refunded (the eSIM was installed in
 * the meantime), the order stays COMPLETED. Pending and done rows count toward the account's
 * SELF_REFUNDS_PER_30_DAYS, per mode.
 */
export const orderCancellations = pgTable(
  'order_cancellations',
  {
    orderId: text('order_id')
      .primaryKey()
      .references(() => orders.id),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id),
    livemode: boolean('livemode').notNull(),
    status: text('status', { enum: ['pending', 'done', 'released'] }).notNull(),
    /** Why the claim was released (the provider's answer), for support. */
    error: text('error'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    completedAt: ts('completed_at'),
  },
  (t) => [index('order_cancellations_account_idx').on(t.accountId, t.livemode, t.createdAt)],
);
