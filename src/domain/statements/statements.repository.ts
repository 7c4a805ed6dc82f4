import { and, asc, desc, eq, gte, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { frozenStatements, walletTransactions } from '../../db/schema/index.js';

export type LedgerRow = typeof walletTransactions.$inferSelect;

/** Ledger order: time, then insertion (two rows of one millisecond keep the order they were posted in). */
const ledgerOrder = [asc(walletTransactions.createdAt), asc(walletTransactions.seq)];

/**
 * The SQL of statements (issue 32 C6): reads of the wallet ledger by period, on
 * wallet_transactions_account_list_idx (account, livemode, created_at, seq), and the stored
 * statements of closed months.
 */
export const statementsRepository = {
  /** The balance after the last row before `at` (0 when there is none): a period's opening balance. */
  async balanceBefore(db: DbOrTx, accountId: string, livemode: boolean, at: Date): Promise<number> {
    const [row] = await db
      .select({ balance: walletTransactions.balanceAfterCents })
      .from(walletTransactions)
      .where(
        and(
          eq(walletTransactions.accountId, accountId),
          eq(walletTransactions.livemode, livemode),
          lt(walletTransactions.createdAt, at),
        ),
      )
      .orderBy(desc(walletTransactions.createdAt), desc(walletTransactions.seq))
      .limit(1);
    return row?.balance ?? 0;
  },

  /** Every row of one mode from `from` (inclusive) to `to` (exclusive), oldest first. */
  async rows(db: DbOrTx, accountId: string, livemode: boolean, from: Date, to: Date): Promise<LedgerRow[]> {
    return db
      .select()
      .from(walletTransactions)
      .where(
        and(
          eq(walletTransactions.accountId, accountId),
          eq(walletTransactions.livemode, livemode),
          gte(walletTransactions.createdAt, from),
          lt(walletTransactions.createdAt, to),
        ),
      )
      .orderBy(...ledgerOrder);
  },

  /** The UTC months (YYYY-MM) with at least one row of the mode, newest first. */
  async activeMonths(db: DbOrTx, accountId: string, livemode: boolean): Promise<string[]> {
    const month = sql<string>`to_char(${walletTransactions.createdAt} at time zone 'UTC', 'YYYY-MM')`;
    const rows = await db
      .selectDistinct({ month })
      .from(walletTransactions)
      .where(and(eq(walletTransactions.accountId, accountId), eq(walletTransactions.livemode, livemode)))
      .orderBy(desc(month));
    return rows.map((r) => r.month);
  },

  async findFrozen(db: DbOrTx, accountId: string, livemode: boolean, month: string): Promise<unknown> {
    const [row] = await db
      .select({ body: frozenStatements.body })
      .from(frozenStatements)
      .where(
        and(
          eq(frozenStatements.accountId, accountId),
          eq(frozenStatements.livemode, livemode),
          eq(frozenStatements.month, month),
        ),
      );
    return row?.body;
  },

  /**
   * Stores a closed month's statement unless one is stored already (two first requests at once:
   * the first write wins), and returns the stored one, so both callers serve the same copy.
   */
  async freeze(
    db: DbOrTx,
    row: { accountId: string; livemode: boolean; month: string; body: unknown; createdAt: Date },
  ): Promise<unknown> {
    await db.insert(frozenStatements).values(row).onConflictDoNothing();
    return statementsRepository.findFrozen(db, row.accountId, row.livemode, row.month);
  },
};
