import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { pickPlan } from '../../helpers/catalog.js';
import { fundWallet } from '../../helpers/factories.js';
import { createPartner, PARTNER_ROOT } from './helpers.js';

const WALLET = `${PARTNER_ROOT}/wallet`;

describe('GET /wallet', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('returns the USD balance as a number with at most two decimals', async () => {
    const empty = await createPartner(t);
    const zero = await t.app.inject({ url: WALLET, headers: empty.headers });
    expect(zero.statusCode).toBe(200);
    expect(zero.json()).toEqual({ balanceUsd: 0, currency: 'USD', lowBalanceThreshold: 50 });

    const funded = await createPartner(t, 10_005);
    expect((await t.app.inject({ url: WALLET, headers: funded.headers })).json()).toEqual({
      balanceUsd: 100.05,
      currency: 'USD',
      lowBalanceThreshold: 50,
    });
  });

  it('reflects deposits and orders at once', async () => {
    const plan = await pickPlan(t.container);
    const p = await createPartner(t, plan.effectivePriceCents);
    await fundWallet(t.container, p.id, 250);
    const before = (await t.app.inject({ url: WALLET, headers: p.headers })).json();
    expect(before.balanceUsd).toBe((plan.effectivePriceCents + 250) / 100);
    const placed = await t.app.inject({
      method: 'POST',
      url: `${PARTNER_ROOT}/orders`,
      headers: p.headers,
      payload: { planId: plan.id, quantity: 1 },
    });
    expect(placed.statusCode).toBe(201);
    expect((await t.app.inject({ url: WALLET, headers: p.headers })).json()).toEqual({
      balanceUsd: 2.5,
      currency: 'USD',
      lowBalanceThreshold: 50,
    });
  });

  it('is documented in the Partner OpenAPI document with its errors', async () => {
    const doc = (await t.app.inject({ url: `${PARTNER_ROOT}/openapi.json` })).json();
    const wallet = doc.paths['/api/public/v1/wallet'].get;
    expect(Object.keys(wallet.responses).sort()).toEqual(['200', '401', '429', '500', '503']);
    expect(wallet.responses['401'].description).toContain('API key');
    const create = doc.paths['/api/public/v1/orders'].post;
    expect(Object.keys(create.responses).sort()).toEqual(
      ['201', '400', '401', '402', '404', '409', '413', '415', '429', '500', '502', '503'].sort(),
    );
    expect(JSON.stringify(create.responses['502'])).toContain('FULFILLMENT_FAILED');
    expect(create.parameters.some((p: { name: string }) => p.name === 'idempotency-key')).toBe(true);
  });
});
