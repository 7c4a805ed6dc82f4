import { and, eq, gte, lte, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { accounts, walletTransactions } from '../../db/schema/index.js';
import { assertCents } from '../../lib/money.js';
import { newId } from '../../lib/ids.js';
import { AppError } from '../errors.js';

export type WalletTransactionKind = 'deposit' | 'withdrawal' | 'purchase' | 'refund';

export interface LedgerEntry {
  accountId: string;
  kind: WalletTransactionKind;
  /** Positive USD cents; the sign is implied by the kind. */
  amountCents: number;
  /**
   * Globally unique reference of the business event (`payment:pay_x`, `order:ord_x:refund`).
   * A second post with the same reference changes nothing and returns `duplicate: true`.
   */
  reference: string;
  description?: string;
  orderId?: string | null;
  paymentId?: string | null;
  at: Date;
  /**
   * false: the test wallet (accounts.test_wallet_balance_cents), row written with livemode=false.
   * Default true (the real wallet). Test money never touches the live balance and vice versa.
   */
  livemode?: boolean;
}

export type LedgerResult =
  | { duplicate: false; transactionId: string; balanceAfterCents: number }
  | { duplicate: true; transactionId: string; balanceAfterCents: number };

/** Told of every balance change inside the posting transaction (wallet.low_balance, src/domain/events). */
export interface LedgerObserver {
  balanceChanged(
    tx: Tx,
    change: { accountId: string; beforeCents: number; afterCents: number; livemode: boolean },
  ): Promise<void>;
}

const CREDIT_KINDS: ReadonlySet<WalletTransactionKind> = new Set(['deposit', 'refund']);

/**
 * The only writer of wallet balances. Must be called inside the caller's transaction so that the
 * balance change, its transaction row and the business change (order, payment) commit together.
 *
 * Why this is safe under concurrency:
 * - The reference is claimed first with INSERT … ON CONFLICT DO NOTHING: of two parallel posts of
 *   one event only one inserts; the other sees no row and reports a duplicate.
 * - Debits are one conditional UPDATE (`balance >= amount`), which takes the row lock and
 *   re-checks after waiting for it, so parallel purchases can never overdraw. The CHECK
 *   constraint on the column is the last line of defence.
 */
export async function postLedgerEntry(
  tx: Tx,
  entry: LedgerEntry,
  observer?: LedgerObserver,
): Promise<LedgerResult> {
  assertCents(entry.amountCents);
  if (entry.amountCents <= 0) throw new RangeError('ledger amounts are positive; the kind gives the sign');
  const credit = CREDIT_KINDS.has(entry.kind);
  const signed = credit ? entry.amountCents : -entry.amountCents;
  const id = newId('wtx');
  const livemode = entry.livemode ?? true;
  const balance = livemode ? accounts.walletBalanceCents : accounts.testWalletBalanceCents;

  const inserted = await tx
    .insert(walletTransactions)
    .values({
      id,
      accountId: entry.accountId,
      kind: entry.kind,
      amountCents: signed,
      balanceAfterCents: 0,
      description: entry.description ?? '',
      orderId: entry.orderId ?? null,
      paymentId: entry.paymentId ?? null,
      reference: entry.reference,
      createdAt: entry.at,
      livemode,
    })
    .onConflictDoNothing({ target: walletTransactions.reference })
    .returning({ id: walletTransactions.id });

  if (inserted.length === 0) {
    const [existing] = await tx
      .select()
      .from(walletTransactions)
      .where(eq(walletTransactions.reference, entry.reference));
    // A reference names one business event; reusing it for other money is a bug that would
    // otherwise be swallowed silently as a "duplicate" and lose the second entry.
    if (
      existing!.accountId !== entry.accountId ||
      existing!.kind !== entry.kind ||
      existing!.amountCents !== signed ||
      existing!.livemode !== livemode
    ) {
      throw new Error(`ledger reference ${entry.reference} was already used for a different entry`);
    }
    return { duplicate: true, transactionId: existing!.id, balanceAfterCents: existing!.balanceAfterCents };
  }

  // A credit never takes the balance beyond Number.MAX_SAFE_INTEGER cents: the column is read as
  // a JS number, and past that it would silently lose cents.
  const condition = credit
    ? and(eq(accounts.id, entry.accountId), lte(balance, Number.MAX_SAFE_INTEGER - entry.amountCents))
    : and(eq(accounts.id, entry.accountId), gte(balance, entry.amountCents));
  const [updated] = await tx
    .update(accounts)
    .set({
      [livemode ? 'walletBalanceCents' : 'testWalletBalanceCents']: sql`${balance} + ${signed}`,
      updatedAt: entry.at,
    })
    .where(condition)
    .returning({ balance });
  if (!updated && credit) {
    throw new AppError('VALIDATION_ERROR', 'The wallet balance would exceed its maximum', {
      field: 'amount',
    });
  }
  if (!updated) {
    // Throwing rolls back the caller's transaction, including the reference row inserted above.
    throw new AppError('INSUFFICIENT_BALANCE', 'Wallet balance is below the amount', {
      requiredUsd: entry.amountCents / 100,
    });
  }
  await tx
    .update(walletTransactions)
    .set({ balanceAfterCents: updated.balance })
    .where(eq(walletTransactions.id, id));
  await observer?.balanceChanged(tx, {
    accountId: entry.accountId,
    beforeCents: updated.balance - signed,
    afterCents: updated.balance,
    livemode,
  });
  return { duplicate: false, transactionId: id, balanceAfterCents: updated.balance };
}
