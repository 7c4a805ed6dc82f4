import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { esims } from '../../../src/db/schema/index.js';
import type { SellablePlan } from '../../../src/domain/catalog/catalog.service.js';
import { DAY } from '../../../src/lib/clock.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { eventsSettled } from '../../helpers/events.js';
import { pickPlan } from '../../helpers/catalog.js';
import { adminPost } from './helpers.js';
import { testModeKit } from './test-mode-kit.js';

/**
 * The eSIM lifecycle in test mode and the sandbox (issue 31 L3, L6): install, usage and expiry
 * helpers produce the same partner events as the live provider's webhooks.
 */
describe('test-mode lifecycle helpers and the sandbox lifecycle controls', () => {
  let t: TestApp;
  let plan: SellablePlan;

  beforeAll(async () => {
    t = await buildTestApp();
    plan = await pickPlan(t.container);
  });
  afterAll(() => t.close());

  const { partner, get, post, order } = testModeKit(() => ({ t, plan }));

  type Event = { type: string; livemode: boolean; data: Record<string, unknown> };
  // GET /events lists only events older than every open transaction of the database: on a shared
  // PostgreSQL another test file's transaction can hold them back a moment.
  const eventsOf = async (headers: Record<string, string>, type: string) => {
    await eventsSettled(t.container);
    return ((await get('/events?limit=100', headers)).json().data as Event[]).filter((e) => e.type === type);
  };

  it('install: esim.status_changed INSTALLED once; a live key is refused', async () => {
    const p = await partner();
    const esim = (await order(p.test)).json().esims[0] as { id: string; iccid: string };
    expect((await post(`/test/esims/${esim.iccid}/install`, p.live, {})).statusCode).toBe(403);
    const installed = await post(`/test/esims/${esim.iccid}/install`, p.test, {});
    expect(installed.statusCode, installed.body).toBe(200);
    expect(installed.json()).toMatchObject({ id: esim.id, iccid: esim.iccid, livemode: false });
    // Installed again (a replayed report): no second event.
    expect((await post(`/test/esims/${esim.id}/install`, p.test)).statusCode).toBe(200);
    const changed = await eventsOf(p.test, 'esim.status_changed');
    expect(changed).toHaveLength(1);
    expect(changed[0]).toMatchObject({
      livemode: false,
      data: { esim: { id: esim.id }, installState: 'INSTALLED', previousInstallState: null },
    });
    const [row] = await t.container.db.select().from(esims).where(eq(esims.id, esim.id));
    expect(row!.installState).toBe('INSTALLED');
    expect((await post('/test/esims/esim_nope/install', p.test, {})).statusCode).toBe(404);
  });

  it('usage: 50/80/90/100 with usageUpdatedAt; the first use also reports ENABLED', async () => {
    const p = await partner();
    const esim = (await order(p.test)).json().esims[0] as { id: string };
    const used = Math.ceil(plan.dataAmountMb * 0.95);
    expect((await post(`/test/esims/${esim.id}/usage`, p.test, { usedMb: used })).statusCode).toBe(200);
    const usage = await eventsOf(p.test, 'esim.usage_threshold');
    expect(usage.map((e) => e.data.thresholdPercent)).toEqual([50, 80, 90]);
    expect(usage[0]!.data.usageUpdatedAt).toBe(t.clock.now().toISOString());
    const changed = await eventsOf(p.test, 'esim.status_changed');
    expect(changed.map((e) => e.data.installState)).toEqual(['ENABLED']);
  });

  it('expire: 3, then 1 day left, each once; 0 expires the eSIM', async () => {
    const p = await partner();
    const esim = (await order(p.test)).json().esims[0] as { id: string };
    const expire = (daysLeft: number) => post(`/test/esims/${esim.id}/expire`, p.test, { daysLeft });
    expect((await expire(2)).statusCode).toBe(400);
    expect((await expire(3)).statusCode).toBe(200);
    expect((await expire(3)).statusCode).toBe(200);
    let expiring = await eventsOf(p.test, 'esim.expiring');
    expect(expiring.map((e) => e.data.daysLeft)).toEqual([3]);
    // eSIM Access reports times to the second.
    const end = Math.floor((t.clock.now().getTime() + 3 * DAY) / 1000) * 1000;
    expect(expiring[0]!.data.expiresAt).toBe(new Date(end).toISOString());
    expect((await expire(1)).statusCode).toBe(200);
    expiring = await eventsOf(p.test, 'esim.expiring');
    expect(expiring.map((e) => e.data.daysLeft)).toEqual([3, 1]);
    const expired = await expire(0);
    expect(expired.statusCode).toBe(200);
    expect(expired.json().status).toBe('EXPIRED');
    expect((await eventsOf(p.test, 'esim.expiring')).map((e) => e.data.daysLeft)).toEqual([3, 1]);
  });

  it('operator sandbox: status and expiry of a live sandbox eSIM, events through the webhook job', async () => {
    const p = await partner(plan.effectivePriceCents);
    const res = await order(p.live);
    expect(res.statusCode, res.body).toBe(201);
    const iccid = res.json().esims[0].iccid as string;
    for (const status of ['INSTALLED', 'ENABLED', 'DISABLED', 'DELETED']) {
      const set = await adminPost(t, '/sandbox/esim-provider/status', { iccid, status });
      expect(set.statusCode, set.body).toBe(200);
      expect(set.json().installState).toBe(status);
      await t.container.worker.runDue();
    }
    const changed = await eventsOf(p.live, 'esim.status_changed');
    expect(changed.map((e) => [e.data.previousInstallState, e.data.installState])).toEqual([
      [null, 'INSTALLED'],
      ['INSTALLED', 'ENABLED'],
      ['ENABLED', 'DISABLED'],
      ['DISABLED', 'DELETED'],
    ]);
    const expiry = await adminPost(t, '/sandbox/esim-provider/expiry', { iccid, daysLeft: 1 });
    expect(expiry.statusCode, expiry.body).toBe(200);
    await t.container.worker.runDue();
    expect((await eventsOf(p.live, 'esim.expiring')).map((e) => e.data.daysLeft)).toEqual([1]);
    expect(
      (
        await adminPost(t, '/sandbox/esim-provider/status', {
          iccid: '8990000000000000000',
          status: 'ENABLED',
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await adminPost(t, '/sandbox/esim-provider/status', { iccid, status: 'RELEASED' })).statusCode,
    ).toBe(400);
  });

  it('the periodic expiry scan announces a partner eSIM as its end comes near', async () => {
    const p = await partner(plan.effectivePriceCents);
    const esim = (await order(p.live)).json().esims[0] as { id: string };
    await t.container.db
      .update(esims)
      .set({ expiresAt: new Date(t.clock.now().getTime() + 4 * DAY) })
      .where(eq(esims.id, esim.id));
    await t.container.esimMilestones.scanExpiring();
    expect(await eventsOf(p.live, 'esim.expiring')).toEqual([]);
    t.clock.advance(DAY + 1000);
    await t.container.esimMilestones.scanExpiring();
    expect((await eventsOf(p.live, 'esim.expiring')).map((e) => e.data.daysLeft)).toEqual([3]);
  });
});
