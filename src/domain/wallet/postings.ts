import type { Tx } from '../../db/client.js';
import { newId } from '../../lib/ids.js';
import { assertCents } from '../../lib/money.js';
import { postLedgerEntry, type LedgerObserver, type LedgerResult, type PurchaseValues } from './ledger.js';

export { purchaseSteps } from './ledger.js';

/**
 * The wallet's postings: every change of a balance (live `accounts.wallet_balance_cents` or the
 * test wallet's `accounts.test_wallet_balance_cents`) is one of these functions, which writes the
 * balance change and its ledger row together in the caller's transaction. Orders, payments, test
 * mode and the operator wallet route call them; nothing else writes ledger rows or balances,
 * except `purchaseSteps` (from ./ledger.ts, with `purchaseValues`): the same purchase posting as
 * CTEs of the order's own statement, for the usual wallet order placed in one statement.
 *
 * The database enforces each kind's sign (migration 0002): purchase and withdrawal negative,
 * deposit and refund positive, never zero; balances and `balance_after_cents` never negative.
 */

/** Every ledger reference is built here: one business event, one reference, one posting. */
export const ledgerReference = {
  purchase: (orderId: string) => `order:${orderId}:purchase`,
  refund: (orderId: string) => `order:${orderId}:refund`,
  deposit: (paymentId: string) => `payment:${paymentId}`,
  /** Operator adjustments and test-wallet resets are each their own event. */
  adjustment: () => `adjustment:${newId('wtx')}`,
  testWalletOpening: (accountId: string) => `testwallet:${accountId}:opening`,
  testWalletReset: () => `testwallet:reset:${newId('wtx')}`,
} as const;

/** The order fields a purchase or refund posting needs. */
export interface OrderMoney {
  id: string;
  accountId: string;
  orderNumber: string;
  amountCents: number;
  /** false: a test-mode order, paid from (and refunded to) the test wallet. */
  livemode: boolean;
}

/** The description of an order's ledger row, as the wallet lists it. */
function orderEntryDescription(kind: 'purchase' | 'refund', order: OrderMoney): string {
  return kind === 'purchase' ? `Order ${order.orderNumber}` : `Refund of order ${order.orderNumber}`;
}

/** An order's own posting: its charge or its refund, on the wallet it was paid from. */
function postOrderEntry(
  tx: Tx,
  order: OrderMoney,
  kind: 'purchase' | 'refund',
  at: Date,
  observer?: LedgerObserver,
): Promise<LedgerResult> {
  return postLedgerEntry(
    tx,
    {
      accountId: order.accountId,
      kind,
      amountCents: order.amountCents,
      reference: ledgerReference[kind](order.id),
      description: orderEntryDescription(kind, order),
      orderId: order.id,
      at,
      livemode: order.livemode,
    },
    observer,
  );
}

/** Charges the order's amount (kind `purchase`); too little balance → INSUFFICIENT_BALANCE. */
export function chargePurchase(
  tx: Tx,
  order: OrderMoney,
  at: Date,
  observer?: LedgerObserver,
): Promise<LedgerResult> {
  return postOrderEntry(tx, order, 'purchase', at, observer);
}

/**
 * The values of `purchaseSteps` (./ledger.ts) for an order's charge: the posting
 * `chargePurchase` would write, for a caller that writes it within its own statement.
 */
export function purchaseValues(order: OrderMoney, at: Date): PurchaseValues {
  assertCents(order.amountCents);
  if (order.amountCents <= 0) throw new RangeError('ledger amounts are positive; the kind gives the sign');
  return {
    id: newId('wtx'),
    accountId: order.accountId,
    amountCents: order.amountCents,
    reference: ledgerReference.purchase(order.id),
    description: orderEntryDescription('purchase', order),
    orderId: order.id,
    at,
  };
}

/** Returns the order's amount to the wallet it was paid from (kind `refund`), at most once. */
export function refundPurchase(
  tx: Tx,
  order: OrderMoney,
  at: Date,
  observer?: LedgerObserver,
): Promise<LedgerResult> {
  return postOrderEntry(tx, order, 'refund', at, observer);
}

/** Money received by a payment (card or crypto) credited to the live wallet, at most once. */
export function creditDeposit(
  tx: Tx,
  payment: { id: string; accountId: string; usdCents: number; orderId?: string | null },
  description: string,
  at: Date,
  observer?: LedgerObserver,
): Promise<LedgerResult> {
  return postLedgerEntry(
    tx,
    {
      accountId: payment.accountId,
      kind: 'deposit',
      amountCents: payment.usdCents,
      reference: ledgerReference.deposit(payment.id),
      description,
      orderId: payment.orderId ?? null,
      paymentId: payment.id,
      at,
    },
    observer,
  );
}

export interface Adjustment {
  accountId: string;
  /** Signed, non-zero USD cents: positive credits (`deposit`), negative debits (`withdrawal`). */
  amountCents: number;
  description: string;
  at: Date;
  /** false: the test wallet. Default true. */
  livemode?: boolean;
  /** Default: a new `adjustment:` reference. Fixed references make an adjustment once-only. */
  reference?: string;
}

/**
 * An operator credit or debit (or a test-wallet opening/reset): either sign, never zero; a debit
 * never overdraws (INSUFFICIENT_BALANCE).
 */
export function postAdjustment(tx: Tx, input: Adjustment, observer?: LedgerObserver): Promise<LedgerResult> {
  if (!Number.isSafeInteger(input.amountCents) || input.amountCents === 0)
    throw new RangeError('an adjustment is a non-zero whole number of cents');
  return postLedgerEntry(
    tx,
    {
      accountId: input.accountId,
      kind: input.amountCents > 0 ? 'deposit' : 'withdrawal',
      amountCents: Math.abs(input.amountCents),
      reference: input.reference ?? ledgerReference.adjustment(),
      description: input.description,
      at: input.at,
      livemode: input.livemode ?? true,
    },
    observer,
  );
}
