import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { walletTransactions } from '../../../src/db/schema/index.js';
import { postLedgerEntry, type LedgerEntry } from '../../../src/domain/wallet/ledger.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { balanceOf, createUser } from '../../helpers/factories.js';
import { expectLedgerInvariant } from '../../helpers/ledger.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());
afterEach(async () => expectLedgerInvariant(t.container));

function post(entry: Omit<LedgerEntry, 'at'>) {
  return t.container.db.transaction((tx) => postLedgerEntry(tx, { ...entry, at: t.clock.now() }));
}

const ref = (label: string) => `test:${label}:${Math.random().toString(36).slice(2)}`;

describe('postLedgerEntry', () => {
  it('credits, debits and records the signed amount and balance after', async () => {
    const user = await createUser(t.container);
    const credit = await post({
      accountId: user.id,
      kind: 'deposit',
      amountCents: 1000,
      reference: ref('c'),
    });
    const debit = await post({ accountId: user.id, kind: 'purchase', amountCents: 250, reference: ref('d') });
    expect(credit).toMatchObject({ duplicate: false, balanceAfterCents: 1000 });
    expect(debit).toMatchObject({ duplicate: false, balanceAfterCents: 750 });
    const rows = await t.container.db
      .select()
      .from(walletTransactions)
      .where(eq(walletTransactions.accountId, user.id));
    expect(rows.map((r) => [r.kind, r.amountCents, r.balanceAfterCents]).sort()).toEqual(
      [
        ['deposit', 1000, 1000],
        ['purchase', -250, 750],
      ].sort(),
    );
    expect(await balanceOf(t.container, user.id)).toBe(750);
  });

  it('refuses a debit above the balance and leaves no row behind', async () => {
    const user = await createUser(t.container, { balanceCents: 100 });
    const reference = ref('over');
    await expect(
      post({ accountId: user.id, kind: 'withdrawal', amountCents: 101, reference }),
    ).rejects.toMatchObject({ code: 'INSUFFICIENT_BALANCE' });
    expect(await balanceOf(t.container, user.id)).toBe(100);
    const rows = await t.container.db
      .select()
      .from(walletTransactions)
      .where(eq(walletTransactions.reference, reference));
    expect(rows).toHaveLength(0);
  });

  it('rejects zero, negative and fractional amounts', async () => {
    const user = await createUser(t.container);
    for (const amountCents of [0, -5, 1.5]) {
      await expect(
        post({ accountId: user.id, kind: 'deposit', amountCents, reference: ref('bad') }),
      ).rejects.toThrow(RangeError);
    }
    expect(await balanceOf(t.container, user.id)).toBe(0);
  });

  it('a second post of one reference credits once and reports the first transaction', async () => {
    const user = await createUser(t.container);
    const reference = ref('dup');
    const first = await post({ accountId: user.id, kind: 'deposit', amountCents: 500, reference });
    const second = await post({ accountId: user.id, kind: 'deposit', amountCents: 500, reference });
    expect(second).toEqual({ duplicate: true, transactionId: first.transactionId, balanceAfterCents: 500 });
    expect(await balanceOf(t.container, user.id)).toBe(500);
  });

  it('refuses to reuse a reference for a different entry', async () => {
    const user = await createUser(t.container);
    const other = await createUser(t.container);
    const reference = ref('reuse');
    await post({ accountId: user.id, kind: 'deposit', amountCents: 500, reference });
    await expect(post({ accountId: other.id, kind: 'deposit', amountCents: 500, reference })).rejects.toThrow(
      /reference/,
    );
    await expect(post({ accountId: user.id, kind: 'deposit', amountCents: 700, reference })).rejects.toThrow(
      /reference/,
    );
    expect(await balanceOf(t.container, other.id)).toBe(0);
    expect(await balanceOf(t.container, user.id)).toBe(500);
  });

  it('30 parallel posts of one reference credit exactly once', async () => {
    const user = await createUser(t.container);
    const reference = ref('race');
    const results = await Promise.all(
      Array.from({ length: 30 }, () =>
        post({ accountId: user.id, kind: 'deposit', amountCents: 300, reference }),
      ),
    );
    expect(results.filter((r) => !r.duplicate)).toHaveLength(1);
    expect(await balanceOf(t.container, user.id)).toBe(300);
  });

  it('parallel debits never overdraw', async () => {
    const user = await createUser(t.container, { balanceCents: 1000 });
    const results = await Promise.allSettled(
      Array.from({ length: 25 }, (_, i) =>
        post({ accountId: user.id, kind: 'purchase', amountCents: 150, reference: ref(`p${i}`) }),
      ),
    );
    const succeeded = results.filter((r) => r.status === 'fulfilled');
    const failed = results.filter((r) => r.status === 'rejected');
    expect(succeeded).toHaveLength(6);
    for (const f of failed) expect(f.reason).toMatchObject({ code: 'INSUFFICIENT_BALANCE' });
    expect(await balanceOf(t.container, user.id)).toBe(100);
    const balances = succeeded.map(
      (r) => (r as PromiseFulfilledResult<{ balanceAfterCents: number }>).value.balanceAfterCents,
    );
    expect(new Set(balances).size).toBe(6);
  });
});
