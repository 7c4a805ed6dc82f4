import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events } from '../../../src/db/schema/index.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { pickPlan } from '../../helpers/catalog.js';
import { eventsSettled } from '../../helpers/events.js';
import { createUser } from '../../helpers/factories.js';
import { PARTNER_ROOT, postOrder } from './helpers.js';

/**
 * H12: the Partner surface shows and announces only orders placed through the Partner API; the
 * Mobile lists show web purchases only (issue 32 C7: `channel=web` is their only value).
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('web orders stay off the Partner surface', () => {
  it('lists, shows and announces only SVC-API- orders; the Mobile list shows only web orders', async () => {
    const plan = await pickPlan(t.container);
    const user = await createUser(t.container, { balanceCents: plan.effectivePriceCents * 3 });
    const { key } = await t.container.apiKeys.generate(user.id);
    const headers = { 'x-api-key': key };
    const checkout = (paymentMethod: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/checkout',
        headers: user.auth,
        payload: { planId: plan.id, paymentMethod },
      });
    const webPaid = await checkout('wallet');
    expect(webPaid.statusCode).toBe(200);
    const webCard = await checkout('card');
    expect(webCard.statusCode).toBe(200);
    const api = await postOrder(t, headers, { planId: plan.id, quantity: 1 });
    expect(api.statusCode).toBe(201);
    const apiOrder = api.json();
    const webIds: string[] = [webPaid.json().orderId, webCard.json().orderId];
    expect(webIds.every((id) => typeof id === 'string')).toBe(true);

    const list = await t.app.inject({ url: `${PARTNER_ROOT}/orders`, headers });
    expect(list.json().orders.map((o: { id: string }) => o.id)).toEqual([apiOrder.id]);
    expect(list.json().orders[0].orderNumber).toMatch(/^SVC-API-/);
    for (const id of webIds) {
      const one = await t.app.inject({ url: `${PARTNER_ROOT}/orders/${id}`, headers });
      expect(one.statusCode, id).toBe(404);
    }
    await eventsSettled(t.container);
    const announced = await t.container.db.select().from(events).where(eq(events.accountId, user.id));
    expect(announced.map((e) => (e.data as { id?: string }).id)).toEqual([apiOrder.id]);
    const listed = (await t.app.inject({ url: `${PARTNER_ROOT}/events`, headers })).json().data;
    expect(listed.map((e: { data: { id: string } }) => e.data.id)).toEqual([apiOrder.id]);

    const mobile = async (query: string) =>
      (await t.app.inject({ url: `/api/v1/user/orders${query}`, headers: user.auth }))
        .json()
        .orders.map((o: { id: string }) => o.id)
        .sort();
    expect(await mobile('?channel=web')).toEqual([...webIds].sort());
    expect(await mobile('')).toEqual([...webIds].sort());
    const apiChannel = await t.app.inject({ url: '/api/v1/user/orders?channel=api', headers: user.auth });
    expect(apiChannel.statusCode).toBe(400);
    const bad = await t.app.inject({ url: '/api/v1/user/orders?channel=shop', headers: user.auth });
    expect(bad.statusCode).toBe(400);
  });
});

describe('the Mobile eSIM list shows web eSIMs only (H12, issue 32 C7)', () => {
  it('lists eSIMs of web orders, never of Partner orders, and pages within that list', async () => {
    const plan = await pickPlan(t.container);
    const user = await createUser(t.container, { balanceCents: plan.effectivePriceCents * 4 });
    const { key } = await t.container.apiKeys.generate(user.id);
    const headers = { 'x-api-key': key };
    const webEsims: string[] = [];
    for (let i = 0; i < 2; i++) {
      const web = await t.app.inject({
        method: 'POST',
        url: '/api/v1/checkout',
        headers: user.auth,
        payload: { planId: plan.id, paymentMethod: 'wallet' },
      });
      expect(web.statusCode).toBe(200);
      const order = await t.app.inject({
        url: `/api/v1/user/orders/${web.json().orderId}`,
        headers: user.auth,
      });
      webEsims.push(...(order.json().order.esimIds as string[]));
    }
    const api = await postOrder(t, headers, { planId: plan.id, quantity: 1 });
    expect(api.statusCode).toBe(201);
    const apiEsims: string[] = api.json().esims.map((e: { id: string }) => e.id);
    expect(webEsims).toHaveLength(2);
    expect(apiEsims).toHaveLength(1);

    const list = async (query: string) => {
      const res = await t.app.inject({ url: `/api/v1/user/esims${query}`, headers: user.auth });
      expect(res.statusCode, query).toBe(200);
      return res.json<{ esims: { id: string }[]; nextCursor?: string }>();
    };
    const ids = async (query: string) => (await list(query)).esims.map((e) => e.id).sort();
    expect(await ids('?channel=web')).toEqual([...webEsims].sort());
    expect(await ids('')).toEqual([...webEsims].sort());
    expect(apiEsims.some((id) => webEsims.includes(id))).toBe(false);

    // A page of the web list continues the web list, never the unfiltered one.
    const first = await list('?channel=web&limit=1');
    expect(first.nextCursor).toBeDefined();
    const second = await list(`?channel=web&limit=1&cursor=${encodeURIComponent(first.nextCursor!)}`);
    expect([...first.esims, ...second.esims].map((e) => e.id).sort()).toEqual([...webEsims].sort());
    expect(second.nextCursor ?? null).toBeNull();
    const same = await list(`?limit=1&cursor=${encodeURIComponent(first.nextCursor!)}`);
    expect(same.esims.map((e) => e.id)).toEqual(second.esims.map((e) => e.id));

    const bad = await t.app.inject({ url: '/api/v1/user/esims?channel=shop', headers: user.auth });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
  });
});
