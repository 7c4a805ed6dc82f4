import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { jobs, orders, walletTransactions } from '../../src/db/schema/index.js';
import { SECOND } from '../../src/lib/clock.js';
import { ADMIN_TOKEN, buildTestApp, type TestApp } from '../helpers/app.js';
import { pickPlan } from '../helpers/catalog.js';
import { balanceOf, createUser, type TestUser } from '../helpers/factories.js';
import { expectLedgerInvariant } from '../helpers/ledger.js';

/**
 * Issue 28 H21/H22: the last fulfillment attempt's refund and the job's end commit together; a
 * refund that throws keeps the job claimable; a refunded exhaustion is `handled`, not a dead
 * letter; reconcile reports at once a charged order whose fulfillment job is dead-lettered.
 */
const RETRY_BASE_SECONDS = 10;
let t: TestApp;
let planId: string;
let priceCents: number;
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

beforeAll(async () => {
  t = await buildTestApp({
    env: { FULFILLMENT_RETRY_BASE_SECONDS: String(RETRY_BASE_SECONDS), FULFILLMENT_MAX_ATTEMPTS: '1' },
  });
  const plan = await pickPlan(t.container);
  planId = plan.id;
  priceCents = plan.effectivePriceCents;
});
afterAll(() => t.close());

const failNext = (n: number) =>
  t.app.inject({
    method: 'POST',
    url: '/api/admin/v1/sandbox/esim-provider/faults',
    headers: admin,
    payload: { failNext: n },
  });

/** A wallet order whose request attempt failed: PROCESSING, charged, its job due soon. */
async function failedOrder(user: TestUser): Promise<string> {
  await failNext(100);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/checkout',
    headers: user.auth,
    payload: { planId, paymentMethod: 'wallet' },
  });
  expect(res.statusCode).toBe(502);
  return res.json().orderId as string;
}

const jobOf = async (orderId: string) =>
  (
    await t.container.db
      .select()
      .from(jobs)
      .where(eq(jobs.dedupeKey, `fulfill:${orderId}`))
  )[0]!;
const statusOf = async (orderId: string) =>
  (await t.container.db.select().from(orders).where(eq(orders.id, orderId)))[0]!.status;
const refundsOf = (orderId: string) =>
  t.container.db
    .select()
    .from(walletTransactions)
    .where(eq(walletTransactions.reference, `order:${orderId}:refund`));
const deadLetters = async () =>
  (
    await t.app.inject({ method: 'GET', url: '/api/admin/v1/jobs/failed?kind=order.fulfill', headers: admin })
  ).json().jobs as Array<{ id: string; dedupeKey: string }>;

async function runDueAfter(ms: number) {
  t.clock.advance(ms);
  await t.container.worker.runDue();
}

describe('exhausted fulfillment', () => {
  it('a refund that throws keeps the job claimable; the retry refunds once and ends it handled', async () => {
    const user = await createUser(t.container, { balanceCents: priceCents });
    const orderId = await failedOrder(user);
    const refund = vi
      .spyOn(t.container.orders.fulfillment, 'refund')
      .mockRejectedValueOnce(new Error('connection lost'));
    try {
      await runDueAfter(RETRY_BASE_SECONDS * SECOND + SECOND); // the only attempt fails; its refund throws
      expect(refund).toHaveBeenCalledTimes(1);
      expect(await statusOf(orderId)).toBe('PROCESSING');
      const waiting = await jobOf(orderId);
      expect(waiting.status).toBe('pending'); // not dead: the refund is tried again
      expect(await deadLetters()).toEqual([]);

      await runDueAfter(3600 * SECOND);
      expect(await statusOf(orderId)).toBe('REFUNDED');
      expect(await refundsOf(orderId)).toHaveLength(1);
      expect(await balanceOf(t.container, user.id)).toBe(priceCents);
      expect((await jobOf(orderId)).status).toBe('handled');
    } finally {
      refund.mockRestore();
      await failNext(0);
    }
    await expectLedgerInvariant(t.container);
    expect((await t.container.maintenance.runReconcile()).problems).toEqual([]);
  });

  it('refunded exhaustion is recorded as handled and stays off /jobs/failed', async () => {
    const user = await createUser(t.container, { balanceCents: priceCents });
    const orderId = await failedOrder(user);
    await runDueAfter(RETRY_BASE_SECONDS * SECOND + SECOND);
    await failNext(0);
    expect(await statusOf(orderId)).toBe('REFUNDED');
    const job = await jobOf(orderId);
    expect(job).toMatchObject({ status: 'handled', attempts: 1 });
    expect(job.lastError).toBeTruthy();
    expect((await deadLetters()).map((j) => j.dedupeKey)).not.toContain(`fulfill:${orderId}`);
    // The operator still sees it by id, and cannot "retry" a handled job.
    const one = await t.app.inject({ method: 'GET', url: `/api/admin/v1/jobs/${job.id}`, headers: admin });
    expect(one.json().job.status).toBe('handled');
    const retry = await t.app.inject({
      method: 'POST',
      url: `/api/admin/v1/jobs/${job.id}/retry`,
      headers: admin,
    });
    expect(retry.statusCode).toBe(409);
  });

  it('reconcile reports at once a charged open order whose fulfillment job is dead-lettered', async () => {
    const user = await createUser(t.container, { balanceCents: priceCents });
    const orderId = await failedOrder(user);
    // The state the old exhausted path left behind: job dead, order charged and PROCESSING.
    await t.container.db
      .update(jobs)
      .set({ status: 'failed', attempts: 1, lastError: 'retries exhausted' })
      .where(eq(jobs.dedupeKey, `fulfill:${orderId}`));
    await failNext(0);
    const report = await t.container.maintenance.runReconcile();
    expect(report.ok).toBe(false);
    expect(report.problems.map((p) => [p.check, p.accountId, p.orderId])).toEqual([
      ['fulfillment_dead_lettered', user.id, orderId],
    ]);
    // An operator retry makes the job pending again: no longer reported; it then settles the order.
    const [dead] = await deadLetters();
    const retried = await t.app.inject({
      method: 'POST',
      url: `/api/admin/v1/jobs/${dead!.id}/retry`,
      headers: admin,
    });
    expect(retried.statusCode).toBe(200);
    expect((await t.container.maintenance.runReconcile()).problems).toEqual([]);
    await runDueAfter(RETRY_BASE_SECONDS * SECOND + SECOND);
    expect(await statusOf(orderId)).toBe('COMPLETED');
    expect((await t.container.maintenance.runReconcile()).problems).toEqual([]);
  });
});
