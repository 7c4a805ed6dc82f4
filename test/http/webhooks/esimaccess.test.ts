import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { esims, jobs, orders, providerNotifications } from '../../../src/db/schema/index.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { pickPlan } from '../../helpers/catalog.js';
import { eventsSettled } from '../../helpers/events.js';
import { adminPost, createPartner, PARTNER_ROOT, postOrder } from '../partner/helpers.js';

const TOKEN = 'esimaccess-hook-token-0123456789';
const PATH = `/webhooks/esim/esimaccess/${TOKEN}`;
/** The URL operators registered at eSIM Access before the generic one: declared by the adapter. */
const ALIAS = `/webhooks/esimaccess/${TOKEN}`;
const MB = 1_048_576;

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({ env: { ESIMACCESS_WEBHOOK_TOKEN: TOKEN } });
});
afterAll(() => t.close());

function send(payload: unknown, url = PATH, remoteAddress?: string) {
  return t.app.inject({
    method: 'POST',
    url,
    payload: payload as object,
    ...(remoteAddress ? { remoteAddress } : {}),
  });
}

async function partnerWithEsim() {
  const plan = await pickPlan(t.container);
  const p = await createPartner(t, plan.effectivePriceCents);
  const order = (await postOrder(t, p.headers, { planId: plan.id, quantity: 1 })).json();
  const [row] = await t.container.db.select().from(esims).where(eq(esims.id, order.esims[0].id));
  return { p, order, esim: row!, plan };
}

async function thresholdEvents(headers: Record<string, string>) {
  await eventsSettled(t.container);
  const res = await t.app.inject({ url: `${PARTNER_ROOT}/events?limit=100`, headers });
  return (res.json().data as Array<{ type: string; data: { thresholdPercent: number } }>)
    .filter((e) => e.type === 'esim.usage_threshold')
    .map((e) => e.data.thresholdPercent);
}

describe('POST /webhooks/esim/esimaccess/<token> (alias /webhooks/esimaccess/<token>)', () => {
  it('answers 404 for a wrong token, and the route is absent without ESIMACCESS_WEBHOOK_TOKEN', async () => {
    const body = { notifyType: 'CHECK_HEALTH', content: { orderNo: '1', orderStatus: 'Test' } };
    for (const url of [
      '/webhooks/esim/esimaccess/not-the-token-000000',
      '/webhooks/esimaccess/not-the-token-000000',
    ]) {
      const wrong = await send(body, url);
      expect(wrong.statusCode).toBe(404);
      expect(wrong.json().error.code).toBe('NOT_FOUND');
    }
    expect((await send(body, '/webhooks/esimaccess')).statusCode).toBe(404);
    expect((await send(body, '/webhooks/esim/esimaccess')).statusCode).toBe(404);
    const bare = await buildTestApp();
    try {
      for (const url of [PATH, ALIAS]) {
        const res = await bare.app.inject({ method: 'POST', url, payload: body });
        expect(res.statusCode).toBe(404);
      }
    } finally {
      await bare.close();
    }
  });

  it('applies a notification at the alias exactly as at the generic URL: one record, one provider', async () => {
    const body = { notifyType: 'CHECK_HEALTH', notifyId: 'alias-1', content: {} };
    expect((await send(body, ALIAS)).json()).toEqual({ received: true });
    expect((await send(body, PATH)).statusCode).toBe(200);
    const rows = await t.container.db
      .select()
      .from(providerNotifications)
      .where(eq(providerNotifications.notifyId, 'alias-1'));
    expect(rows).toEqual([expect.objectContaining({ provider: 'esimaccess', outcome: 'health_check' })]);
  });

  it('accepts CHECK_HEALTH (so eSIM Access saves the URL) and refuses a body without notifyType', async () => {
    const ok = await send({
      notifyType: 'CHECK_HEALTH',
      content: { orderNo: '1234567890', orderStatus: 'Test' },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ received: true });
    const bad = await send({ content: {} });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('VALIDATION_ERROR');
    const notJson = await t.app.inject({
      method: 'POST',
      url: PATH,
      headers: { 'content-type': 'application/json' },
      payload: '{nope',
    });
    expect(notJson.statusCode).toBe(400);
  });

  it('DATA_USAGE updates usage and raises esim.usage_threshold; a replay changes nothing', async () => {
    const { p, esim, plan } = await partnerWithEsim();
    const usage = (usedMb: number, notifyId: string) => ({
      notifyType: 'DATA_USAGE',
      notifyId,
      eventGenerateTime: '2026-11-23T10:00:00+0000',
      content: {
        orderNo: 'B23110718759768',
        transactionId: esim.orderId,
        esimTranNo: esim.providerRef,
        iccid: esim.iccid,
        totalVolume: plan.dataAmountMb * MB,
        orderUsage: usedMb * MB,
        remain: (plan.dataAmountMb - usedMb) * MB,
        remainThreshold: 0.1,
        lastUpdateTime: '2026-11-23T09:45:00+0000',
      },
    });
    const used = Math.ceil(plan.dataAmountMb * 0.9);
    const first = await send(usage(used, 'a'.repeat(32)));
    expect(first.statusCode).toBe(200);
    const [after] = await t.container.db.select().from(esims).where(eq(esims.id, esim.id));
    expect(after!.dataUsageMb).toBe(used);
    // When eSIM Access measured it, not when it reached us.
    expect(after!.usageUpdatedAt).toEqual(new Date('2026-11-23T09:45:00Z'));
    expect(await thresholdEvents(p.headers)).toEqual([50, 80, 90]);

    // The same notification again (eSIM Access retries): no second change, no second event.
    const replay = await send(usage(used, 'a'.repeat(32)));
    expect(replay.statusCode).toBe(200);
    expect(await thresholdEvents(p.headers)).toEqual([50, 80, 90]);
    const rows = await t.container.db
      .select()
      .from(providerNotifications)
      .where(eq(providerNotifications.notifyId, 'a'.repeat(32)));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ provider: 'esimaccess', type: 'DATA_USAGE', outcome: 'usage_updated' });

    // A reading measured earlier that arrives late (another notifyId) is recorded, not applied.
    const late = usage(Math.ceil(plan.dataAmountMb * 0.2), 'c'.repeat(32));
    late.content.lastUpdateTime = '2026-11-23T09:30:00+0000';
    expect((await send(late)).statusCode).toBe(200);
    const [stale] = await t.container.db
      .select()
      .from(providerNotifications)
      .where(eq(providerNotifications.notifyId, 'c'.repeat(32)));
    expect(stale!.outcome).toBe('stale');

    // The partner sees the new usage.
    const detail = (
      await t.app.inject({ url: `${PARTNER_ROOT}/orders/${esim.orderId}`, headers: p.headers })
    ).json();
    expect(detail.esims[0].dataUsageMb).toBe(used);
  });

  it('ESIM_STATUS moves the eSIM forward (USED_UP → DEPLETED, 100 %) and never back', async () => {
    const { p, esim } = await partnerWithEsim();
    const status = (esimStatus: string, notifyId: string) => ({
      notifyType: 'ESIM_STATUS',
      notifyId,
      content: {
        orderNo: 'B1',
        transactionId: esim.orderId,
        esimTranNo: esim.providerRef,
        iccid: esim.iccid,
        esimStatus,
        smdpStatus: 'ENABLED',
      },
    });
    expect((await send(status('IN_USE', 'b1'))).statusCode).toBe(200);
    let [row] = await t.container.db.select().from(esims).where(eq(esims.id, esim.id));
    expect(row!.status).toBe('ACTIVE');
    expect(row!.activatedAt).not.toBeNull();
    await send(status('USED_UP', 'b2'));
    [row] = await t.container.db.select().from(esims).where(eq(esims.id, esim.id));
    expect(row!.status).toBe('DEPLETED');
    expect(await thresholdEvents(p.headers)).toEqual([50, 80, 90, 100]);
    // A late GOT_RESOURCE does not undo it.
    await send(status('GOT_RESOURCE', 'b3'));
    [row] = await t.container.db.select().from(esims).where(eq(esims.id, esim.id));
    expect(row!.status).toBe('DEPLETED');
  });

  it('finds the eSIM by ICCID when esimTranNo is missing; VALIDITY_USAGE updates the expiry', async () => {
    const { esim } = await partnerWithEsim();
    const res = await send({
      notifyType: 'VALIDITY_USAGE',
      notifyId: 'c1',
      content: {
        orderNo: 'B2',
        transactionId: esim.orderId,
        iccid: esim.iccid,
        durationUnit: 'DAY',
        totalDuration: 30,
        expiredTime: '2027-01-11T08:10:19+0000',
        remain: 1,
      },
    });
    expect(res.statusCode).toBe(200);
    const [row] = await t.container.db.select().from(esims).where(eq(esims.id, esim.id));
    expect(row!.expiresAt?.toISOString()).toBe('2027-01-11T08:10:19.000Z');
  });

  it('ORDER_STATUS GOT_RESOURCE fetches the profiles of an order still waiting for them', async () => {
    const plan = await pickPlan(t.container);
    const p = await createPartner(t, plan.effectivePriceCents);
    await adminPost(t, '/sandbox/esim-provider/faults', { failNext: 1 });
    const res = await postOrder(t, p.headers, { planId: plan.id, quantity: 1 });
    expect(res.statusCode).toBe(502);
    const orderId = res.json().error.details.orderId as string;
    const notification = {
      notifyType: 'ORDER_STATUS',
      notifyId: 'd1',
      content: { orderNo: 'B3', transactionId: orderId, orderStatus: 'GOT_RESOURCE' },
    };
    expect((await send(notification)).statusCode).toBe(200);
    // The fulfillment retry is scheduled later; the notification's job runs now.
    await t.container.worker.runDue();
    const [order] = await t.container.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order!.status).toBe('COMPLETED');
    await eventsSettled(t.container);
    const types = (await t.app.inject({ url: `${PARTNER_ROOT}/events`, headers: p.headers }))
      .json()
      .data.map((e: { type: string }) => e.type);
    expect(types).toEqual(['order.fulfillment_failed', 'order.completed']);
  });

  it('ORDER_STATUS records one outcome per notification and queues a fetch only for a waiting order', async () => {
    const { order } = await partnerWithEsim();
    const readyJobs = async (orderId: string) =>
      (
        await t.container.db
          .select()
          .from(jobs)
          .where(eq(jobs.dedupeKey, `order-ready:${orderId}`))
      ).length;
    const gotResource = (notifyId: string, transactionId: string) => ({
      notifyType: 'ORDER_STATUS',
      notifyId,
      content: { orderNo: 'B4', transactionId, orderStatus: 'GOT_RESOURCE' },
    });
    for (const body of [
      gotResource('g1', order.id),
      gotResource('g1', 'ord_unknown'),
      gotResource('g2', 'ord_unknown'),
      {
        notifyType: 'ORDER_STATUS',
        notifyId: 'g3',
        content: { transactionId: order.id, orderStatus: 'OTHER' },
      },
    ]) {
      expect((await send(body)).statusCode).toBe(200);
    }
    const outcomes = Object.fromEntries(
      (await t.container.db.select().from(providerNotifications))
        .filter((r) => r.notifyId.startsWith('g'))
        .map((r) => [r.notifyId, { outcome: r.outcome, payload: r.payload, type: r.type }]),
    );
    expect(outcomes).toEqual({
      // The order completed when it was placed; the replay under the same id changed nothing.
      g1: { outcome: 'ignored', payload: gotResource('g1', order.id), type: 'ORDER_STATUS' },
      g2: { outcome: 'unknown_order', payload: gotResource('g2', 'ord_unknown'), type: 'ORDER_STATUS' },
      g3: { outcome: 'ignored', payload: expect.any(Object), type: 'ORDER_STATUS' },
    });
    expect(await readyJobs(order.id)).toBe(0);
  });

  it('ORDER_STATUS GOT_RESOURCE for a waiting order queues one fetch, however often it is sent', async () => {
    const plan = await pickPlan(t.container);
    const p = await createPartner(t, plan.effectivePriceCents);
    await adminPost(t, '/sandbox/esim-provider/faults', { failNext: 1 });
    const orderId = (await postOrder(t, p.headers, { planId: plan.id, quantity: 1 })).json().error.details
      .orderId as string;
    for (const notifyId of ['h1', 'h1', 'h2']) {
      const res = await send({
        notifyType: 'ORDER_STATUS',
        notifyId,
        content: { orderNo: 'B5', transactionId: orderId, orderStatus: 'GOT_RESOURCE' },
      });
      expect(res.statusCode).toBe(200);
    }
    const rows = (await t.container.db.select().from(providerNotifications)).filter((r) =>
      r.notifyId.startsWith('h'),
    );
    expect(rows.map((r) => [r.notifyId, r.outcome]).sort()).toEqual([
      ['h1', 'fulfillment_queued'],
      ['h2', 'fulfillment_queued'],
    ]);
    const ready = await t.container.db
      .select()
      .from(jobs)
      .where(eq(jobs.dedupeKey, `order-ready:${orderId}`));
    expect(ready).toHaveLength(1);
    expect(ready[0]).toMatchObject({
      kind: 'esim.order-ready',
      payload: { orderId },
      maxAttempts: 1,
      status: 'pending',
    });
  });

  it('an unknown eSIM or type is acknowledged and recorded, not applied', async () => {
    expect(
      (
        await send({
          notifyType: 'DATA_USAGE',
          notifyId: 'e1',
          content: { esimTranNo: 'nope', orderUsage: 1, totalVolume: 2 },
        })
      ).statusCode,
    ).toBe(200);
    expect((await send({ notifyType: 'SOMETHING_NEW', notifyId: 'e2', content: {} })).statusCode).toBe(200);
    const rows = await t.container.db.select().from(providerNotifications);
    expect(rows.find((r) => r.notifyId === 'e1')!.outcome).toBe('unknown_esim');
    expect(rows.find((r) => r.notifyId === 'e2')!.outcome).toBe('ignored');
  });
});

describe('ESIMACCESS_WEBHOOK_IPS', () => {
  it('accepts only the listed peer addresses, at the generic URL and at the alias', async () => {
    const limited = await buildTestApp({
      env: { ESIMACCESS_WEBHOOK_TOKEN: TOKEN, ESIMACCESS_WEBHOOK_IPS: '3.1.131.226, 54.254.74.88' },
    });
    try {
      const body = { notifyType: 'CHECK_HEALTH', notifyId: 'f1', content: {} };
      const refused = await limited.app.inject({
        method: 'POST',
        url: PATH,
        payload: body,
        remoteAddress: '203.0.113.9',
      });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error.code).toBe('FORBIDDEN');
      const allowed = await limited.app.inject({
        method: 'POST',
        url: PATH,
        payload: body,
        remoteAddress: '54.254.74.88',
      });
      expect(allowed.statusCode).toBe(200);
      const mapped = await limited.app.inject({
        method: 'POST',
        url: PATH,
        payload: { ...body, notifyId: 'f2' },
        remoteAddress: '::ffff:3.1.131.226',
      });
      expect(mapped.statusCode).toBe(200);
      const viaAlias = (remoteAddress: string) =>
        limited.app.inject({
          method: 'POST',
          url: ALIAS,
          payload: { ...body, notifyId: 'f3' },
          remoteAddress,
        });
      expect((await viaAlias('203.0.113.9')).statusCode).toBe(403);
      expect((await viaAlias('3.1.131.226')).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
