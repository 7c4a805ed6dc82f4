import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, check, index, pgTable, text } from 'drizzle-orm/pg-core';
import { accounts, ts } from './accounts.js';

/**
 * The wallet ledger. Every change of accounts.wallet_balance_cents has exactly one row here,
 * written in the same database transaction (src/domain/wallet/ledger.ts). `reference` is unique:
 * it is what makes a replayed webhook or a repeated refund a no-op instead of a second credit.
 */
export const walletTransactions = pgTable(
  'wallet_transactions',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id),
    kind: text('kind', { enum: ['deposit', 'withdrawal', 'purchase', 'refund'] }).notNull(),
    /** Signed USD cents: positive for deposit/refund, negative for withdrawal/purchase. */
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    balanceAfterCents: bigint('balance_after_cents', { mode: 'number' }).notNull(),
    description: text('description').notNull().default(''),
    orderId: text('order_id'),
    paymentId: text('payment_id'),
    reference: text('reference').notNull().unique(),
    createdAt: ts('created_at').notNull(),
    /** Insertion order: breaks ties between rows written in the same millisecond (newest first). */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    /**
     * false: a row of the test wallet (accounts.test_wallet_balance_cents). The invariant
     * "balance = Σ amount_cents" holds per account and mode.
     */
    livemode: boolean('livemode').notNull().default(true),
  },
  (t) => [
    /** The account's history per mode, newest first (keyset on created_at, seq): issue 12. */
    index('wallet_transactions_account_list_idx').on(t.accountId, t.livemode, t.createdAt, t.seq),
    // The sign of each kind: money in (deposit: top-up, payment, operator credit; refund) is
    // positive, money out (purchase; withdrawal: operator debit) negative; never zero. This also
    // refuses any other kind.
    check(
      'wallet_transactions_amount_sign',
      sql`(${t.kind} in ('deposit', 'refund') and ${t.amountCents} > 0) or (${t.kind} in ('purchase', 'withdrawal') and ${t.amountCents} < 0)`,
    ),
    check('wallet_transactions_balance_after_nonnegative', sql`${t.balanceAfterCents} >= 0`),
  ],
);
