import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { importCatalog } from '../../helpers/catalog.js';

/** The README's "Partner quick start", step by step, through HTTP only. */
describe('Partner quick start', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
    await importCatalog(t.container);
  });
  afterAll(() => t.close());

  it('register, get a key, fund through the sandbox card page, order, poll', async () => {
    const registered = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      payload: {
        firstName: 'Ada',
        lastName: 'Partner',
        email: 'ada@partner.example',
        password: 'a long password',
      },
    });
    expect(registered.statusCode, registered.body).toBe(200);
    const session = { authorization: `Bearer ${registered.json().token}` };

    const generated = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/api-key/generate',
      headers: session,
    });
    expect(generated.statusCode, generated.body).toBe(200);
    const apiKey = generated.json().key as string;
    expect(apiKey.startsWith('svc_live_sk_')).toBe(true);

    const topUp = await t.app.inject({
      method: 'POST',
      url: '/api/v1/payments/card/create-session',
      headers: session,
      payload: { amount: 5000, currency: 'USD' },
    });
    expect(topUp.statusCode, topUp.body).toBe(200);
    const pageUrl = new URL(topUp.json().url as string);
    const paid = await t.app.inject({
      method: 'POST',
      url: `${pageUrl.pathname}/complete`,
      payload: { outcome: 'paid' },
    });
    expect(paid.statusCode, paid.body).toBe(303);

    const bearer = { authorization: `Bearer ${apiKey}` };
    const wallet = await t.app.inject({ url: '/api/public/v1/wallet', headers: bearer });
    expect(wallet.json()).toEqual({ balanceUsd: 50, currency: 'USD', lowBalanceThreshold: 50 });

    const country = await t.app.inject({
      url: '/api/public/v1/destinations/TR',
      headers: { 'x-api-key': apiKey },
    });
    expect(country.statusCode).toBe(200);
    const planId = country.json().plans[0].id as string;

    const placed = await t.app.inject({
      method: 'POST',
      url: '/api/public/v1/orders',
      headers: { ...bearer, 'idempotency-key': 'order-1' },
      payload: { planId, quantity: 1 },
    });
    expect(placed.statusCode, placed.body).toBe(201);

    const polled = await t.app.inject({
      url: `/api/public/v1/orders/${placed.json().id}`,
      headers: { 'x-api-key': apiKey },
    });
    expect(polled.json()).toMatchObject({
      status: 'COMPLETED',
      esims: [{ status: 'PENDING', dataUsageMb: 0 }],
    });
    const list = await t.app.inject({
      url: '/api/public/v1/orders?limit=25',
      headers: { 'x-api-key': apiKey },
    });
    expect(list.json()).toMatchObject({ orders: [{ id: placed.json().id }], hasMore: false });
  });
});
