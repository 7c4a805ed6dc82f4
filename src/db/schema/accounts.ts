import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const accounts = pgTable(
  'accounts',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull().unique(),
    emailVerified: boolean('email_verified').notNull().default(false),
    passwordHash: text('password_hash'),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    preferredCurrency: text('preferred_currency').notNull().default('USD'),
    locale: text('locale').notNull().default('tr'),
    /** Traveller alerts (issue 31 L2) by e-mail / by push to the account's devices. */
    notifyEmail: boolean('notify_email').notNull().default(true),
    notifyPush: boolean('notify_push').notNull().default(true),
    status: text('status', { enum: ['ACTIVE', 'SUSPENDED', 'BANNED', 'DELETED'] })
      .notNull()
      .default('ACTIVE'),
    /** USD cents; only the wallet ledger writes it (src/domain/wallet/ledger.ts). */
    walletBalanceCents: bigint('wallet_balance_cents', { mode: 'number' }).notNull().default(0),
    /** wallet.low_balance fires when a debit takes the balance below this (USD cents). */
    lowBalanceThresholdCents: bigint('low_balance_threshold_cents', { mode: 'number' })
      .notNull()
      .default(5000),
    apiKeyHash: text('api_key_hash').unique(),
    apiKeyPrefix: text('api_key_prefix'),
    apiKeyGeneratedAt: ts('api_key_generated_at'),
    /** Test mode (docs/partner-reference.md "Test mode"): the svc_test_sk_ key, shown like the live one. */
    testApiKeyHash: text('test_api_key_hash').unique(),
    testApiKeyPrefix: text('test_api_key_prefix'),
    testApiKeyGeneratedAt: ts('test_api_key_generated_at'),
    /**
     * USD cents of the test wallet (test-mode orders pay from it); like the live balance, only the
     * wallet ledger writes it, with livemode=false rows. Opened at US$1,000.00 with the first test key.
     */
    testWalletBalanceCents: bigint('test_wallet_balance_cents', { mode: 'number' }).notNull().default(0),
    /** The test wallet's own low-balance threshold: a test key never reads or sets the live one. */
    testLowBalanceThresholdCents: bigint('test_low_balance_threshold_cents', { mode: 'number' })
      .notNull()
      .default(5000),
    /**
     * The partner's price rule (issue 32 C5; src/domain/pricing): null = retail. Kept on the
     * account so the Partner API's key check, a read every request makes anyway, carries it: the
     * order path gains no query. Percentages in basis points (1250 = 12.5%).
     */
    priceRule: text('price_rule', { enum: ['discount', 'markup'] }),
    priceRuleBps: integer('price_rule_bps'),
    priceMinMarginBps: integer('price_min_margin_bps'),
    priceRuleUpdatedAt: ts('price_rule_updated_at'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    deletedAt: ts('deleted_at'),
  },
  (t) => [
    check('accounts_wallet_balance_nonnegative', sql`${t.walletBalanceCents} >= 0`),
    check(
      'accounts_price_rule_complete',
      sql`(${t.priceRule} is null) = (${t.priceRuleBps} is null) and (${t.priceRule} is null) = (${t.priceMinMarginBps} is null)`,
    ),
    check('accounts_test_wallet_balance_nonnegative', sql`${t.testWalletBalanceCents} >= 0`),
    /** The operator's account list, newest first (issue 12). */
    index('accounts_list_idx').on(t.createdAt, t.id),
  ],
);

export const avatars = pgTable('avatars', {
  accountId: text('account_id')
    .primaryKey()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  /** Unguessable path segment of the public avatar URL; changes with every upload. */
  token: text('token').notNull().unique(),
  contentType: text('content_type').notNull(),
  bytes: bytea('bytes').notNull(),
  updatedAt: ts('updated_at').notNull(),
});

export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** SHA-256 of the raw token; the raw token is only ever in the client's hands. */
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('sessions_account_idx').on(t.accountId), index('sessions_expires_idx').on(t.expiresAt)],
);

export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
  },
  (t) => [index('password_reset_tokens_account_idx').on(t.accountId)],
);

/** A browser's PushSubscription as the Push API gives it (`subscription.toJSON()`). */
export interface WebPushSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export const pushDevices = pgTable(
  'push_devices',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    platform: text('platform', { enum: ['IOS', 'ANDROID', 'WEB'] }).notNull(),
    /** APNs or FCM token; for WEB the subscription's endpoint (one browser profile's install). */
    pushToken: text('push_token').notNull().unique(),
    /** WEB only: the browser's PushSubscription (endpoint and encryption keys) Web Push needs. */
    subscription: jsonb('subscription').$type<WebPushSubscription>(),
    appVersion: text('app_version'),
    createdAt: ts('created_at').notNull(),
    lastSeenAt: ts('last_seen_at').notNull(),
  },
  (t) => [index('push_devices_account_idx').on(t.accountId)],
);

export { ts, bytea };
