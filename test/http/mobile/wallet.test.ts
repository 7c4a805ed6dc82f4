import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { postLedgerEntry } from '../../../src/domain/wallet/ledger.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { createUser } from '../../helpers/factories.js';
import { expectLedgerInvariant } from '../../helpers/ledger.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());
afterEach(async () => expectLedgerInvariant(t.container));

function list(auth: Record<string, string>, query = '') {
  return t.app.inject({ method: 'GET', url: `/api/v1/user/wallet/transactions${query}`, headers: auth });
}

describe('GET /user/wallet/transactions', () => {
  it('lists the caller’s transactions newest first with signed USD amounts', async () => {
    const user = await createUser(t.container);
    const other = await createUser(t.container, { balanceCents: 999 });
    const post = (
      kind: 'deposit' | 'purchase' | 'refund' | 'withdrawal',
      amountCents: number,
      orderId?: string,
    ) =>
      t.container.db.transaction((tx) =>
        postLedgerEntry(tx, {
          accountId: user.id,
          kind,
          amountCents,
          reference: `test:${kind}:${Math.random()}`,
          description: `${kind} test`,
          orderId,
          at: t.clock.now(),
        }),
      );
    await post('deposit', 2000);
    t.clock.advance(1000);
    await post('purchase', 499, 'ord_test1');
    // Same millisecond as the purchase: insertion order still decides.
    await post('refund', 499, 'ord_test1');
    t.clock.advance(1000);
    await post('withdrawal', 1);

    const res = await list(user.auth);
    expect(res.statusCode).toBe(200);
    const { transactions } = res.json();
    expect(transactions.map((x: { kind: string }) => x.kind)).toEqual([
      'withdrawal',
      'refund',
      'purchase',
      'deposit',
    ]);
    expect(transactions.map((x: { amount: number }) => x.amount)).toEqual([-0.01, 4.99, -4.99, 20]);
    expect(transactions.map((x: { balanceAfter: number }) => x.balanceAfter)).toEqual([19.99, 20, 15.01, 20]);
    expect(transactions[1]).toEqual({
      id: expect.stringMatching(/^wtx_/),
      kind: 'refund',
      amount: 4.99,
      currency: 'USD',
      balanceAfter: 20,
      description: 'refund test',
      orderId: 'ord_test1',
      hasReceipt: false,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });

    const limited = await list(user.auth, '?limit=2');
    expect(limited.json().transactions.map((x: { kind: string }) => x.kind)).toEqual([
      'withdrawal',
      'refund',
    ]);
    const others = await list(other.auth);
    expect(others.json().transactions).toHaveLength(1);
  });

  it('is empty for a new user, validates limit and needs a session', async () => {
    const user = await createUser(t.container);
    expect((await list(user.auth)).json()).toEqual({ transactions: [] });
    expect((await list(user.auth, '?limit=0')).statusCode).toBe(400);
    expect((await list(user.auth, '?limit=201')).statusCode).toBe(400);
    expect((await list(user.auth, '?limit=abc')).statusCode).toBe(400);
    expect((await list({})).statusCode).toBe(401);
  });
});
