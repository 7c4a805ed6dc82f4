import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, auditLog, payments } from '../../../src/db/schema/index.js';
import { newId } from '../../../src/lib/ids.js';
import { ADMIN_TOKEN, buildTestApp, type TestApp } from '../../helpers/app.js';
import { pickPlan } from '../../helpers/catalog.js';
import { createUser } from '../../helpers/factories.js';
import { signedInOperator, type SignedInOperator } from '../../helpers/operators.js';

/** Issue 33 O2/O3: reconcile on demand, manual refunds closed, mail redaction, failed orders. */

let t: TestApp;
let support: SignedInOperator;
let finance: SignedInOperator;
let owner: SignedInOperator;
const token = { authorization: `Bearer ${ADMIN_TOKEN}` };

beforeAll(async () => {
  t = await buildTestApp();
  support = await signedInOperator(t, 'support');
  finance = await signedInOperator(t, 'finance');
  owner = await signedInOperator(t, 'owner');
});
afterAll(() => t.close());

const admin = (method: 'GET' | 'POST', url: string, headers: Record<string, string>, payload?: object) =>
  t.app.inject({ method, url: `/api/admin/v1${url}`, headers, ...(payload ? { payload } : {}) });

type Check = { check: string; title: string; ok: boolean; findings: Array<Record<string, unknown>> };

describe('POST /reconcile', () => {
  it('answers the report with every check, audited as reconcile.run; Support is refused', async () => {
    const user = await createUser(t.container, { balanceCents: 1000 });
    expect((await admin('POST', '/reconcile', support.headers)).statusCode).toBe(403);

    const clean = await admin('POST', '/reconcile', finance.headers);
    expect(clean.statusCode, clean.body).toBe(200);
    const report = clean.json().report;
    expect(report).toMatchObject({ ok: true, checkedAt: t.clock.now().toISOString() });
    expect(report.accounts).toBeGreaterThanOrEqual(1);
    const checks: Check[] = report.checks;
    expect(checks.map((c) => c.check)).toContain('balance_mismatch');
    expect(checks.every((c) => c.ok && c.findings.length === 0)).toBe(true);

    // A balance moved without its ledger row: the check fails and names the account.
    await t.container.db
      .update(accounts)
      .set({ walletBalanceCents: sql`${accounts.walletBalanceCents} + 100` })
      .where(eq(accounts.id, user.id));
    try {
      const bad = (await admin('POST', '/reconcile', finance.headers)).json().report;
      expect(bad.ok).toBe(false);
      const mismatch = (bad.checks as Check[]).find((c) => c.check === 'balance_mismatch')!;
      expect(mismatch.ok).toBe(false);
      expect(mismatch.findings).toEqual([
        {
          mode: 'live',
          accountId: user.id,
          message: 'balance 11.00 USD but its ledger sums to 10.00 USD',
        },
      ]);
    } finally {
      await t.container.db
        .update(accounts)
        .set({ walletBalanceCents: sql`${accounts.walletBalanceCents} - 100` })
        .where(eq(accounts.id, user.id));
    }

    const runs = await t.container.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'reconcile.run'))
      .orderBy(auditLog.createdAt);
    expect(runs.map((r) => [r.actor, r.after])).toEqual([
      [`operator:${finance.id}`, { ok: true, problems: 0, failedChecks: [] }],
      [`operator:${finance.id}`, { ok: false, problems: 1, failedChecks: ['balance_mismatch'] }],
    ]);
  });
});

describe('POST /payments/refunds/{id}/close', () => {
  async function manualRefund(): Promise<string> {
    const user = await createUser(t.container);
    const id = newId('pay');
    const now = t.clock.now();
    await t.container.db.insert(payments).values({
      id,
      accountId: user.id,
      purpose: 'topup',
      method: 'crypto',
      provider: 'cryptomus',
      providerRef: `inv-${id}`,
      amountMinor: 2500,
      currency: 'USD',
      usdCents: 2500,
      exchangeRate: '1',
      status: 'refund_manual',
      createdAt: now,
      updatedAt: now,
      paidAt: now,
    });
    return id;
  }

  it('Finance closes a manual refund once, with a note in the audit row', async () => {
    const id = await manualRefund();
    const listed = (await admin('GET', '/payments/refunds', support.headers)).json().refunds;
    expect(listed.map((r: { paymentId: string }) => r.paymentId)).toContain(id);

    expect(
      (await admin('POST', `/payments/refunds/${id}/close`, support.headers, { note: 'x' })).statusCode,
    ).toBe(403);
    expect(
      (await admin('POST', `/payments/refunds/${id}/close`, finance.headers, { note: '  ' })).statusCode,
    ).toBe(400);
    const closed = await admin('POST', `/payments/refunds/${id}/close`, finance.headers, {
      note: 'Sent 25 USDT back, tx 0xabc',
    });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json().refund).toMatchObject({ paymentId: id, status: 'refunded' });
    const again = await admin('POST', `/payments/refunds/${id}/close`, finance.headers, { note: 'again' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('INVALID_STATE');
    expect((await admin('POST', '/payments/refunds/pay_nope/close', token, { note: 'x' })).statusCode).toBe(
      404,
    );

    const after = (await admin('GET', '/payments/refunds', finance.headers)).json().refunds;
    expect(after.map((r: { paymentId: string }) => r.paymentId)).not.toContain(id);
    const [row] = await t.container.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, id), eq(auditLog.action, 'payment.refund.close')));
    expect(row).toMatchObject({
      actor: `operator:${finance.id}`,
      before: { status: 'refund_manual' },
      after: { status: 'refunded', note: 'Sent 25 USDT back, tx 0xabc' },
    });
  });
});

describe('GET /mail redaction', () => {
  it('shows a reset link and code to an Owner, [redacted] to Support', async () => {
    const user = await createUser(t.container);
    const forgot = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/forgot-password',
      payload: { email: user.email, locale: 'en' },
    });
    expect(forgot.statusCode).toBe(200);
    await t.container.worker.runDue();
    const read = async (headers: Record<string, string>) => {
      const res = await admin('GET', `/mail?to=${encodeURIComponent(user.email)}`, headers);
      expect(res.statusCode).toBe(200);
      return res.json().messages[0] as { text: string; html: string; redacted: boolean };
    };
    const full = await read(owner.headers);
    const resetToken = new URL(/https?:\/\/\S+/.exec(full.text)![0]).searchParams.get('token')!;
    expect(full.redacted).toBe(false);
    expect(full.text).toContain(resetToken);

    const hidden = await read(support.headers);
    expect(hidden.redacted).toBe(true);
    expect(hidden.text).toContain('/reset-password?token=[redacted]');
    expect(hidden.text).not.toContain(resetToken);
    expect(hidden.html).not.toContain(resetToken);
    // The admin token holds every permission: scripts read the outbox as before.
    expect((await read(token)).text).toContain(resetToken);
  });
});

describe('GET /orders?failed=true', () => {
  it('lists only orders with a failed fulfilment attempt', async () => {
    const plan = await pickPlan(t.container);
    const user = await createUser(t.container, { balanceCents: plan.effectivePriceCents * 2 });
    const buy = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/checkout',
        headers: user.auth,
        payload: { planId: plan.id, paymentMethod: 'wallet' },
      });
    const fine = (await buy()).json().orderId;
    t.clock.advance(1000);
    await admin('POST', '/sandbox/esim-provider/faults', token, { failNext: 1 });
    const failed = (await buy()).json().orderId;
    const list = async (query: string) =>
      (await admin('GET', `/orders?accountId=${user.id}${query}`, support.headers))
        .json()
        .orders.map((o: { id: string }) => o.id);
    expect(await list('')).toEqual([failed, fine]);
    expect(await list('&failed=true')).toEqual([failed]);
    expect(await list('&failed=false')).toEqual([failed, fine]);
  });
});
