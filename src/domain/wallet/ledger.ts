import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.js';
import { assertCents } from '../../lib/money.js';
import { newId } from '../../lib/ids.js';
import { rowsOf as rowsOfStep, step } from '../../db/steps.js';
import { AppError } from '../errors.js';

export type WalletTransactionKind = 'deposit' | 'withdrawal' | 'purchase' | 'refund';

export interface LedgerEntry {
  accountId: string;
  kind: WalletTransactionKind;
  /** Positive USD cents; the sign is implied by the kind. */
  amountCents: number;
  /**
   * Globally unique reference of the business event (`payment:pay_x`, `order:ord_x:refund`),
   * built by `ledgerReference` (./postings.ts). A second post with the same reference changes
   * nothing and returns `duplicate: true`.
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
    change: {
      accountId: string;
      beforeCents: number;
      afterCents: number;
      livemode: boolean;
      /** The posted mode's low-balance threshold, read by the posting itself (saves the observer a read). */
      lowBalanceThresholdCents?: number;
    },
  ): Promise<void>;
}

const CREDIT_KINDS: ReadonlySet<WalletTransactionKind> = new Set(['deposit', 'refund']);

interface PostedRow {
  balance: string | number | bigint;
  threshold: string | number | bigint;
  inserted: string | number | bigint;
}

/** Each mode has its own balance and its own low-balance threshold (docs/partner-reference.md "Test mode"). */
function modeColumns(livemode: boolean) {
  return livemode
    ? { balance: sql.raw('wallet_balance_cents'), threshold: sql.raw('low_balance_threshold_cents') }
    : {
        balance: sql.raw('test_wallet_balance_cents'),
        threshold: sql.raw('test_low_balance_threshold_cents'),
      };
}

/** Rows of `tx.execute` on either driver (node-postgres QueryResult or PGlite Results). */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/**
 * The writer of wallet balances and ledger rows (with `purchaseSteps` below, which writes a
 * purchase from another area's statement); the wallet's posting functions (./postings.ts) are
 * its only callers in the service. Must be called inside the caller's
 * transaction so that the balance change, its ledger row and the business change (order,
 * payment) commit together.
 *
 * One statement does the work: a conditional UPDATE of the balance and, from its result, the
 * INSERT of the ledger row with the balance after it (ON CONFLICT (reference) DO NOTHING).
 *
 * Why this is safe under concurrency:
 * - Debits are a conditional UPDATE (`balance >= amount`), which takes the row lock and re-checks
 *   after waiting for it, so parallel purchases can never overdraw. The CHECK constraints on the
 *   balance columns and on the ledger row (sign of the kind, balance after ≥ 0) are the last line
 *   of defence.
 * - The reference is unique: of two parallel posts of one event the second waits on the account
 *   row, then finds the reference taken; its balance change is undone in the same transaction and
 *   it reports a duplicate. A replay whose debit would no longer fit also reports the duplicate.
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
  const { balance } = modeColumns(livemode);
  const [posted] = rowsOf<PostedRow>(await tx.execute(postingStatement(entry, id)));

  if (posted && Number(posted.inserted) === 1) {
    const after = Number(posted.balance);
    await observer?.balanceChanged(tx, {
      accountId: entry.accountId,
      beforeCents: after - signed,
      afterCents: after,
      livemode,
      lowBalanceThresholdCents: Number(posted.threshold),
    });
    return { duplicate: false, transactionId: id, balanceAfterCents: after };
  }
  if (posted) {
    // The reference was taken: undo this statement's balance change (the row is locked by us).
    await tx.execute(
      sql`update accounts set ${balance} = ${balance} - ${signed}::bigint where id = ${entry.accountId}`,
    );
  }
  const duplicate = await existingEntry(tx, entry, signed, livemode);
  if (duplicate) return duplicate;
  if (credit) {
    throw new AppError('VALIDATION_ERROR', 'The wallet balance would exceed its maximum', {
      field: 'amount',
    });
  }
  // Throwing rolls back the caller's transaction.
  throw new AppError('INSUFFICIENT_BALANCE', 'Wallet balance is below the amount', {
    requiredUsd: entry.amountCents / 100,
  });
}

/**
 * The posting's statement: a conditional UPDATE of the balance and, from its result, the INSERT
 * of the ledger row with the balance after it (ON CONFLICT (reference) DO NOTHING). A credit never
 * takes the balance beyond Number.MAX_SAFE_INTEGER cents: the column is read as a JS number, and
 * past that it would silently lose cents. Exported for the SQL snapshots (sql/).
 */
export function postingStatement(entry: LedgerEntry, id: string): SQL {
  const credit = CREDIT_KINDS.has(entry.kind);
  const signed = credit ? entry.amountCents : -entry.amountCents;
  const livemode = entry.livemode ?? true;
  const { balance, threshold } = modeColumns(livemode);
  const at = entry.at.toISOString();
  const fits = credit
    ? sql`${balance} <= ${Number.MAX_SAFE_INTEGER - entry.amountCents}::bigint`
    : sql`${balance} >= ${entry.amountCents}::bigint`;
  return sql`
    with moved as (
      update accounts set ${balance} = ${balance} + ${signed}::bigint, updated_at = ${at}::timestamptz
      where id = ${entry.accountId} and ${fits}
      returning ${balance} as balance, ${threshold} as threshold
    ), ins as (
      insert into wallet_transactions
        (id, account_id, kind, amount_cents, balance_after_cents, description, order_id, payment_id,
         reference, created_at, livemode)
      select ${id}::text, ${entry.accountId}::text, ${entry.kind}::text, ${signed}::bigint, moved.balance,
        ${entry.description ?? ''}::text, ${entry.orderId ?? null}::text, ${entry.paymentId ?? null}::text,
        ${entry.reference}::text, ${at}::timestamptz, ${livemode}::boolean
      from moved
      on conflict (reference) do nothing
      returning id
    )
    select moved.balance, moved.threshold, (select count(*) from ins) as inserted from moved`;
}

/**
 * A purchase as steps of another operation's statement (src/db/steps.ts), for an order placed in
 * one statement: `moved` (the balance change, one row when it happened, with the balance after,
 * the mode's threshold and the amount) and `posted` (its ledger row, from `moved`). The caller
 * writes its own rows from `moved`, so the business change and its money commit together.
 *
 * It moves money only when the balance covers the amount and `gate` (the caller's condition, e.g.
 * `produced(earlierStep)`) holds; otherwise nothing is written. The reference must be new (a
 * fresh order's): a taken one fails the whole statement. `crossedThreshold` and `walletData` let
 * the caller announce the crossing of the low-balance threshold from the same statement, as the
 * ledger observer does for postings in a transaction. Both steps take `purchaseValues(…)`.
 */
export function purchaseSteps(livemode: boolean, gate: SQL) {
  const { balance, threshold } = modeColumns(livemode);
  const moved = step<PurchaseValues, unknown>('moved', (db, p, name) => {
    const amount = sql`${p('amountCents')}::bigint`;
    return db.$with(name, {}).as(
      sql`update accounts set ${balance} = ${balance} - ${amount}, updated_at = ${p('at')}::timestamptz
        where id = ${p('accountId')}::text and ${balance} >= ${amount} and ${gate}
        returning ${balance} as balance, ${threshold} as threshold, ${amount} as amount`,
    );
  });
  const posted = step<PurchaseValues, unknown>('posted', (db, p, name) =>
    db.$with(name, {}).as(
      sql`insert into wallet_transactions
          (id, account_id, kind, amount_cents, balance_after_cents, description, order_id, payment_id,
           reference, created_at, livemode)
        select ${p('id')}::text, ${p('accountId')}::text, 'purchase', -m.amount, m.balance,
          ${p('description')}::text, ${p('orderId')}::text, null, ${p('reference')}::text,
          ${p('at')}::timestamptz, ${livemode}
        from ${rowsOfStep(moved)} m`,
    ),
  );
  return {
    moved,
    posted,
    /** Over a row of `moved`: this debit took the balance from ≥ threshold to below it. */
    crossedThreshold: sql`balance < threshold and balance + amount >= threshold`,
    /**
     * Over a row of `moved`: the Wallet as `presentPartnerWallet` presents it (the
     * wallet.low_balance data); test/http/partner/events.test.ts holds the two equal.
     */
    walletData: sql`jsonb_build_object('balanceUsd', round(balance / 100.0, 2), 'currency', 'USD',
      'lowBalanceThreshold', round(threshold / 100.0, 2))`,
  };
}

/** The balance of the account's wallet of this mode, in cents; undefined for no such account. */
export async function balanceOf(
  db: DbOrTx,
  accountId: string,
  livemode: boolean,
): Promise<number | undefined> {
  const { balance } = modeColumns(livemode);
  const [row] = rowsOf<{ balance: string | number }>(
    await db.execute(sql`select ${balance} as balance from accounts where id = ${accountId}`),
  );
  return row ? Number(row.balance) : undefined;
}

/** The values of `purchaseSteps`' steps. */
export type PurchaseValues = {
  id: string;
  accountId: string;
  amountCents: number;
  reference: string;
  description: string;
  orderId: string;
  at: Date;
};

/** The row already posted under this reference, checked to be the same entry; null if none. */
async function existingEntry(
  tx: Tx,
  entry: LedgerEntry,
  signed: number,
  livemode: boolean,
): Promise<LedgerResult | null> {
  const [existing] = rowsOf<{
    id: string;
    account_id: string;
    kind: string;
    amount_cents: string | number;
    balance_after_cents: string | number;
    livemode: boolean;
  }>(
    await tx.execute(
      sql`select id, account_id, kind, amount_cents, balance_after_cents, livemode
          from wallet_transactions where reference = ${entry.reference}`,
    ),
  );
  if (!existing) return null;
  // A reference names one business event; reusing it for other money is a bug that would
  // otherwise be swallowed silently as a "duplicate" and lose the second entry.
  if (
    existing.account_id !== entry.accountId ||
    existing.kind !== entry.kind ||
    Number(existing.amount_cents) !== signed ||
    existing.livemode !== livemode
  ) {
    throw new Error(`ledger reference ${entry.reference} was already used for a different entry`);
  }
  return {
    duplicate: true,
    transactionId: existing.id,
    balanceAfterCents: Number(existing.balance_after_cents),
  };
}
