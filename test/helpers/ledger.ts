import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Container } from '../../src/container.js';
import { accounts, walletTransactions } from '../../src/db/schema/index.js';

/**
 * The ledger invariant: every account's balance equals the sum of its transactions.
 *
 * Two plain queries compared in JS on purpose: a correlated subquery built from Drizzle columns
 * renders unqualified names ("id" = "account_id"), which bind to the inner table and compare
 * nothing (the version in factories.ts has that defect).
 */
export async function expectLedgerInvariant(container: Container): Promise<void> {
  const balances = await container.db
    .select({ id: accounts.id, balance: accounts.walletBalanceCents })
    .from(accounts);
  const sums = await container.db
    .select({ id: walletTransactions.accountId, sum: sql<string>`sum(${walletTransactions.amountCents})` })
    .from(walletTransactions)
    .groupBy(walletTransactions.accountId);
  const sumById = new Map(sums.map((row) => [row.id, Number(row.sum)]));
  const actual = balances.map((row) => ({ id: row.id, balance: row.balance }));
  const expected = balances.map((row) => ({ id: row.id, balance: sumById.get(row.id) ?? 0 }));
  expect(actual).toEqual(expected);
  expect(actual.every((row) => row.balance >= 0)).toBe(true);
}
