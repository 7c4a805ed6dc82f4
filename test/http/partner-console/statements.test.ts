import { extractText, getDocumentProxy } from 'unpdf';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { frozenStatements } from '../../../src/db/schema/index.js';
import type { SellablePlan } from '../../../src/domain/catalog/catalog.service.js';
import { postLedgerEntry } from '../../../src/domain/wallet/ledger.js';
import { ManualClock } from '../../../src/lib/clock.js';
import { ADMIN_TOKEN, buildTestApp, type TestApp } from '../../helpers/app.js';
import { pickPlan } from '../../helpers/catalog.js';
import { expectLedgerInvariant } from '../../helpers/ledger.js';
import { postOrder } from '../partner/helpers.js';
import { partnerTeam } from './helpers.js';

interface Statement {
  month: string;
  livemode: boolean;
  final: boolean;
  openingBalance: number;
  closingBalance: number;
  totals: Record<'top_up' | 'order' | 'refund' | 'adjustment', { count: number; amount: number }> & {
    net: number;
  };
  transactions: Array<{ kind: string; amount: number; balanceAfter: number; orderId: string | null }>;
}

const cents = (usd: number) => Math.round(usd * 100);

/** opening + Σ = closing, to the cent; closing is the last row's balance_after; totals per kind add up. */
function expectReconciled(s: Statement) {
  const sum = s.transactions.reduce((acc, r) => acc + cents(r.amount), 0);
  expect(cents(s.openingBalance) + sum).toBe(cents(s.closingBalance));
  expect(cents(s.totals.net)).toBe(sum);
  if (s.transactions.length) expect(cents(s.transactions.at(-1)!.balanceAfter)).toBe(cents(s.closingBalance));
  let running = cents(s.openingBalance);
  for (const row of s.transactions) {
    running += cents(row.amount);
    expect(cents(row.balanceAfter)).toBe(running);
  }
  for (const kind of ['top_up', 'order', 'refund', 'adjustment'] as const) {
    const rows = s.transactions.filter((r) => r.kind === kind);
    expect(s.totals[kind].count).toBe(rows.length);
    expect(cents(s.totals[kind].amount)).toBe(rows.reduce((acc, r) => acc + cents(r.amount), 0));
  }
}

describe('statements (issue 32 C6)', () => {
  const clock = new ManualClock(new Date('2026-10-15T12:00:00.000Z'));
  let t: TestApp;
  let plan: SellablePlan;
  let team: Awaited<ReturnType<typeof partnerTeam>>;
  let testKey: string;
  let october: Statement;

  beforeAll(async () => {
    t = await buildTestApp({ clock });
    plan = await pickPlan(t.container);
    team = await partnerTeam(t, 20_000);
    testKey = (await t.container.apiKeys.generate(team.owner.id, 'test')).key;
    // October: a top-up paid by card, two orders (one cancelled: a refund), an operator debit.
    clock.advance(60_000);
    await t.container.db.transaction((tx) =>
      postLedgerEntry(tx, {
        accountId: team.owner.id,
        kind: 'deposit',
        amountCents: 12_345,
        reference: 'payment:pay_statement_test',
        paymentId: 'pay_statement_test',
        description: 'Wallet top-up (card)',
        at: clock.now(),
      }),
    );
    const key = { 'x-api-key': team.key };
    const first = await postOrder(t, key, { planId: plan.id, quantity: 1 });
    expect(first.statusCode, first.body).toBe(201);
    clock.advance(60_000);
    const second = await postOrder(t, key, { planId: plan.id, quantity: 2 });
    expect(second.statusCode, second.body).toBe(201);
    const cancel = await t.app.inject({
      method: 'POST',
      url: `/api/public/v1/orders/${first.json().id}/cancel`,
      headers: key,
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    const debit = await t.app.inject({
      method: 'POST',
      url: `/api/admin/v1/accounts/${team.owner.id}/wallet/adjustments`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      payload: { amountUsd: -1.01, reason: 'Correction' },
    });
    expect(debit.statusCode, debit.body).toBe(200);
    const test = await postOrder(t, { 'x-api-key': testKey }, { planId: plan.id, quantity: 1 });
    expect(test.statusCode, test.body).toBe(201);
  });
  afterAll(() => t.close());

  const get = (path: string, auth = team.owner.auth) => t.app.inject({ url: team.url(path), headers: auth });

  it('computes the open month live, not final, reconciled to the cent', async () => {
    const res = await get('/statements/2026-10');
    expect(res.statusCode, res.body).toBe(200);
    const s = res.json<Statement>();
    expect(s).toMatchObject({ month: '2026-10', livemode: true, final: false, openingBalance: 0 });
    expect(s.totals.top_up).toEqual({ count: 1, amount: 123.45 });
    expect(s.totals.order.count).toBe(2);
    expect(s.totals.refund.count).toBe(1);
    // The partnerTeam funding and the operator debit.
    expect(s.totals.adjustment).toEqual({ count: 2, amount: 198.99 });
    expectReconciled(s);
    const months = (await get('/statements')).json().months;
    expect(months).toEqual([{ month: '2026-10', final: false }]);
  });

  it('keeps test mode apart: ?mode=test is the test wallet, like a test key on the Partner API', async () => {
    const dashboard = (await get('/statements/2026-10?mode=test')).json<Statement>();
    expect(dashboard.livemode).toBe(false);
    expect(dashboard.totals.order.count).toBe(1);
    expect(dashboard.totals.adjustment).toEqual({ count: 1, amount: 1000 });
    expectReconciled(dashboard);
    const api = await t.app.inject({
      url: '/api/public/v1/statements/2026-10',
      headers: { 'x-api-key': testKey },
    });
    expect(api.statusCode).toBe(200);
    expect(api.json<Statement>().transactions).toEqual(dashboard.transactions);
  });

  it('refuses a month that has not started, and a malformed one', async () => {
    const future = await get('/statements/2026-11');
    expect(future.statusCode).toBe(404);
    expect(future.json().code).toBe('NOT_FOUND');
    expect((await get('/statements/2026-13')).statusCode).toBe(400);
    expect((await get('/statements/october')).statusCode).toBe(400);
    const api = await t.app.inject({
      url: '/api/public/v1/statements/2027-01',
      headers: { 'x-api-key': team.key },
    });
    expect(api.statusCode).toBe(404);
    expect(api.json().error.message).toBe(
      'No statement for 2027-01: the month has not started yet (months are UTC)',
    );
  });

  it('freezes a closed month: stored when first produced, never changed by what comes later', async () => {
    clock.set(new Date('2026-11-01T00:10:00.000Z'));
    october = (await get('/statements/2026-10')).json<Statement>();
    expect(october.final).toBe(true);
    expectReconciled(october);

    // November activity lands in November, opening where October closed.
    const order = await postOrder(t, { 'x-api-key': team.key }, { planId: plan.id, quantity: 1 });
    expect(order.statusCode).toBe(201);
    const november = (await get('/statements/2026-11')).json<Statement>();
    expect(november).toMatchObject({ final: false, openingBalance: october.closingBalance });
    expect(november.transactions.map((r) => r.orderId)).toEqual([order.json().id]);
    expectReconciled(november);

    // A row dated in October can't be written through the app; written here, it proves the stored
    // statement is what is served: October does not change.
    await t.container.db.transaction((tx) =>
      postLedgerEntry(tx, {
        accountId: team.owner.id,
        kind: 'deposit',
        amountCents: 100,
        reference: 'test:late-october',
        description: 'late',
        at: new Date('2026-10-31T23:59:00.000Z'),
      }),
    );
    expect((await get('/statements/2026-10')).json()).toEqual(october);
    const api = await t.app.inject({
      url: '/api/public/v1/statements/2026-10',
      headers: { 'x-api-key': team.key },
    });
    expect(api.json()).toEqual(october);
    expect((await get('/statements')).json().months).toEqual([
      { month: '2026-11', final: false },
      { month: '2026-10', final: true },
    ]);
    await expectLedgerInvariant(t.container);
  });

  it('answers a closed month without activity without storing it', async () => {
    const res = await get('/statements/2026-09');
    expect(res.json()).toMatchObject({ final: true, openingBalance: 0, closingBalance: 0, transactions: [] });
    const stored = await t.container.db
      .select()
      .from(frozenStatements)
      .where(eq(frozenStatements.accountId, team.owner.id));
    expect(stored.map((r) => [r.month, r.livemode])).toEqual([['2026-10', true]]);
  });

  it('renders CSV and PDF from the same statement', async () => {
    const csv = await get('/statements/2026-10?format=csv');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toBe('attachment; filename="statement-2026-10-live.csv"');
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe(
      'date,type,description,order_id,payment_id,transaction_id,amount_usd,balance_after_usd',
    );
    expect(lines[1]).toMatch(/^2026-10-01T00:00:00.000Z,opening_balance,/);
    expect(lines).toContain(
      `2026-11-01T00:00:00.000Z,closing_balance,Closing balance 2026-10,,,,,${october.closingBalance.toFixed(2)}`,
    );
    expect(lines.at(-1)).toBe(
      `2026-11-01T00:00:00.000Z,total_net,Net change,,,,${october.totals.net.toFixed(2)},`,
    );
    expect(lines.filter((l) => /,(top_up|order|refund|adjustment),/.test(l))).toHaveLength(
      october.transactions.length,
    );

    const pdf = await get('/statements/2026-10?format=pdf');
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const doc = await getDocumentProxy(new Uint8Array(pdf.rawPayload));
    const { text } = await extractText(doc, { mergePages: true });
    expect(text).toContain('Statement 2026-10 (live)');
    expect(text).toContain('Final');
    expect(text).toContain(`US$ ${october.closingBalance.toFixed(2)}`);
  });

  it('exports any date range of transactions as CSV, on the dashboard and the Partner API', async () => {
    const res = await get('/wallet/transactions.csv?from=2026-10-01&to=2026-11-30');
    expect(res.statusCode).toBe(200);
    const rows = res.body.trim().split('\r\n').slice(1);
    // October's rows (with the late one) and November's order.
    expect(rows.length).toBe(october.transactions.length + 2);
    const oneDay = await t.app.inject({
      url: '/api/public/v1/wallet/transactions.csv?from=2026-11-01&to=2026-11-01',
      headers: { 'x-api-key': team.key },
    });
    expect(oneDay.statusCode).toBe(200);
    expect(oneDay.body.trim().split('\r\n')).toHaveLength(2);
    expect((await get('/wallet/transactions.csv?from=2026-11-02&to=2026-11-01')).statusCode).toBe(400);
    expect((await get('/wallet/transactions.csv?from=2025-01-01&to=2026-11-01')).statusCode).toBe(400);
    expect((await get('/wallet/transactions.csv?from=2026-02-30&to=2026-03-01')).statusCode).toBe(400);
  });

  it('lets owner, admin, finance and viewer read statements; a developer gets 403 ROLE_FORBIDDEN', async () => {
    const paths = [
      '/statements',
      '/statements/2026-10',
      '/wallet/transactions.csv?from=2026-10-01&to=2026-10-31',
    ];
    for (const member of [team.owner, team.admin, team.finance, team.viewer]) {
      for (const path of paths) expect((await get(path, member.auth)).statusCode, path).toBe(200);
    }
    for (const path of paths) {
      const refused = await get(path, team.developer.auth);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().code).toBe('ROLE_FORBIDDEN');
    }
    expect((await get('/statements', team.stranger.auth)).statusCode).toBe(404);
  });
});
