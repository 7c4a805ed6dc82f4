import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { pickPlan } from '../../helpers/catalog.js';
import { PARTNER_ROOT, postOrder } from '../partner/helpers.js';
import { partnerTeam } from './helpers.js';

/**
 * Issue 32 C7: the personal pages (/user/orders, /user/esims) show the account's web purchases
 * only; the console's overview (/partners/{id}/orders) the Partner API orders of its mode only.
 */
describe('personal and partner orders never mix', () => {
  let t: TestApp;
  let team: Awaited<ReturnType<typeof partnerTeam>>;
  let webOrder: { id: string; esimIds: string[] };
  let liveOrder: { id: string; esims: Array<{ id: string; iccid: string }> };
  let testOrder: { id: string; esims: Array<{ id: string }> };
  beforeAll(async () => {
    t = await buildTestApp();
    team = await partnerTeam(t);
    const testKey = (await t.container.apiKeys.generate(team.owner.id, 'test')).key;
    const plan = await pickPlan(t.container);
    const web = await t.app.inject({
      method: 'POST',
      url: '/api/v1/checkout',
      headers: team.owner.auth,
      payload: { planId: plan.id, paymentMethod: 'wallet' },
    });
    expect(web.statusCode).toBe(200);
    const detail = await t.app.inject({
      url: `/api/v1/user/orders/${web.json().orderId}`,
      headers: team.owner.auth,
    });
    webOrder = detail.json().order;
    const live = await postOrder(t, { 'x-api-key': team.key }, { planId: plan.id, quantity: 2 });
    expect(live.statusCode).toBe(201);
    liveOrder = live.json();
    const test = await postOrder(t, { 'x-api-key': testKey }, { planId: plan.id, quantity: 1 });
    expect(test.statusCode).toBe(201);
    testOrder = test.json();
  });
  afterAll(() => t.close());

  it('lists only web purchases on the personal pages', async () => {
    const orders = await t.app.inject({ url: '/api/v1/user/orders', headers: team.owner.auth });
    expect(orders.json().orders.map((o: { id: string }) => o.id)).toEqual([webOrder.id]);
    const paged = await t.app.inject({ url: '/api/v1/user/orders?limit=10', headers: team.owner.auth });
    expect(paged.json().orders.map((o: { id: string }) => o.id)).toEqual([webOrder.id]);
    const esims = await t.app.inject({ url: '/api/v1/user/esims', headers: team.owner.auth });
    expect(esims.json().esims.map((e: { id: string }) => e.id)).toEqual(webOrder.esimIds);
    const web = await t.app.inject({ url: '/api/v1/user/esims?channel=web', headers: team.owner.auth });
    expect(web.json().esims.map((e: { id: string }) => e.id)).toEqual(webOrder.esimIds);
    // The Partner API's orders are not reachable there, not even by id or by asking for them.
    for (const id of [liveOrder.id, testOrder.id]) {
      const one = await t.app.inject({ url: `/api/v1/user/orders/${id}`, headers: team.owner.auth });
      expect(one.statusCode, id).toBe(404);
    }
    const api = await t.app.inject({ url: '/api/v1/user/orders?channel=api', headers: team.owner.auth });
    expect(api.statusCode).toBe(400);
  });

  it('lists only Partner API orders of the mode in the console, with their eSIMs', async () => {
    const live = await t.app.inject({ url: team.url('/orders'), headers: team.viewer.auth });
    expect(live.statusCode).toBe(200);
    expect(live.json().total).toBe(1);
    const [order] = live.json().orders;
    expect(order).toMatchObject({ id: liveOrder.id, livemode: true, planName: expect.any(String) });
    expect(order.orderNumber).toMatch(/^SVC-API-/);
    expect(order.esims.map((e: { id: string }) => e.id)).toEqual(liveOrder.esims.map((e) => e.id));
    expect(order.esims[0]).toEqual({
      id: expect.any(String),
      iccid: liveOrder.esims[0]!.iccid,
      status: expect.any(String),
      dataUsageMb: expect.any(Number),
      totalVolumeMb: expect.any(Number),
      expiresAt: expect.toSatisfy((v: unknown) => v === null || typeof v === 'string'),
    });
    // No activation data in the overview: a Viewer reads it.
    expect(JSON.stringify(order)).not.toContain('LPA:');

    const test = await t.app.inject({ url: team.url('/orders?mode=test'), headers: team.finance.auth });
    expect(test.json().orders.map((o: { id: string }) => o.id)).toEqual([testOrder.id]);
    expect(test.json().total).toBe(1);
    expect(JSON.stringify(live.json())).not.toContain(webOrder.id);
    expect(JSON.stringify(test.json())).not.toContain(webOrder.id);
  });

  it('pages the console orders', async () => {
    const plan = await pickPlan(t.container);
    t.clock.advance(1000);
    const again = await postOrder(t, { 'x-api-key': team.key }, { planId: plan.id, quantity: 1 });
    expect(again.statusCode).toBe(201);
    const first = await t.app.inject({ url: team.url('/orders?limit=1'), headers: team.owner.auth });
    expect(first.json().total).toBe(2);
    expect(first.json().orders).toHaveLength(1);
    const next = await t.app.inject({
      url: team.url(`/orders?limit=1&cursor=${first.json().nextCursor}`),
      headers: team.owner.auth,
    });
    expect(next.json().orders.map((o: { id: string }) => o.id)).toEqual([liveOrder.id]);
    expect(next.json().nextCursor).toBeNull();
  });

  it('shows the wallet of the mode to every role (partner.read), not to strangers', async () => {
    for (const who of ['owner', 'admin', 'developer', 'finance', 'viewer'] as const) {
      const res = await t.app.inject({ url: team.url('/wallet'), headers: team[who].auth });
      expect(res.statusCode, who).toBe(200);
      expect(res.json()).toMatchObject({ currency: 'USD', lowBalanceThreshold: expect.any(Number) });
    }
    const live = await t.app.inject({ url: team.url('/wallet'), headers: team.owner.auth });
    const apiWallet = await t.app.inject({
      url: `${PARTNER_ROOT}/wallet`,
      headers: { 'x-api-key': team.key },
    });
    expect(live.json()).toEqual(apiWallet.json());
    const test = await t.app.inject({ url: team.url('/wallet?mode=test'), headers: team.owner.auth });
    expect(test.json().balanceUsd).not.toBe(live.json().balanceUsd);
    for (const path of ['/wallet', '/orders']) {
      const stranger = await t.app.inject({ url: team.url(path), headers: team.stranger.auth });
      expect(stranger.statusCode, path).toBe(404);
    }
  });
});
