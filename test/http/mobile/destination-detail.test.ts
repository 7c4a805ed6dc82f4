import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { importCatalog } from '../../helpers/catalog.js';

/** GET /api/v1/destinations/:code (the list is in destinations.test.ts). */

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
  await importCatalog(t.container);
}, 120_000);
afterAll(() => t.close());

describe('GET /destinations/:code', () => {
  test('plan titles and descriptions in the caller locale, with the CLDR name', async () => {
    const get = async (q: string) =>
      (await t.app.inject({ method: 'GET', url: `/api/v1/destinations/US${q}` })).json().destination;
    const tr = await get('?locale=tr');
    expect(tr.name).toBe('Amerika Birleşik Devletleri');
    expect(tr.continentName).toBe('Kuzey Amerika');
    expect(tr.plans[0]).toMatchObject({
      title: 'Amerika Birleşik Devletleri · 1 GB · 7 gün',
      description: 'Amerika Birleşik Devletleri için 1 GB veri, ilk bağlantıdan itibaren 7 gün geçerli.',
    });
    const topUp = tr.plans.find((p: { isTopUp: boolean }) => p.isTopUp);
    expect(topUp.title).toBe('Amerika Birleşik Devletleri · 1 GB · ek paket');
    const en = await get('?locale=en');
    expect(en.plans[0].title).toBe('United States · 1 GB · 7 days');
    expect(en.plans.map((p: { title: string }) => p.title)).toContain('United States · 20 GB · 30 days');
    const de = await get('?locale=de');
    // German puts a no-break space between number and unit.
    expect(de.plans[0].title.replace(/\s/g, ' ')).toBe('Vereinigte Staaten · 1 GB · 7 Tage');
    // German names take articles ("die Vereinigten Staaten"): no preposition is put before one.
    expect(de.description).toMatch(/^Vereinigte Staaten: /);
    expect(de.plans[0].description.replace(/\s/g, ' ')).toMatch(
      /^1 GB Datenvolumen \(Vereinigte Staaten\), /,
    );
  });

  test('full plan list with description, code case-insensitive', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/destinations/tr?locale=tr&currency=EUR' });
    expect(res.statusCode).toBe(200);
    const { destination } = res.json();
    expect(destination).toMatchObject({
      code: 'TR',
      name: 'Türkiye',
      flagEmoji: '🇹🇷',
      continent: 'Asia',
      continentName: 'Asya',
    });
    expect(destination.description).toContain('Türkiye');
    expect(destination.plans).toHaveLength(7);
    expect(destination.plans[0]).toMatchObject({
      id: 'plan_sbx-tr-1gb-7d',
      dataAmountMb: 1024,
      durationDays: 7,
      isTopUp: false,
    });
    expect(destination.plans[0].price.currency).toBe('EUR');
    expect(destination.plans.filter((p: { isTopUp: boolean }) => p.isTopUp)).toHaveLength(2);
    expect(res.headers.etag).toBeTruthy();
    const cached = await t.app.inject({
      method: 'GET',
      url: '/api/v1/destinations/TR?locale=tr&currency=EUR',
      headers: { 'if-none-match': res.headers.etag as string },
    });
    expect(cached.statusCode).toBe(304);
  });

  test('a region code opens the region with its plans', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/destinations/europe?locale=tr' });
    expect(res.statusCode).toBe(200);
    const { destination } = res.json();
    expect(destination).toMatchObject({
      code: 'EUROPE',
      name: 'Avrupa',
      flagEmoji: '🌍',
      continent: 'Region',
    });
    expect(destination.description).toMatch(/Avrupa/);
    expect(destination.plans.length).toBeGreaterThan(0);
    const global = await t.app.inject({ method: 'GET', url: '/api/v1/destinations/GLOBAL' });
    expect(global.json().destination).toMatchObject({ code: 'GLOBAL', flagEmoji: '🌐' });
  });

  test('plan facts: activation policy, top-up support and named coverage (issue 30 T5)', async () => {
    const get = async (path: string) =>
      (await t.app.inject({ method: 'GET', url: `/api/v1/destinations/${path}` })).json().destination;
    const tr = await get('TR?locale=tr');
    const base = tr.plans.find((p: { isTopUp: boolean }) => !p.isTopUp);
    expect(base).toMatchObject({
      scope: 'country',
      activationPolicy: 'first_connection',
      topUpSupported: true,
      coverage: [{ code: 'TR', name: 'Türkiye' }],
    });
    const topUp = tr.plans.find((p: { isTopUp: boolean }) => p.isTopUp);
    expect(topUp.topUpSupported).toBe(false);
    // A country without top-up packages sells base plans that cannot be topped up.
    const bg = await get('BG');
    expect(bg.plans.every((p: { topUpSupported: boolean }) => !p.topUpSupported)).toBe(true);

    const europe = await get('EUROPE?locale=tr');
    const plan = europe.plans[0];
    expect(plan.scope).toBe('region');
    expect(plan.activationPolicy).toBe('first_connection');
    expect(plan.coverage.length).toBeGreaterThan(20);
    expect(plan.coverage).toContainEqual({ code: 'DE', name: 'Almanya' });
    const names = plan.coverage.map((c: { name: string }) => c.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'tr')));

    const global = await get('GLOBAL');
    expect(global.plans[0]).toMatchObject({ scope: 'global', activationPolicy: 'first_install' });
    expect(global.plans[0].description).toMatch(/from installation\.$/);
    expect(global.plans[0].coverage).toContainEqual({ code: 'JP', name: 'Japan' });
  });

  test('unknown code → 404', async () => {
    for (const code of ['XX', 'ZZZ', 'KP', 'NOT_A_REGION']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/destinations/${code}` });
      expect(res.statusCode, code).toBe(404);
      expect(res.json().code).toBe('COUNTRY_NOT_FOUND');
    }
  });
});
