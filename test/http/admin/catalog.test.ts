import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN_TOKEN, buildTestApp, type TestApp } from '../../helpers/app.js';
import { importCatalog, pickPlan } from '../../helpers/catalog.js';

let t: TestApp;
const headers = { authorization: `Bearer ${ADMIN_TOKEN}` };
const BASE = '/api/admin/v1';

beforeAll(async () => {
  t = await buildTestApp();
  await importCatalog(t.container);
}, 120_000);
afterAll(() => t.close());

describe('admin catalog', () => {
  test('401 without the admin token', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${BASE}/plans` });
    expect(res.statusCode).toBe(401);
  });

  test('GET /plans lists plans, filterable by destination and active', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${BASE}/plans?destination=tr`, headers });
    expect(res.statusCode).toBe(200);
    const { plans } = res.json();
    expect(plans).toHaveLength(7);
    expect(plans[0]).toMatchObject({
      id: 'plan_sbx-tr-1gb-7d',
      providerPackageCode: 'SBX-TR-1GB-7D',
      destinationCode: 'TR',
      active: true,
      offeredByProvider: true,
      enabledByOperator: true,
      priceOverrideUsd: null,
    });
    expect(plans[0].priceUsd).toBe(plans[0].syncedPriceUsd);
    const inactive = await t.app.inject({ method: 'GET', url: `${BASE}/plans?active=false`, headers });
    expect(inactive.json().plans).toEqual([]);
  });

  test('PATCH /plans/:id overrides the price, disables, clears; each change audited', async () => {
    const plan = await pickPlan(t.container, { destination: 'FR' });
    const patch = (payload: object) => {
      t.clock.advance(1000); // distinct audit timestamps, so the newest-first order is defined
      return t.app.inject({ method: 'PATCH', url: `${BASE}/plans/${plan.id}`, headers, payload });
    };
    const priced = await patch({ priceUsd: 9.5 });
    expect(priced.statusCode).toBe(200);
    expect(priced.json().plan).toMatchObject({ priceUsd: 9.5, priceOverrideUsd: 9.5, active: true });
    expect((await t.container.catalog.findActivePlan(t.container.db, plan.id))!.effectivePriceCents).toBe(
      950,
    );

    const disabled = await patch({ active: false });
    expect(disabled.json().plan).toMatchObject({
      active: false,
      enabledByOperator: false,
      offeredByProvider: true,
    });
    expect(await t.container.catalog.findActivePlan(t.container.db, plan.id)).toBeNull();

    const cleared = await patch({ priceUsd: null, active: true });
    expect(cleared.json().plan).toMatchObject({ priceOverrideUsd: null, active: true });
    expect(cleared.json().plan.priceUsd).toBe(plan.priceCents / 100);

    const audit = await t.container.audit.list({ target: plan.id });
    expect(audit.map((a) => a.action)).toEqual(['plan.update', 'plan.update', 'plan.update']);
    expect(audit[2]!.after).toEqual({ enabledByOperator: true, priceOverrideCents: 950 });
  });

  test('PATCH validation and 404', async () => {
    const plan = await pickPlan(t.container, { destination: 'IT' });
    for (const payload of [
      { priceUsd: 1.234 },
      { priceUsd: -1 },
      { priceUsd: 0 },
      {},
      { active: 'yes' },
      { other: 1 },
    ]) {
      const res = await t.app.inject({ method: 'PATCH', url: `${BASE}/plans/${plan.id}`, headers, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
    const missing = await t.app.inject({
      method: 'PATCH',
      url: `${BASE}/plans/plan_nope`,
      headers,
      payload: { active: false },
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.code).toBe('PLAN_NOT_FOUND');
  });

  test('PUT /exchange-rates sets rates used by the catalog; audited; invalid → 400', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: `${BASE}/exchange-rates`,
      headers,
      payload: { EUR: '0.5', GBP: 0.25, TRY: '40.125' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ rates: { USD: '1', EUR: '0.5', GBP: '0.25', TRY: '40.125' } });
    const plan = await pickPlan(t.container, { destination: 'DE' });
    const detail = await t.app.inject({ method: 'GET', url: '/api/v1/destinations/DE?currency=EUR' });
    expect(detail.json().destination.plans[0].price.amount).toBe(
      Math.round(plan.effectivePriceCents / 2) / 100,
    );
    const audit = await t.container.audit.list({ target: 'exchange_rates' });
    expect(audit[0]).toMatchObject({
      action: 'exchange_rates.update',
      after: { EUR: '0.5', GBP: '0.25', TRY: '40.125' },
    });

    for (const payload of [
      { EUR: '0', GBP: '1', TRY: '1' },
      { EUR: 'abc', GBP: '1', TRY: '1' },
      { EUR: '1', GBP: '1' },
      { EUR: -2, GBP: '1', TRY: '1' },
    ]) {
      const bad = await t.app.inject({ method: 'PUT', url: `${BASE}/exchange-rates`, headers, payload });
      expect(bad.statusCode, JSON.stringify(payload)).toBe(400);
    }
  });
});
