import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../../src/db/schema/index.js';
import { ADMIN_TOKEN, buildTestApp, type TestApp } from '../../helpers/app.js';
import { balanceOf, createUser } from '../../helpers/factories.js';
import { expectLedgerInvariant } from '../../helpers/ledger.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());
afterEach(async () => expectLedgerInvariant(t.container));

function adjust(accountId: string, payload: unknown, token = ADMIN_TOKEN) {
  return t.app.inject({
    method: 'POST',
    url: `/api/admin/v1/accounts/${accountId}/wallet/adjustments`,
    headers: { authorization: `Bearer ${token}` },
    payload: payload as object,
  });
}

describe('POST /accounts/:id/wallet/adjustments', () => {
  it('credits with a deposit and debits with a withdrawal, each audited', async () => {
    const user = await createUser(t.container);
    const credit = await adjust(user.id, { amountUsd: 25.5, reason: 'Goodwill for outage' });
    expect(credit.statusCode).toBe(200);
    expect(credit.json()).toEqual({
      transaction: expect.objectContaining({
        kind: 'deposit',
        amount: 25.5,
        balanceAfter: 25.5,
        currency: 'USD',
        description: 'Goodwill for outage',
      }),
      walletBalance: 25.5,
    });
    const debit = await adjust(user.id, { amountUsd: -0.5, reason: 'Correction' });
    expect(debit.json()).toMatchObject({
      transaction: { kind: 'withdrawal', amount: -0.5 },
      walletBalance: 25,
    });
    expect(await balanceOf(t.container, user.id)).toBe(2500);

    const audits = await t.container.db.select().from(auditLog).where(eq(auditLog.targetId, user.id));
    expect(audits.filter((a) => a.action === 'wallet.adjust')).toHaveLength(2);
    expect(audits.map((a) => a.after)).toContainEqual(
      expect.objectContaining({ amountCents: -50, reason: 'Correction', walletBalanceCents: 2500 }),
    );
  });

  it('never debits below zero (402) and writes no audit row then', async () => {
    const user = await createUser(t.container, { balanceCents: 100 });
    const res = await adjust(user.id, { amountUsd: -1.01, reason: 'Too much' });
    expect(res.statusCode).toBe(402);
    expect(res.json().error.code).toBe('INSUFFICIENT_BALANCE');
    expect(await balanceOf(t.container, user.id)).toBe(100);
    const audits = await t.container.db.select().from(auditLog).where(eq(auditLog.targetId, user.id));
    expect(audits).toHaveLength(0);
  });

  it('validates amount and reason, 404 for unknown accounts, 401 without the token', async () => {
    const user = await createUser(t.container);
    for (const body of [
      { amountUsd: 0, reason: 'x' },
      { amountUsd: 1.234, reason: 'x' },
      { amountUsd: 'abc', reason: 'x' },
      { amountUsd: 5 },
      { amountUsd: 5, reason: '' },
      { amountUsd: 5, reason: '   ' },
      { amountUsd: 5, reason: 'x'.repeat(501) },
    ]) {
      const res = await adjust(user.id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
    const missing = await adjust('acc_missing', { amountUsd: 5, reason: 'x' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.code).toBe('ACCOUNT_NOT_FOUND');
    expect((await adjust(user.id, { amountUsd: 5, reason: 'x' }, 'wrong-token-wrong-token')).statusCode).toBe(
      401,
    );
    expect(await balanceOf(t.container, user.id)).toBe(0);
  });
});
