import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { keysetAfter, type KeyValue } from '../../db/keyset.js';
import { accounts, walletTransactions } from '../../db/schema/index.js';
import type { Clock } from '../../lib/clock.js';
import type { AuditService } from '../audit/audit.service.js';
import type { WalletColumns } from '../events/partner-objects.js';
import { AppError } from '../errors.js';
import type { LedgerObserver } from './ledger.js';
import { ledgerReference, postAdjustment } from './postings.js';

export type WalletTransaction = typeof walletTransactions.$inferSelect;

export const TRANSACTIONS_DEFAULT_LIMIT = 50;
export const TRANSACTIONS_MAX_LIMIT = 100;

export interface AdjustmentInput {
  accountId: string;
  /** Signed USD cents: positive credits (deposit), negative debits (withdrawal). */
  amountCents: number;
  reason: string;
  requestId?: string;
}

/** Reads of the wallet ledger and operator adjustments; every write is a posting of ./postings.ts. */
export function createWalletService(deps: {
  db: Db;
  clock: Clock;
  audit: AuditService;
  /** Told of every posting (wallet.low_balance); optional for narrow tests. */
  ledgerObserver?: LedgerObserver;
}) {
  const { db, clock } = deps;

  return {
    /** Both wallets' balances and thresholds of the account (GET /api/public/v1/wallet). */
    async balances(accountId: string): Promise<WalletColumns> {
      const [row] = await db
        .select({
          walletBalanceCents: accounts.walletBalanceCents,
          testWalletBalanceCents: accounts.testWalletBalanceCents,
          lowBalanceThresholdCents: accounts.lowBalanceThresholdCents,
          testLowBalanceThresholdCents: accounts.testLowBalanceThresholdCents,
        })
        .from(accounts)
        .where(eq(accounts.id, accountId));
      if (!row) throw new AppError('ACCOUNT_NOT_FOUND', 'Account not found');
      return row;
    },

    /**
     * Newest first; ties within one millisecond fall back to insertion order. Live rows only unless
     * `livemode` is false (the test wallet's rows).
     */
    async listTransactions(
      accountId: string,
      limit = TRANSACTIONS_DEFAULT_LIMIT,
      livemode = true,
      /** Keyset position [createdAt, seq] of the last row of the previous page (cursor pagination). */
      after?: readonly KeyValue[],
    ): Promise<WalletTransaction[]> {
      return db
        .select()
        .from(walletTransactions)
        .where(
          and(
            eq(walletTransactions.accountId, accountId),
            eq(walletTransactions.livemode, livemode),
            after
              ? keysetAfter([walletTransactions.createdAt, walletTransactions.seq], after, 'desc')
              : undefined,
          ),
        )
        .orderBy(desc(walletTransactions.createdAt), desc(walletTransactions.seq))
        .limit(Math.min(Math.max(limit, 1), TRANSACTIONS_MAX_LIMIT + 1));
    },

    /**
     * Every row of one mode, newest first, with no page cap: the account's data export
     * (GET /user/export) must hold the whole history, not the newest page of it.
     */
    async listAllTransactions(accountId: string, livemode = true): Promise<WalletTransaction[]> {
      return db
        .select()
        .from(walletTransactions)
        .where(and(eq(walletTransactions.accountId, accountId), eq(walletTransactions.livemode, livemode)))
        .orderBy(desc(walletTransactions.createdAt), desc(walletTransactions.seq));
    },

    /** The order's purchase and refund postings, oldest first (on the unique reference). */
    async transactionsOfOrder(orderId: string): Promise<WalletTransaction[]> {
      return db
        .select()
        .from(walletTransactions)
        .where(
          inArray(walletTransactions.reference, [
            ledgerReference.purchase(orderId),
            ledgerReference.refund(orderId),
          ]),
        )
        .orderBy(asc(walletTransactions.createdAt), asc(walletTransactions.seq));
    },

    /**
     * Sets the low-balance threshold of one mode (wallet.low_balance, issue 28 H5): a test key sets
     * the test wallet's threshold and never the live one. USD with at most two decimals.
     */
    async setLowBalanceThreshold(accountId: string, livemode: boolean, thresholdUsd: number) {
      const cents = Math.round(thresholdUsd * 100);
      if (!Number.isSafeInteger(cents) || cents < 0 || Math.abs(cents - thresholdUsd * 100) > 1e-6) {
        throw new AppError('VALIDATION_ERROR', 'lowBalanceThreshold must have at most two decimals', {
          field: 'lowBalanceThreshold',
        });
      }
      const [account] = await db
        .update(accounts)
        .set({
          ...(livemode ? { lowBalanceThresholdCents: cents } : { testLowBalanceThresholdCents: cents }),
          updatedAt: clock.now(),
        })
        .where(eq(accounts.id, accountId))
        .returning();
      if (!account) throw new AppError('ACCOUNT_NOT_FOUND', 'Account not found');
      return account;
    },

    /** Operator credit or debit with its audit row, in one transaction; a debit never overdraws. */
    async adjust(input: AdjustmentInput): Promise<{ transaction: WalletTransaction; balanceCents: number }> {
      if (!Number.isSafeInteger(input.amountCents) || input.amountCents === 0) {
        throw new AppError('VALIDATION_ERROR', 'amountUsd must be a non-zero amount', { field: 'amountUsd' });
      }
      return db.transaction(async (tx) => {
        const [account] = await tx
          .select({ id: accounts.id, balance: accounts.walletBalanceCents })
          .from(accounts)
          .where(eq(accounts.id, input.accountId));
        if (!account) throw new AppError('ACCOUNT_NOT_FOUND', 'Account not found');
        const posted = await postAdjustment(
          tx,
          {
            accountId: account.id,
            amountCents: input.amountCents,
            description: input.reason,
            at: clock.now(),
          },
          deps.ledgerObserver,
        );
        await deps.audit.record(tx, {
          action: 'wallet.adjust',
          targetType: 'account',
          targetId: account.id,
          before: { walletBalanceCents: posted.balanceAfterCents - input.amountCents },
          after: {
            walletBalanceCents: posted.balanceAfterCents,
            amountCents: input.amountCents,
            reason: input.reason,
          },
          requestId: input.requestId,
        });
        const [transaction] = await tx
          .select()
          .from(walletTransactions)
          .where(eq(walletTransactions.id, posted.transactionId));
        return { transaction: transaction!, balanceCents: posted.balanceAfterCents };
      });
    },
  };
}

export type WalletService = ReturnType<typeof createWalletService>;
