import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { autoTopUpAttempts, jobs, orders } from '../../../src/db/schema/index.js';
import { reconcile } from '../../../src/domain/ops/reconcile.js';
import { AUTO_TOP_UP_JOB, autoTopUpJobKey } from '../../../src/domain/autotopup/autotopup.service.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { eventsSettled } from '../../helpers/events.js';
import { balanceOf } from '../../helpers/factories.js';
import { expectLedgerInvariant } from '../../helpers/ledger.js';
import { PARTNER_ROOT } from '../../http/partner/helpers.js';
import {
  attemptsOf,
  esimRow,
  expectReconcileClean,
  partnerWithEsim,
  patchPartner,
  purchasesOf,
  report,
  settingsRow,
  topUpOrdersOf,
} from './helpers.js';

let t: TestApp;

beforeAll(async () => {
  // A fixed start in the middle of a month, so month rollovers are where the test puts them.
  t = await buildTestApp({ env: { FULFILLMENT_MAX_ATTEMPTS: '1', FULFILLMENT_RETRY_BASE_SECONDS: '1' } });
  t.clock.set(new Date('2026-11-10T12:00:00Z'));
});
afterAll(() => t.close());

type Ev = { type: string; data: Record<string, unknown> };
async function autoTopUpEvents(headers: Record<string, string>): Promise<Ev[]> {
  await eventsSettled(t.container);
  const res = await t.app.inject({ url: `${PARTNER_ROOT}/events?limit=100`, headers });
  return (res.json().data as Ev[]).filter((e) => e.type.startsWith('esim.auto_topup'));
}

async function enabled(balanceCents: number, settings: object = {}) {
  const s = await partnerWithEsim(t, balanceCents);
  const res = await patchPartner(t, s.p.headers, s.iccid, { enabled: true, planId: s.topUp.id, ...settings });
  expect(res.statusCode).toBe(200);
  return s;
}

describe('auto top-up from the wallet', () => {
  it('buys once per crossing under concurrent readings, replays and job retries', async () => {
    const s = await enabled(10_000);
    const before = await balanceOf(t.container, s.p.id);
    // Below the threshold: nothing.
    await report(t, s.esimId, 500);
    expect(await attemptsOf(t, s.esimId)).toEqual([]);
    // Three concurrent readings above it, then the same reading again (a replayed notification).
    await Promise.all([report(t, s.esimId, 900), report(t, s.esimId, 910), report(t, s.esimId, 920)]);
    await report(t, s.esimId, 920);
    expect(await attemptsOf(t, s.esimId)).toEqual([
      expect.objectContaining({ crossing: 1, status: 'pending' }),
    ]);
    const queued = await t.container.db.select().from(jobs).where(eq(jobs.kind, AUTO_TOP_UP_JOB));
    expect(queued.filter((j) => j.dedupeKey === autoTopUpJobKey(s.esimId, 1))).toHaveLength(1);

    await t.container.worker.runDue();
    const [attempt] = await attemptsOf(t, s.esimId);
    expect(attempt).toMatchObject({
      status: 'succeeded',
      reason: null,
      amountCents: s.topUp.effectivePriceCents,
    });
    const topUps = await topUpOrdersOf(t, s.esimId);
    expect(topUps).toEqual([
      expect.objectContaining({ status: 'COMPLETED', channel: 'partner', id: attempt!.orderId }),
    ]);
    expect(await balanceOf(t.container, s.p.id)).toBe(before - s.topUp.effectivePriceCents);
    // The data was added, the share went down: re-armed for the next crossing.
    const esim = await esimRow(t, s.esimId);
    expect(esim.totalVolumeMb).toBe(s.plan.dataAmountMb + s.topUp.dataAmountMb);
    expect(await settingsRow(t, s.esimId)).toMatchObject({ armed: true, crossing: 1 });

    // The job again (a worker retry after the work was done): nothing more is bought.
    await t.container.db.transaction((tx) =>
      t.container.queue.enqueue(tx, {
        kind: AUTO_TOP_UP_JOB,
        payload: { esimId: s.esimId, crossing: 1 },
        dedupeKey: autoTopUpJobKey(s.esimId, 1),
      }),
    );
    await t.container.worker.runDue();
    expect(await topUpOrdersOf(t, s.esimId)).toHaveLength(1);
    expect(await balanceOf(t.container, s.p.id)).toBe(before - s.topUp.effectivePriceCents);

    const events = await autoTopUpEvents(s.p.headers);
    expect(events).toEqual([
      {
        ...events[0],
        type: 'esim.auto_topup_succeeded',
        data: expect.objectContaining({
          orderId: attempt!.orderId,
          planId: s.topUp.id,
          amountUsd: s.topUp.effectivePriceCents / 100,
          esim: expect.objectContaining({ iccid: s.iccid, totalVolumeMb: esim.totalVolumeMb }),
        }),
      },
    ]);
    await expectLedgerInvariant(t.container);
    await expectReconcileClean(t);
  });

  it('a crashed job run recovers the order it placed instead of buying again', async () => {
    const s = await enabled(10_000);
    const original = t.container.orders.placeOrder;
    let calls = 0;
    t.container.orders.placeOrder = async (input) => {
      calls++;
      await original(input);
      throw new Error('worker killed after the order committed');
    };
    try {
      await report(t, s.esimId, 900);
      await t.container.worker.runDue();
    } finally {
      t.container.orders.placeOrder = original;
    }
    expect(calls).toBe(1);
    expect(await attemptsOf(t, s.esimId)).toEqual([
      expect.objectContaining({ status: 'pending', orderId: null }),
    ]);
    // The retry (after the job's backoff and the claim's lease): the same order, settled.
    t.clock.advance(2 * 60_000);
    await t.container.worker.runDue();
    const topUps = await topUpOrdersOf(t, s.esimId);
    expect(topUps).toHaveLength(1);
    expect(await attemptsOf(t, s.esimId)).toEqual([
      expect.objectContaining({ status: 'succeeded', orderId: topUps[0]!.id }),
    ]);
    expect(await purchasesOf(t, s.p.id)).toHaveLength(2); // the eSIM and one top-up
    await expectLedgerInvariant(t.container);
  });

  it('stops at maxPerMonth in a calendar month and buys again in the next', async () => {
    t.clock.set(new Date('2026-11-20T12:00:00Z'));
    const s = await enabled(10_000, { maxPerMonth: 2, whenPercentUsed: 80 });
    const cross = async () => {
      const esim = await esimRow(t, s.esimId);
      await report(t, s.esimId, Math.ceil(esim.totalVolumeMb * 0.9));
      await t.container.worker.runDue();
    };
    await cross();
    await cross();
    const before = await balanceOf(t.container, s.p.id);
    await cross();
    let attempts = await attemptsOf(t, s.esimId);
    expect(attempts.map((a) => [a.crossing, a.status, a.reason, a.month])).toEqual([
      [1, 'succeeded', null, '2026-11'],
      [2, 'succeeded', null, '2026-11'],
      [3, 'failed', 'monthly_limit', '2026-11'],
    ]);
    expect(await balanceOf(t.container, s.p.id)).toBe(before);
    // Refused crossings re-arm like any other once the usage drops: a new month, a new reading.
    t.clock.set(new Date('2026-12-01T00:00:01Z'));
    await report(t, s.esimId, 0);
    await cross();
    attempts = await attemptsOf(t, s.esimId);
    expect(attempts.at(-1)).toMatchObject({ crossing: 4, status: 'succeeded', month: '2026-12' });
    expect(await topUpOrdersOf(t, s.esimId)).toHaveLength(3);
    const types = (await autoTopUpEvents(s.p.headers)).map((e) => [e.type, e.data.reason ?? null]);
    expect(types).toEqual([
      ['esim.auto_topup_succeeded', null],
      ['esim.auto_topup_succeeded', null],
      ['esim.auto_topup_failed', 'monthly_limit'],
      ['esim.auto_topup_succeeded', null],
    ]);
    await expectLedgerInvariant(t.container);
    await expectReconcileClean(t);
  });

  it('insufficient balance: failed event, nothing charged, no order', async () => {
    const s = await enabled(0);
    const before = await balanceOf(t.container, s.p.id);
    await report(t, s.esimId, 1000);
    await t.container.worker.runDue();
    expect(await attemptsOf(t, s.esimId)).toEqual([
      expect.objectContaining({ status: 'failed', reason: 'insufficient_balance', orderId: null }),
    ]);
    expect(await balanceOf(t.container, s.p.id)).toBe(before);
    expect(await topUpOrdersOf(t, s.esimId)).toEqual([]);
    const events = await autoTopUpEvents(s.p.headers);
    expect(events).toEqual([
      expect.objectContaining({
        type: 'esim.auto_topup_failed',
        data: expect.objectContaining({ reason: 'insufficient_balance', orderId: null, planId: s.topUp.id }),
      }),
    ]);
    // Still at the threshold: the trigger waits for the usage to drop before it fires again.
    await report(t, s.esimId, 1010);
    expect(await attemptsOf(t, s.esimId)).toHaveLength(1);
    await expectLedgerInvariant(t.container);
  });

  it('provider failure: the order is refunded, then the failure is told (provider_error)', async () => {
    const s = await enabled(10_000);
    const before = await balanceOf(t.container, s.p.id);
    await t.container.sandboxEsim!.setFailNext(10);
    try {
      await report(t, s.esimId, 1000);
      await t.container.worker.runDue();
      const [pending] = await attemptsOf(t, s.esimId);
      expect(pending).toMatchObject({ status: 'pending', orderId: expect.any(String) });
      // The order's own fulfillment job retries, runs out and refunds; the auto top-up job sees it.
      for (let i = 0; i < 6; i++) {
        t.clock.advance(5 * 60_000);
        await t.container.worker.runDue();
      }
    } finally {
      await t.container.sandboxEsim!.setFailNext(0);
    }
    const [attempt] = await attemptsOf(t, s.esimId);
    expect(attempt).toMatchObject({ status: 'failed', reason: 'provider_error' });
    const [order] = await topUpOrdersOf(t, s.esimId);
    expect(order).toMatchObject({ status: 'REFUNDED', id: attempt!.orderId });
    expect(await balanceOf(t.container, s.p.id)).toBe(before);
    const events = await autoTopUpEvents(s.p.headers);
    expect(events.map((e) => [e.type, e.data.reason, e.data.orderId])).toEqual([
      ['esim.auto_topup_failed', 'provider_error', order!.id],
    ]);
    await expectLedgerInvariant(t.container);
    await expectReconcileClean(t);
  });

  it('reconcile reports an auto top-up that disagrees with its order, and one left pending', async () => {
    const s = await enabled(10_000);
    await report(t, s.esimId, 1000);
    await t.container.worker.runDue();
    const [attempt] = await attemptsOf(t, s.esimId);
    // A "succeeded" auto top-up whose order was refunded after all.
    await t.container.db.update(orders).set({ status: 'REFUNDED' }).where(eq(orders.id, attempt!.orderId!));
    let found = await reconcile({ db: t.container.db, clock: t.clock });
    // (The order's own checks also see a refund status without a refund.)
    expect(
      found.problems.filter((p) => p.check.startsWith('auto_topup')).map((p) => [p.check, p.orderId]),
    ).toEqual([['auto_topup_mismatch', attempt!.orderId]]);
    await t.container.db.update(orders).set({ status: 'COMPLETED' }).where(eq(orders.id, attempt!.orderId!));
    // A pending one older than the stuck window.
    await t.container.db
      .update(autoTopUpAttempts)
      .set({ status: 'pending', createdAt: new Date(t.clock.now().getTime() - 7 * 3600_000) })
      .where(eq(autoTopUpAttempts.id, attempt!.id));
    found = await reconcile({ db: t.container.db, clock: t.clock });
    expect(found.problems.map((p) => p.check)).toEqual(['auto_topup_stuck']);
    await t.container.db
      .update(autoTopUpAttempts)
      .set({ status: 'succeeded' })
      .where(eq(autoTopUpAttempts.id, attempt!.id));
    await expectReconcileClean(t);
  });

  it('turned off after the crossing, before the job ran: nothing is bought or told', async () => {
    const s = await enabled(10_000);
    await report(t, s.esimId, 1000);
    expect((await patchPartner(t, s.p.headers, s.iccid, { enabled: false })).statusCode).toBe(200);
    await t.container.worker.runDue();
    expect(await attemptsOf(t, s.esimId)).toEqual([
      expect.objectContaining({ status: 'failed', reason: null, orderId: null }),
    ]);
    expect(await topUpOrdersOf(t, s.esimId)).toEqual([]);
    expect(await autoTopUpEvents(s.p.headers)).toEqual([]);
  });

  it('a disabled auto top-up buys nothing and does not count crossings', async () => {
    const s = await enabled(10_000);
    expect((await patchPartner(t, s.p.headers, s.iccid, { enabled: false })).statusCode).toBe(200);
    await report(t, s.esimId, 1000);
    await t.container.worker.runDue();
    expect(await attemptsOf(t, s.esimId)).toEqual([]);
    expect(await settingsRow(t, s.esimId)).toMatchObject({ enabled: false, crossing: 0 });
    const pendingJobs = await t.container.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, AUTO_TOP_UP_JOB), eq(jobs.status, 'pending')));
    expect(pendingJobs).toEqual([]);
  });
});
