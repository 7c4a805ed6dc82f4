import { csv, centsText, type CsvValue } from '../../lib/csv.js';
import { centsToUsd } from '../../lib/money.js';
import { AppError } from '../errors.js';
import type { LedgerRow } from './statements.repository.js';

/**
 * A partner's monthly statement (issue 32 C6; docs/partner-guide.md "Statements"): the opening
 * balance, every ledger row of the month, the closing balance and totals per kind. Months are
 * UTC. Amounts are USD numbers with at most two decimals; every sum is made in integer cents.
 */

/** What a ledger row is to an accountant. */
export type StatementKind = 'top_up' | 'order' | 'refund' | 'adjustment';
export const STATEMENT_KINDS: readonly StatementKind[] = ['top_up', 'order', 'refund', 'adjustment'];

export interface StatementLine {
  id: string;
  /** ISO 8601 UTC. */
  at: string;
  kind: StatementKind;
  description: string;
  orderId: string | null;
  paymentId: string | null;
  /** Signed USD: money in positive, money out negative. */
  amount: number;
  balanceAfter: number;
}

export interface KindTotal {
  count: number;
  /** Signed USD sum. */
  amount: number;
}

export interface Statement {
  partnerId: string;
  livemode: boolean;
  /** YYYY-MM (UTC). */
  month: string;
  currency: 'USD';
  /** Start (inclusive) and end (exclusive) of the month, ISO 8601 UTC. */
  periodStart: string;
  periodEnd: string;
  /** true: a closed month, stored when first produced and never changed; false: computed live. */
  final: boolean;
  generatedAt: string;
  openingBalance: number;
  closingBalance: number;
  totals: Record<StatementKind, KindTotal> & { net: number };
  transactions: StatementLine[];
}

/** Top-ups are payments credited; every other credit or debit that is no order is an adjustment. */
export function statementKind(row: Pick<LedgerRow, 'kind' | 'paymentId'>): StatementKind {
  if (row.kind === 'purchase') return 'order';
  if (row.kind === 'refund') return 'refund';
  if (row.kind === 'deposit' && row.paymentId) return 'top_up';
  return 'adjustment';
}

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** The UTC month `YYYY-MM` as [start, end); 400 when malformed. */
export function monthRange(month: string): { start: Date; end: Date } {
  const m = MONTH.exec(month);
  if (!m) throw new AppError('VALIDATION_ERROR', 'month must be YYYY-MM (a UTC month)', { field: 'month' });
  const year = Number(m[1]);
  const index = Number(m[2]) - 1;
  return { start: new Date(Date.UTC(year, index, 1)), end: new Date(Date.UTC(year, index + 1, 1)) };
}

export function monthOf(at: Date): string {
  return at.toISOString().slice(0, 7);
}

/** The statement of `rows` (the month's ledger rows, oldest first) after `openingCents`. */
export function buildStatement(input: {
  partnerId: string;
  livemode: boolean;
  month: string;
  openingCents: number;
  rows: readonly LedgerRow[];
  final: boolean;
  now: Date;
}): Statement {
  const { start, end } = monthRange(input.month);
  const sums: Record<StatementKind, { count: number; cents: number }> = {
    top_up: { count: 0, cents: 0 },
    order: { count: 0, cents: 0 },
    refund: { count: 0, cents: 0 },
    adjustment: { count: 0, cents: 0 },
  };
  let net = 0;
  const transactions = input.rows.map((row) => {
    const kind = statementKind(row);
    sums[kind].count += 1;
    sums[kind].cents += row.amountCents;
    net += row.amountCents;
    return {
      id: row.id,
      at: row.createdAt.toISOString(),
      kind,
      description: row.description,
      orderId: row.orderId,
      paymentId: row.paymentId,
      amount: centsToUsd(row.amountCents),
      balanceAfter: centsToUsd(row.balanceAfterCents),
    };
  });
  // opening + Σ amounts = closing; the ledger's own balance after the last row says the same
  // (the posting writes both in one statement), so the closing balance is the ledger's.
  const closingCents = input.openingCents + net;
  const totals = Object.fromEntries(
    STATEMENT_KINDS.map((k) => [k, { count: sums[k].count, amount: centsToUsd(sums[k].cents) }]),
  ) as Record<StatementKind, KindTotal>;
  return {
    partnerId: input.partnerId,
    livemode: input.livemode,
    month: input.month,
    currency: 'USD',
    periodStart: start.toISOString(),
    periodEnd: end.toISOString(),
    final: input.final,
    generatedAt: input.now.toISOString(),
    openingBalance: centsToUsd(input.openingCents),
    closingBalance: centsToUsd(closingCents),
    totals: { ...totals, net: centsToUsd(net) },
    transactions,
  };
}

const toCents = (usd: number) => Math.round(usd * 100);

export const TRANSACTION_CSV_HEADER = [
  'date',
  'type',
  'description',
  'order_id',
  'payment_id',
  'transaction_id',
  'amount_usd',
  'balance_after_usd',
] as const;

function lineCells(line: StatementLine): CsvValue[] {
  return [
    line.at,
    line.kind,
    line.description,
    line.orderId,
    line.paymentId,
    line.id,
    centsText(toCents(line.amount)),
    centsText(toCents(line.balanceAfter)),
  ];
}

/**
 * One table a spreadsheet opens as is: the opening balance, every transaction, the closing
 * balance, then one total row per kind (type `total_<kind>`) and the net change.
 */
export function statementCsv(s: Statement): string {
  const summary = (type: string, description: string, cents: number, balance?: number): CsvValue[] => [
    type === 'opening_balance' ? s.periodStart : s.periodEnd,
    type,
    description,
    null,
    null,
    null,
    balance === undefined ? centsText(cents) : null,
    balance === undefined ? null : centsText(balance),
  ];
  return csv(TRANSACTION_CSV_HEADER, [
    summary(
      'opening_balance',
      `Opening balance ${s.month} (${s.livemode ? 'live' : 'test'})`,
      0,
      toCents(s.openingBalance),
    ),
    ...s.transactions.map(lineCells),
    summary('closing_balance', `Closing balance ${s.month}`, 0, toCents(s.closingBalance)),
    ...STATEMENT_KINDS.map((k) =>
      summary(`total_${k}`, `${s.totals[k].count} transaction(s)`, toCents(s.totals[k].amount)),
    ),
    summary('total_net', 'Net change', toCents(s.totals.net)),
  ]);
}

/** A date range's ledger rows as CSV (no opening or closing rows: a plain export). */
export function transactionsCsv(rows: readonly LedgerRow[]): string {
  return csv(
    TRANSACTION_CSV_HEADER,
    rows.map((row) => [
      row.createdAt.toISOString(),
      statementKind(row),
      row.description,
      row.orderId,
      row.paymentId,
      row.id,
      centsText(row.amountCents),
      centsText(row.balanceAfterCents),
    ]),
  );
}
