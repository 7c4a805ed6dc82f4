import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { LOCALES } from '../../../src/domain/catalog/countries.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { importCatalog, pickPlan } from '../../helpers/catalog.js';
import { createUser } from '../../helpers/factories.js';

const URL = '/api/public/v1/destinations';
let t: TestApp;
let headers: Record<string, string>;

beforeAll(async () => {
  t = await buildTestApp();
  await importCatalog(t.container);
  const user = await createUser(t.container);
  const { key } = await t.container.apiKeys.generate(user.id);
  headers = { authorization: `Bearer ${key}` };
}, 120_000);
afterAll(() => t.close());

describe('Partner GET /destinations', () => {
  test('401 without a key, in the partner error shape', async () => {
    for (const url of [URL, `${URL}/TR`]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(401);
      expect(res.json().error.code).toBe('UNAUTHORIZED');
    }
  });

  test('full catalog in the spec shape', async () => {
    const res = await t.app.inject({ method: 'GET', url: URL, headers });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['countries', 'regions']);
    const tr = body.countries.find((c: { code: string }) => c.code === 'TR');
    expect(Object.keys(tr).sort()).toEqual(['code', 'continent', 'flagEmoji', 'name', 'plans']);
    expect(Object.keys(tr.name).sort()).toEqual([...LOCALES].sort());
    expect(tr.name).toMatchObject({ en: 'Türkiye', tr: 'Türkiye', de: 'Türkei', nl: 'Turkije' });
    const us = body.countries.find((c: { code: string }) => c.code === 'US');
    expect(us.name).toMatchObject({ en: 'United States', tr: 'Amerika Birleşik Devletleri' });
    expect(body.regions.find((r: { code: string }) => r.code === 'EUROPE').name).toMatchObject({
      en: 'Europe',
      tr: 'Avrupa',
    });
    const plan = await pickPlan(t.container, { destination: 'TR' });
    expect(tr.plans[0]).toEqual({
      id: plan.id,
      dataAmountMb: 1024,
      durationDays: 7,
      priceUsd: plan.effectivePriceCents / 100,
      isTopUp: false,
      activationPolicy: 'first_connection',
      topUpSupported: true,
      coverage: ['TR'],
    });
    expect(tr.plans.some((p: { isTopUp: boolean }) => p.isTopUp)).toBe(true);
    for (const c of body.countries) expect(c.code).toMatch(/^[A-Z]{2}$/);
    const global = body.regions.find((r: { code: string }) => r.code === 'GLOBAL');
    expect(Object.keys(global).sort()).toEqual(['code', 'countryCount', 'name', 'plans']);
    expect(global.countryCount).toBeGreaterThan(200);
    // Issue 30 T5: a global plan counts from installation and lists every country it covers.
    expect(global.plans[0]).toMatchObject({ activationPolicy: 'first_install', topUpSupported: false });
    expect(global.plans[0].coverage).toHaveLength(global.countryCount);
    expect(global.plans[0].coverage).toContain('JP');
    expect(res.headers.etag).toBeTruthy();
    const again = await t.app.inject({
      method: 'GET',
      url: URL,
      headers: { ...headers, 'if-none-match': res.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);
  });

  test('one country, upper or lower case', async () => {
    const upper = await t.app.inject({
      method: 'GET',
      url: `${URL}/DE`,
      headers: { 'x-api-key': headers.authorization!.slice(7) },
    });
    expect(upper.statusCode).toBe(200);
    expect(upper.json()).toMatchObject({
      code: 'DE',
      flagEmoji: '🇩🇪',
      continent: 'Europe',
      name: { en: 'Germany' },
    });
    expect(upper.json().plans).toHaveLength(7);
    const lower = await t.app.inject({ method: 'GET', url: `${URL}/de`, headers });
    expect(lower.json()).toEqual(upper.json());
  });

  test('unknown or unsold code → 404 COUNTRY_NOT_FOUND', async () => {
    for (const code of ['XX', 'KP', 'EUROPE']) {
      const res = await t.app.inject({ method: 'GET', url: `${URL}/${code}`, headers });
      expect(res.statusCode, code).toBe(404);
      expect(res.json()).toEqual({ error: { code: 'COUNTRY_NOT_FOUND', message: expect.any(String) } });
    }
  });
});
