import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Container } from '../../src/container.js';
import { accounts, walletTransactions } from '../../src/db/schema/index.js';

/**
 * The ledger invariant, per mode: every account's live balance equals the sum of its live
 * transactions, and its test balance the sum of its test-mode (livemode=false) transactions.
 *
 * Two plain queries compared in JS on purpose: a correlated subquery built from Drizzle columns
 * renders unqualified names ("id" = "account_id"), which bind to the inner table and compare
 * nothing (the version in factories.ts has that defect).
 */
export async function expectLedgerInvariant(container: Container): Promise<void> {
  const balances = await container.db
    .select({
      id: accounts.id,
      balance: accounts.walletBalanceCents,
      testBalance: accounts.testWalletBalanceCents,
    })
    .from(accounts);
  const sums = await container.db
    .select({
      id: walletTransactions.accountId,
      livemode: walletTransactions.livemode,
      sum: sql<string>`sum(${walletTransactions.amountCents})`,
    })
    .from(walletTransactions)
    .groupBy(walletTransactions.accountId, walletTransactions.livemode);
  const sumOf = new Map(sums.map((row) => [`${row.id}:${row.livemode}`, Number(row.sum)]));
  const actual = balances.map((row) => ({ id: row.id, balance: row.balance, testBalance: row.testBalance }));
  const expected = balances.map((row) => ({
    id: row.id,
    balance: sumOf.get(`${row.id}:true`) ?? 0,
    testBalance: sumOf.get(`${row.id}:false`) ?? 0,
  }));
  expect(actual).toEqual(expected);
  expect(actual.every((row) => row.balance >= 0 && row.testBalance >= 0)).toBe(true);
}
