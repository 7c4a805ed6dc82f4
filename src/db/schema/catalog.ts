import { bigint, boolean, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from './accounts.js';

/**
 * Plans are imported from the eSIM provider's package list by the catalog sync; they are never
 * deleted, only deactivated, because orders reference them.
 */
export const plans = pgTable(
  'plans',
  {
    id: text('id').primaryKey(),
    provider: text('provider').notNull(),
    providerPackageCode: text('provider_package_code').notNull().unique(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    /** country | region | global */
    scope: text('scope', { enum: ['country', 'region', 'global'] }).notNull(),
    /** ISO alpha-2 for country plans, our region code for regional and global plans. */
    destinationCode: text('destination_code').notNull(),
    /** ISO alpha-2 codes the plan covers. */
    coverage: jsonb('coverage').$type<string[]>().notNull(),
    dataAmountMb: integer('data_amount_mb').notNull(),
    durationDays: integer('duration_days').notNull(),
    isTopUp: boolean('is_top_up').notNull().default(false),
    /**
     * When validity starts: on the eSIM's installation or on its first connection to a network
     * (eSIM Access `activeType` 1 / 2). Most packages count from the first connection.
     */
    activationPolicy: text('activation_policy', { enum: ['first_install', 'first_connection'] })
      .notNull()
      .default('first_connection'),
    /** A base plan whose eSIM takes top-up packages later (eSIM Access `supportTopUpType` ≠ 1). */
    topUpSupported: boolean('top_up_supported').notNull().default(false),
    wholesaleCents: bigint('wholesale_cents', { mode: 'number' }).notNull(),
    /** Retail price computed by the sync from wholesale × markup. */
    priceCents: bigint('price_cents', { mode: 'number' }).notNull(),
    /** Operator override; survives syncs. The effective price is override ?? price. */
    priceOverrideCents: bigint('price_override_cents', { mode: 'number' }),
    active: boolean('active').notNull().default(true),
    /** Operator switch that survives syncs: false keeps a plan hidden even when offered. */
    enabledByOperator: boolean('enabled_by_operator').notNull().default(true),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    lastSyncedAt: ts('last_synced_at'),
  },
  /** Also the operator's plan list order (destination, base before top-up, size, id): issue 12. */
  (t) => [index('plans_list_idx').on(t.destinationCode, t.isTopUp, t.dataAmountMb, t.id)],
);

/** Units of a currency per 1 USD, as a decimal string (never a float in storage). */
export const exchangeRates = pgTable('exchange_rates', {
  currency: text('currency').primaryKey(),
  ratePerUsd: text('rate_per_usd').notNull(),
  updatedAt: ts('updated_at').notNull(),
});

/**
 * Every rate as it was set, from when (issue 30 T4/T9): a receipt states the display-currency
 * amount at the rate in force when the purchase was made, and the rate's date, without writing a
 * rate into each order on the order path. Appended by every change of `exchange_rates`, never updated.
 */
export const exchangeRateHistory = pgTable(
  'exchange_rate_history',
  {
    id: text('id').primaryKey(),
    currency: text('currency').notNull(),
    ratePerUsd: text('rate_per_usd').notNull(),
    effectiveAt: ts('effective_at').notNull(),
  },
  (t) => [index('exchange_rate_history_lookup_idx').on(t.currency, t.effectiveAt)],
);

/**
 * One row (`id = 'catalog'`) whose version is bumped in the same transaction as every plan or
 * exchange-rate change. Instances compare it with the version their response cache was built
 * from, so a change made through any instance invalidates every instance's cache.
 */
export const catalogState = pgTable('catalog_state', {
  id: text('id').primaryKey(),
  version: integer('version').notNull(),
  updatedAt: ts('updated_at').notNull(),
});
