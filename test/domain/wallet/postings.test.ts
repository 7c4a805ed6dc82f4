import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../../src/db/client.js';
import { accounts, walletTransactions } from '../../../src/db/schema/index.js';
import {
  chargePurchase,
  creditDeposit,
  ledgerReference,
  postAdjustment,
  refundPurchase,
  type OrderMoney,
} from '../../../src/domain/wallet/postings.js';
import { newId } from '../../../src/lib/ids.js';
import { ManualClock } from '../../../src/lib/clock.js';
import { freshDatabase } from '../../helpers/app.js';

// Rules tier: the wallet's postings as plain functions against a migrated database, no HTTP app.
let db: Db;
let drop: () => Promise<void>;
const clock = new ManualClock();
beforeAll(async () => {
  const fresh = await freshDatabase();
  db = fresh.database.db;
  drop = fresh.drop;
});
afterAll(async () => drop());

async function account(): Promise<string> {
  const id = newId('acc');
  const now = clock.now();
  await db.insert(accounts).values({ id, email: `${id}@example.com`, createdAt: now, updatedAt: now });
  return id;
}

async function balances(accountId: string) {
  const [row] = await db
    .select({ live: accounts.walletBalanceCents, test: accounts.testWalletBalanceCents })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  return row!;
}

async function rowsOf(accountId: string) {
  const rows = await db
    .select()
    .from(walletTransactions)
    .where(eq(walletTransactions.accountId, accountId))
    .orderBy(walletTransactions.seq);
  return rows.map((r) => [r.kind, r.amountCents, r.balanceAfterCents, r.livemode, r.reference]);
}

const order = (accountId: string, amountCents: number, livemode = true): OrderMoney => ({
  id: newId('ord'),
  accountId,
  orderNumber: 'SVC-TEST',
  amountCents,
  livemode,
});

const inTx = <T>(fn: (tx: Parameters<Parameters<Db['transaction']>[0]>[0]) => Promise<T>) =>
  db.transaction(fn);

describe('wallet postings', () => {
  it('deposit, purchase, refund and adjustments write the balance and one signed ledger row each', async () => {
    const acc = await account();
    const at = clock.now();
    const paymentId = newId('pay');
    await inTx((tx) =>
      creditDeposit(tx, { id: paymentId, accountId: acc, usdCents: 1000 }, 'Card top-up', at),
    );
    const o = order(acc, 300);
    await inTx((tx) => chargePurchase(tx, o, at));
    await inTx((tx) => refundPurchase(tx, o, at));
    await inTx((tx) => postAdjustment(tx, { accountId: acc, amountCents: -150, description: 'fix', at }));
    const credit = await inTx((tx) =>
      postAdjustment(tx, { accountId: acc, amountCents: 50, description: 'goodwill', at }),
    );
    expect(credit).toMatchObject({ duplicate: false, balanceAfterCents: 900 });
    const rows = await rowsOf(acc);
    expect(rows.map((r) => r.slice(0, 4))).toEqual([
      ['deposit', 1000, 1000, true],
      ['purchase', -300, 700, true],
      ['refund', 300, 1000, true],
      ['withdrawal', -150, 850, true],
      ['deposit', 50, 900, true],
    ]);
    expect(rows.map((r) => r[4]).slice(0, 3)).toEqual([
      ledgerReference.deposit(paymentId),
      ledgerReference.purchase(o.id),
      ledgerReference.refund(o.id),
    ]);
    expect(String(rows[3]![4])).toMatch(/^adjustment:wtx_/);
    expect(await balances(acc)).toEqual({ live: 900, test: 0 });
  });

  it('test-mode postings move only the test wallet and write livemode=false rows', async () => {
    const acc = await account();
    const at = clock.now();
    await inTx((tx) =>
      postAdjustment(tx, { accountId: acc, amountCents: 500, description: 'open', at, livemode: false }),
    );
    const o = order(acc, 200, false);
    await inTx((tx) => chargePurchase(tx, o, at));
    await inTx((tx) => refundPurchase(tx, o, at));
    expect(await balances(acc)).toEqual({ live: 0, test: 500 });
    expect((await rowsOf(acc)).map((r) => r.slice(0, 4))).toEqual([
      ['deposit', 500, 500, false],
      ['purchase', -200, 300, false],
      ['refund', 200, 500, false],
    ]);
    // The live wallet is empty: a live purchase is refused and changes nothing.
    await expect(inTx((tx) => chargePurchase(tx, order(acc, 1), at))).rejects.toMatchObject({
      code: 'INSUFFICIENT_BALANCE',
    });
    expect(await balances(acc)).toEqual({ live: 0, test: 500 });
  });

  it('a replayed posting (same reference) changes nothing and reports the first row', async () => {
    const acc = await account();
    const at = clock.now();
    const payment = { id: newId('pay'), accountId: acc, usdCents: 700 };
    const first = await inTx((tx) => creditDeposit(tx, payment, 'Card top-up', at));
    const o = order(acc, 700);
    await inTx((tx) => chargePurchase(tx, o, at));
    // The balance is now 0: the replayed charge and deposit are duplicates, not errors or credits.
    const again = await inTx((tx) => chargePurchase(tx, o, at));
    const deposit = await inTx((tx) => creditDeposit(tx, payment, 'Card top-up', at));
    expect(again.duplicate).toBe(true);
    expect(deposit).toEqual({ duplicate: true, transactionId: first.transactionId, balanceAfterCents: 700 });
    expect(await balances(acc)).toEqual({ live: 0, test: 0 });
    expect(await rowsOf(acc)).toHaveLength(2);
  });

  it('an adjustment of zero is refused before touching the database', async () => {
    const acc = await account();
    await expect(
      inTx((tx) => postAdjustment(tx, { accountId: acc, amountCents: 0, description: 'x', at: clock.now() })),
    ).rejects.toThrow(RangeError);
  });

  it('32 concurrent charges of one wallet never overdraw', async () => {
    const acc = await account();
    const at = clock.now();
    await inTx((tx) => postAdjustment(tx, { accountId: acc, amountCents: 1000, description: 'fund', at }));
    const results = await Promise.allSettled(
      Array.from({ length: 32 }, () => inTx((tx) => chargePurchase(tx, order(acc, 150), at))),
    );
    const ok = results.filter((r) => r.status === 'fulfilled');
    expect(ok).toHaveLength(6);
    for (const r of results)
      if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'INSUFFICIENT_BALANCE' });
    expect(await balances(acc)).toEqual({ live: 100, test: 0 });
    const rows = await rowsOf(acc);
    expect(rows).toHaveLength(7);
    expect(rows.reduce((sum, r) => sum + Number(r[1]), 0)).toBe(100);
    expect(new Set(rows.map((r) => r[2])).size).toBe(7);
  });
});

/** The name of the constraint a query broke (Drizzle wraps the driver error as `cause`). */
async function violated(query: Promise<unknown>): Promise<string | undefined> {
  try {
    await query;
  } catch (err) {
    for (let e: unknown = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
      const { code, constraint } = e as { code?: unknown; constraint?: unknown };
      if (code === '23514') return String(constraint);
    }
    throw err;
  }
  return undefined;
}

describe('database CHECKs', () => {
  async function insertRow(accountId: string, kind: string, amountCents: number, balanceAfterCents = 0) {
    await db.execute(sql`
      insert into wallet_transactions (id, account_id, kind, amount_cents, balance_after_cents, reference, created_at)
      values (${newId('wtx')}, ${accountId}, ${kind}, ${amountCents}, ${balanceAfterCents}, ${newId('wtx')}, now())`);
  }

  it.each([
    ['purchase', 100],
    ['withdrawal', 100],
    ['deposit', -100],
    ['refund', -100],
    ['deposit', 0],
    ['purchase', 0],
    ['bonus', 100],
  ])('refuse a %s of %i', async (kind, amount) => {
    const acc = await account();
    expect(await violated(insertRow(acc, kind, amount))).toBe('wallet_transactions_amount_sign');
  });

  it('accept each kind with its sign', async () => {
    const acc = await account();
    for (const [kind, amount] of [
      ['deposit', 100],
      ['refund', 100],
      ['purchase', -100],
      ['withdrawal', -100],
    ] as const)
      await insertRow(acc, kind, amount);
  });

  it('refuse a negative balance after', async () => {
    const acc = await account();
    expect(await violated(insertRow(acc, 'purchase', -1, -1))).toBe(
      'wallet_transactions_balance_after_nonnegative',
    );
  });

  it('refuse a negative live or test balance', async () => {
    const acc = await account();
    expect(
      await violated(db.update(accounts).set({ walletBalanceCents: -1 }).where(eq(accounts.id, acc))),
    ).toBe('accounts_wallet_balance_nonnegative');
    expect(
      await violated(db.update(accounts).set({ testWalletBalanceCents: -1 }).where(eq(accounts.id, acc))),
    ).toBe('accounts_test_wallet_balance_nonnegative');
  });
});
