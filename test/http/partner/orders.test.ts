import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '../../../src/db/schema/index.js';
import { ORDER_JOBS } from '../../../src/domain/orders/ports.js';
import type { SellablePlan } from '../../../src/domain/catalog/catalog.service.js';
import { centsToUsd } from '../../../src/lib/money.js';
import { BASE_URL, buildTestApp, type TestApp } from '../../helpers/app.js';
import { pickPlan } from '../../helpers/catalog.js';
import { balanceOf, createPlan } from '../../helpers/factories.js';
import { adminPost, createPartner, postOrder } from './helpers.js';
import { expectLedgerInvariant } from '../../helpers/ledger.js';

const ORDERS = '/api/public/v1/orders';
const ESIM_KEYS = [
  'activationCode',
  'iccid',
  'id',
  'installUrl',
  'livemode',
  'qrCodeUrl',
  'smdpAddress',
  'status',
];

describe('Partner orders', () => {
  let t: TestApp;
  let plan: SellablePlan;
  let price: number;

  beforeAll(async () => {
    t = await buildTestApp();
    plan = await pickPlan(t.container);
    price = plan.effectivePriceCents;
  });
  afterAll(() => t.close());

  const partner = (balanceCents: number) => createPartner(t, balanceCents);

  const order = (headers: Record<string, string>, payload: unknown, extra: Record<string, string> = {}) =>
    postOrder(t, headers, payload, extra);
  const admin = (url: string, payload: object) => adminPost(t, url, payload);

  describe('POST /orders', () => {
    it('charges the wallet and returns 201 with the eSIMs issued', async () => {
      const p = await partner(price * 3);
      const res = await order(p.headers, { planId: plan.id, quantity: 2 });
      expect(res.statusCode, res.body).toBe(201);
      const body = res.json();
      expect(body).toMatchObject({
        id: expect.stringMatching(/^ord_/),
        orderNumber: expect.stringMatching(/^SVC-API-/),
        status: 'COMPLETED',
        amountUsd: centsToUsd(price * 2),
        planId: plan.id,
        quantity: 2,
      });
      expect(body.esims).toHaveLength(2);
      for (const esim of body.esims) {
        expect(Object.keys(esim).sort()).toEqual(ESIM_KEYS);
        expect(esim.status).toBe('PENDING');
        expect(esim.activationCode).toBe(`LPA:1$${esim.smdpAddress}$${esim.activationCode.split('$')[2]}`);
        expect(esim.qrCodeUrl.startsWith(`${BASE_URL}/`)).toBe(true);
        expect(esim.installUrl).toMatch(new RegExp(`^${BASE_URL}/install/[A-Za-z0-9_-]{43}$`));
        expect(esim.iccid).toMatch(/^\d{18,22}$/);
      }
      expect(res.headers['x-ratelimit-limit']).toBe('30');
      expect(await balanceOf(t.container, p.id)).toBe(price);
      await expectLedgerInvariant(t.container);
    });

    it('answers 402 INSUFFICIENT_BALANCE and charges nothing', async () => {
      const p = await partner(price - 1);
      const fulfillJobs = async () =>
        (await t.database.db.select().from(jobs).where(eq(jobs.kind, ORDER_JOBS.fulfill))).length;
      const jobsBefore = await fulfillJobs();
      const res = await order(p.headers, { planId: plan.id, quantity: 1 });
      expect(res.statusCode).toBe(402);
      expect(res.json().error.code).toBe('INSUFFICIENT_BALANCE');
      expect(await balanceOf(t.container, p.id)).toBe(price - 1);
      // The fulfillment job is written with the order, before the charge: rolled back with it.
      expect(await fulfillJobs()).toBe(jobsBefore);
      const list = await t.app.inject({ url: ORDERS, headers: p.headers });
      expect(list.json()).toEqual({ orders: [], hasMore: false });
    });

    it('answers 404 PLAN_NOT_FOUND for unknown and inactive plans', async () => {
      const p = await partner(price * 2);
      const inactive = await createPlan(t.container, { active: false, priceCents: 100 });
      for (const planId of ['plan_does_not_exist', inactive.id]) {
        const res = await order(p.headers, { planId, quantity: 1 });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ error: { code: 'PLAN_NOT_FOUND', message: expect.any(String) } });
      }
      expect(await balanceOf(t.container, p.id)).toBe(price * 2);
    });

    it('answers 400 VALIDATION_ERROR for malformed input and charges nothing', async () => {
      const p = await partner(price * 2);
      const cases: unknown[] = [
        { planId: plan.id, quantity: 0 },
        { planId: plan.id, quantity: 11 },
        { planId: plan.id, quantity: 1.5 },
        { planId: plan.id },
        { quantity: 1 },
        { planId: { id: plan.id }, quantity: 1 },
        { planId: '', quantity: 1 },
        // iccid is only for top-up plans.
        { planId: plan.id, quantity: 1, iccid: '8937204016150000001' },
      ];
      for (const payload of cases) {
        const res = await order(p.headers, payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json().error.code).toBe('VALIDATION_ERROR');
      }
      const notJson = await t.app.inject({
        method: 'POST',
        url: ORDERS,
        headers: { ...p.headers, 'content-type': 'application/json' },
        payload: '{"planId":',
      });
      expect(notJson.statusCode).toBe(400);
      expect(await balanceOf(t.container, p.id)).toBe(price * 2);
    });

    it('applies the top-up rules: iccid required, quantity 1, an eSIM of the caller', async () => {
      const topUp = await pickPlan(t.container, { isTopUp: true });
      const p = await partner(price + topUp.effectivePriceCents * 3);
      const other = await partner(price);
      const base = (await order(p.headers, { planId: plan.id, quantity: 1 })).json();
      const foreign = (await order(other.headers, { planId: plan.id, quantity: 1 })).json();
      const iccid = base.esims[0].iccid;
      const invalid = [
        { planId: topUp.id, quantity: 1 },
        { planId: topUp.id, quantity: 2, iccid },
        { planId: topUp.id, quantity: 1, iccid: foreign.esims[0].iccid },
      ];
      for (const payload of invalid) {
        const res = await order(p.headers, payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json().error.code).toBe('VALIDATION_ERROR');
      }
      const ok = await order(p.headers, { planId: topUp.id, quantity: 1, iccid });
      expect(ok.statusCode, ok.body).toBe(201);
      expect(ok.json().amountUsd).toBe(centsToUsd(topUp.effectivePriceCents));
      expect(await balanceOf(t.container, p.id)).toBe(topUp.effectivePriceCents * 2);
    });
  });

  describe('Idempotency-Key', () => {
    it('replays the first response for the same key and body, charging once', async () => {
      const p = await partner(price * 5);
      const key = { 'idempotency-key': 'order-001' };
      const first = await order(p.headers, { planId: plan.id, quantity: 1 }, key);
      // Same body with keys in another order: the same request.
      const again = await order(p.headers, { quantity: 1, planId: plan.id }, key);
      expect(first.statusCode).toBe(201);
      expect(again.statusCode).toBe(201);
      expect(again.json()).toEqual(first.json());
      expect(await balanceOf(t.container, p.id)).toBe(price * 4);

      const reused = await order(p.headers, { planId: plan.id, quantity: 2 }, key);
      expect(reused.statusCode).toBe(409);
      expect(reused.json().error.code).toBe('IDEMPOTENCY_KEY_REUSED');
      expect(await balanceOf(t.container, p.id)).toBe(price * 4);
    });

    it('charges once when the same key arrives in parallel', async () => {
      const p = await partner(price * 5);
      const key = { 'idempotency-key': 'parallel-key' };
      const responses = await Promise.all(
        Array.from({ length: 5 }, () => order(p.headers, { planId: plan.id, quantity: 1 }, key)),
      );
      expect(responses.map((r) => r.statusCode)).toEqual([201, 201, 201, 201, 201]);
      expect(new Set(responses.map((r) => r.json().id)).size).toBe(1);
      expect(await balanceOf(t.container, p.id)).toBe(price * 4);
      await expectLedgerInvariant(t.container);
    });

    it('keeps keys per account', async () => {
      const a = await partner(price);
      const b = await partner(price);
      const key = { 'idempotency-key': 'shared-name' };
      const first = await order(a.headers, { planId: plan.id, quantity: 1 }, key);
      const second = await order(b.headers, { planId: plan.id, quantity: 1 }, key);
      expect(second.statusCode).toBe(201);
      expect(second.json().id).not.toBe(first.json().id);
      expect(await balanceOf(t.container, b.id)).toBe(0);
    });
  });

  describe('GET /orders', () => {
    it('pages newest first with limit, hasMore and startingAfter, without eSIM data', async () => {
      const p = await partner(price * 3);
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        ids.push((await order(p.headers, { planId: plan.id, quantity: 1 })).json().id);
        t.clock.advance(1_000);
      }
      const page1 = await t.app.inject({ url: `${ORDERS}?limit=2`, headers: p.headers });
      expect(page1.statusCode).toBe(200);
      expect(page1.json().orders.map((o: { id: string }) => o.id)).toEqual([ids[2], ids[1]]);
      expect(page1.json().hasMore).toBe(true);
      expect(Object.keys(page1.json().orders[0]).sort()).toEqual(
        ['amountUsd', 'createdAt', 'id', 'livemode', 'orderNumber', 'planId', 'quantity', 'status'].sort(),
      );
      const page2 = await t.app.inject({
        url: `${ORDERS}?limit=2&startingAfter=${ids[1]}`,
        headers: p.headers,
      });
      expect(page2.json()).toMatchObject({ orders: [{ id: ids[0] }], hasMore: false });
      const all = await t.app.inject({ url: ORDERS, headers: p.headers });
      expect(all.json().orders).toHaveLength(3);
    });

    it('answers 400 for a limit outside 1–100 and for an unknown cursor', async () => {
      const p = await partner(price);
      const other = await partner(price);
      const foreignId = (await order(other.headers, { planId: plan.id, quantity: 1 })).json().id;
      for (const query of [
        'limit=101',
        'limit=0',
        'limit=abc',
        'startingAfter=ord_unknown',
        `startingAfter=${foreignId}`,
      ]) {
        const res = await t.app.inject({ url: `${ORDERS}?${query}`, headers: p.headers });
        expect(res.statusCode, query).toBe(400);
        expect(res.json().error.code).toBe('VALIDATION_ERROR');
      }
      expect((await t.app.inject({ url: `${ORDERS}?limit=100`, headers: p.headers })).statusCode).toBe(200);
    });
  });

  describe('GET /orders/:id', () => {
    it('returns the eSIMs with usage read from the provider and reused for USAGE_CACHE_SECONDS', async () => {
      const p = await partner(price);
      const created = (await order(p.headers, { planId: plan.id, quantity: 1 })).json();
      const url = `${ORDERS}/${created.id}`;
      const first = await t.app.inject({ url, headers: p.headers });
      expect(first.statusCode).toBe(200);
      expect(first.json()).toMatchObject({
        id: created.id,
        orderNumber: created.orderNumber,
        status: 'COMPLETED',
      });
      expect(first.json().esims[0]).toEqual({
        ...created.esims[0],
        dataUsageMb: 0,
        totalVolumeMb: plan.dataAmountMb,
      });

      const usage = await admin('/sandbox/esim-provider/usage', {
        iccid: created.esims[0].iccid,
        usedMb: 100,
      });
      expect(usage.statusCode, usage.body).toBe(200);
      const cached = await t.app.inject({ url, headers: p.headers });
      expect(cached.json().esims[0].dataUsageMb).toBe(0);
      t.clock.advance(t.config.usageCacheSeconds * 1000);
      const fresh = await t.app.inject({ url, headers: p.headers });
      expect(fresh.json().esims[0]).toMatchObject({ dataUsageMb: 100, totalVolumeMb: plan.dataAmountMb });
    });

    it("answers 404 ORDER_NOT_FOUND for another account's order and for unknown ids", async () => {
      const owner = await partner(price);
      const stranger = await partner(0);
      const created = (await order(owner.headers, { planId: plan.id, quantity: 1 })).json();
      for (const id of [created.id, 'ord_unknown']) {
        const res = await t.app.inject({ url: `${ORDERS}/${id}`, headers: stranger.headers });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ error: { code: 'ORDER_NOT_FOUND', message: expect.any(String) } });
      }
    });
  });
});
