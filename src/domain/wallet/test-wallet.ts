import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { accounts } from '../../db/schema/index.js';
import { AppError } from '../errors.js';
import { ledgerReference, postAdjustment } from './postings.js';

/**
 * The test wallet of test mode (docs/partner-reference.md "Test mode"): a second balance per account,
 * `accounts.test_wallet_balance_cents`, written only by the same ledger writer with
 * livemode=false rows, so "balance = Σ transactions" holds for each mode on its own.
 */
export const TEST_WALLET_START_CENTS = 100_000;

/**
 * Opens the test wallet with US$1,000.00 the first time the account gets a test key. The opening
 * deposit has a fixed reference, so regenerating the test key never funds it twice.
 */
export async function openTestWallet(tx: Tx, accountId: string, at: Date): Promise<void> {
  await postAdjustment(tx, {
    accountId,
    amountCents: TEST_WALLET_START_CENTS,
    reference: ledgerReference.testWalletOpening(accountId),
    description: 'Test wallet opened',
    at,
    livemode: false,
  });
}

/**
 * Sets the test wallet back to US$1,000.00 with one ledger row for the difference (none when it
 * already holds exactly that). The account row is locked first, so a test order charging at the
 * same moment lands either before (and is made up for) or after the reset.
 */
export async function resetTestWallet(db: Db, accountId: string, at: Date): Promise<number> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ balance: accounts.testWalletBalanceCents })
      .from(accounts)
      .where(eq(accounts.id, accountId))
      .for('update');
    if (!row) throw new AppError('ACCOUNT_NOT_FOUND', 'Account not found');
    const difference = TEST_WALLET_START_CENTS - row.balance;
    if (difference === 0) return row.balance;
    const posted = await postAdjustment(tx, {
      accountId,
      amountCents: difference,
      reference: ledgerReference.testWalletReset(),
      description: 'Test wallet reset to US$1,000.00',
      at,
      livemode: false,
    });
    return posted.balanceAfterCents;
  });
}
