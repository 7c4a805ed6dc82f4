import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { eq } from 'drizzle-orm';
import { accounts } from '../../../src/db/schema/index.js';
import { buildTestApp, ADMIN_TOKEN, type TestApp } from '../../helpers/app.js';
import { importCatalog, pickPlan } from '../../helpers/catalog.js';
import { createUser } from '../../helpers/factories.js';

let t: TestApp;
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

type Money = { amount: number; currency: string; formatted: string };
type ListBody = {
  countries: Array<{
    code: string;
    name: string;
    flagEmoji: string;
    continent: string;
    continentName: string;
    startingPrice: Money;
    planCount: number;
  }>;
  regions: Array<{
    code: string;
    name: string;
    countryCount: number;
    startingPrice: Money;
    planCount: number;
  }>;
};

async function list(query: string, headers: Record<string, string> = {}) {
  const res = await t.app.inject({ method: 'GET', url: `/api/v1/destinations${query}`, headers });
  return { res, body: (res.statusCode === 200 ? res.json() : null) as ListBody };
}

beforeAll(async () => {
  t = await buildTestApp();
  await importCatalog(t.container);
}, 120_000);
afterAll(() => t.close());

describe('GET /destinations', () => {
  test('lists countries and regions with starting prices in USD and English by default', async () => {
    const { res, body } = await list('');
    expect(res.statusCode).toBe(200);
    const tr = body.countries.find((c) => c.code === 'TR')!;
    const cheapest = await pickPlan(t.container, { destination: 'TR' });
    expect(tr).toEqual({
      code: 'TR',
      name: 'Türkiye',
      flagEmoji: '🇹🇷',
      continent: 'Asia',
      continentName: 'Asia',
      startingPrice: {
        amount: cheapest.effectivePriceCents / 100,
        currency: 'USD',
        formatted: `$${(cheapest.effectivePriceCents / 100).toFixed(2)}`,
      },
      planCount: 7,
    });
    expect(body.countries.length).toBeGreaterThan(200);
    expect(body.countries.some((c) => c.code === 'KP')).toBe(false);
    expect(body.regions.map((r) => r.code)).toEqual([
      'EUROPE',
      'ASIA',
      'MIDDLE_EAST',
      'NORTH_AMERICA',
      'LATIN_AMERICA',
      'AFRICA',
      'BALKANS',
      'CARIBBEAN',
      'GLOBAL',
    ]);
    const europe = body.regions.find((r) => r.code === 'EUROPE')!;
    expect(europe.countryCount).toBeGreaterThan(40);
    expect(europe.planCount).toBe(3);
    // Sorted by name in the caller's locale.
    const names = body.countries.map((c) => c.name);
    expect([...names].sort(new Intl.Collator('en').compare)).toEqual(names);
  });

  test('filter=popular, regional and global', async () => {
    const popular = (await list('?filter=popular')).body;
    expect(popular.countries.map((c) => c.code).slice(0, 3)).toEqual(['TR', 'US', 'GB']);
    expect(popular.regions).toEqual([]);
    const regional = (await list('?filter=regional')).body;
    expect(regional.countries).toEqual([]);
    expect(regional.regions.map((r) => r.code)).not.toContain('GLOBAL');
    expect(regional.regions.length).toBe(8);
    const global = (await list('?filter=global')).body;
    expect(global.countries).toEqual([]);
    expect(global.regions.map((r) => r.code)).toEqual(['GLOBAL']);
  });

  test('search matches names in any locale, codes, aliases; case, accents and Turkish i ignored', async () => {
    const codes = async (q: string, extra = '') =>
      (await list(`?search=${encodeURIComponent(q)}${extra}`)).body.countries.map((c) => c.code);
    expect(await codes('almanya')).toEqual(['DE']);
    expect(await codes('ALMANYA')).toEqual(['DE']);
    expect(await codes('Deutschland')).toEqual(['DE']);
    expect(await codes('turkey')).toEqual(['TR']);
    expect(await codes('turkiye')).toEqual(['TR']);
    expect(await codes('TÜRKİYE')).toEqual(['TR']);
    expect(await codes('İSPANYA')).toEqual(['ES']);
    expect(await codes('ıspanya')).toEqual(['ES']);
    expect(await codes('espana')).toEqual(['ES']);
    expect(await codes('Германия')).toEqual(['DE']);
    expect(await codes('ألمانيا')).toEqual(['DE']);
    expect(await codes('jp')).toContain('JP');
    // Everyday and colloquial names, in English and Turkish, with any Turkish i.
    expect(await codes('ingiltere')).toEqual(['GB']);
    expect(await codes('İNGİLTERE')).toEqual(['GB']);
    expect(await codes('england')).toEqual(['GB']);
    expect(await codes('Fildişi Sahili')).toEqual(['CI']);
    expect(await codes('ivory coast')).toEqual(['CI']);
    expect(await codes("Côte d'Ivoire")).toEqual(['CI']);
    expect(await codes('Turkije')).toEqual(['TR']);
    expect(await codes('Güney Kore')).toEqual(['KR']);
    expect(await codes('IRLANDA')).toContain('IE');
    expect(await codes('zzzzzz')).toEqual([]);
    const regions = (await list('?search=avrupa')).body;
    expect(regions.regions.map((r) => r.code)).toEqual(['EUROPE']);
    // search combines with a filter
    expect(await codes('almanya', '&filter=regional')).toEqual([]);
    expect(await codes('almanya', '&filter=popular')).toEqual(['DE']);
  });

  test('locale and currency from the query, converted with the stored rates', async () => {
    const plan = await pickPlan(t.container, { destination: 'DE' });
    const { body } = await list('?locale=tr&currency=TRY&search=DE');
    const de = body.countries.find((c) => c.code === 'DE')!;
    expect(de.name).toBe('Almanya');
    const rates = await t.container.exchangeRates.all();
    const minor = Math.round(plan.effectivePriceCents * Number(rates.TRY));
    expect(de.startingPrice.currency).toBe('TRY');
    expect(de.startingPrice.amount).toBeCloseTo(minor / 100, 2);
    expect(de.startingPrice.formatted).toBe(
      new Intl.NumberFormat('tr', { style: 'currency', currency: 'TRY' }).format(de.startingPrice.amount),
    );
    const eur = (await list('?locale=de&currency=EUR&search=DE')).body.countries.find(
      (c) => c.code === 'DE',
    )!;
    expect(eur.name).toBe('Deutschland');
    expect(eur.startingPrice.formatted).toMatch(/€$/);
  });

  test('falls back to the session user, then Accept-Language, then en/USD', async () => {
    const user = await createUser(t.container, { locale: 'fr' });
    await t.container.db.update(accounts).set({ preferredCurrency: 'GBP' }).where(eq(accounts.id, user.id));
    const fromUser = (await list('?search=DE', user.auth)).body.countries.find((c) => c.code === 'DE')!;
    expect(fromUser.name).toBe('Allemagne');
    expect(fromUser.startingPrice.currency).toBe('GBP');
    const queryWins = (await list('?search=DE&locale=es&currency=USD', user.auth)).body.countries.find(
      (c) => c.code === 'DE',
    )!;
    expect([queryWins.name, queryWins.startingPrice.currency]).toEqual(['Alemania', 'USD']);
    const header = (
      await list('?search=DE', { 'accept-language': 'xx, ru;q=0.9, en;q=0.8' })
    ).body.countries.find((c) => c.code === 'DE')!;
    expect([header.name, header.startingPrice.currency]).toEqual(['Германия', 'USD']);
  });

  test('invalid filter, locale or currency → 400', async () => {
    for (const q of ['?filter=cheap', '?locale=xx', '?currency=JPY', `?search=${'a'.repeat(101)}`]) {
      const { res } = await list(q);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
    }
  });

  test('ETag and 304; a price change on another instance changes the ETag', async () => {
    const first = await list('?filter=popular');
    const etag = first.res.headers.etag as string;
    expect(etag).toMatch(/^W\/".+"$/);
    const again = await list('?filter=popular', { 'if-none-match': etag });
    expect(again.res.statusCode).toBe(304);
    expect(again.res.body).toBe('');

    const other = await buildTestApp({ shareWith: t });
    try {
      const plan = await pickPlan(t.container, { destination: 'TR' });
      const patch = await other.app.inject({
        method: 'PATCH',
        url: `/api/admin/v1/plans/${plan.id}`,
        headers: admin,
        payload: { priceUsd: 0.5 },
      });
      expect(patch.statusCode).toBe(200);
      const after = await list('?filter=popular', { 'if-none-match': etag });
      expect(after.res.statusCode).toBe(200);
      expect(after.res.headers.etag).not.toBe(etag);
      expect(after.body.countries.find((c) => c.code === 'TR')!.startingPrice.amount).toBe(0.5);
    } finally {
      await other.app.inject({
        method: 'PATCH',
        url: `/api/admin/v1/plans/${(await pickPlan(t.container)).id}`,
        headers: admin,
        payload: { priceUsd: null },
      });
      await other.close();
    }
  });

  test('gzip when the client accepts it', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/destinations',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(res.headers['content-encoding']).toBe('gzip');
    const body = JSON.parse(gunzipSync(res.rawPayload).toString()) as ListBody;
    expect(body.countries.length).toBeGreaterThan(200);
    expect(res.headers.vary).toContain('Accept-Encoding');
    const plain = await t.app.inject({
      method: 'GET',
      url: '/api/v1/destinations',
      headers: { 'accept-encoding': 'gzip;q=0' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json()).toEqual(body);
  });
});

describe('country names', () => {
  const names = async (locale: string, ...codes: string[]) => {
    const body = (await list(`?locale=${locale}`)).body;
    return codes.map((code) => body.countries.find((c) => c.code === code)?.name);
  };

  test('everyday CLDR names in every locale, never the official long forms', async () => {
    expect(await names('nl', 'TR', 'US', 'GB', 'NL')).toEqual([
      'Turkije',
      'Verenigde Staten',
      'Verenigd Koninkrijk',
      'Nederland',
    ]);
    expect(await names('en', 'US', 'GB', 'RU', 'KR', 'CZ')).toEqual([
      'United States',
      'United Kingdom',
      'Russia',
      'South Korea',
      'Czechia',
    ]);
    expect(await names('tr', 'TR', 'US', 'DE', 'GR', 'CZ')).toEqual([
      'Türkiye',
      'Amerika Birleşik Devletleri',
      'Almanya',
      'Yunanistan',
      'Çekya',
    ]);
    for (const locale of ['de', 'fr', 'es', 'ru', 'ar', 'it', 'pt']) {
      const [tr, us] = await names(locale, 'TR', 'US');
      const display = new Intl.DisplayNames(locale, { type: 'region' });
      expect([tr, us], locale).toEqual([display.of('TR'), display.of('US')]);
    }
    // Sorted with the locale's collation: Turkish puts Ç after C.
    const tr = (await list('?locale=tr')).body.countries.map((c) => c.name);
    expect(tr.indexOf('Çekya')).toBeGreaterThan(tr.indexOf('Cezayir'));
  });

  test('continent and region names follow the locale; continent stays an English key', async () => {
    const de = (await list('?locale=tr&search=DE')).body.countries.find((c) => c.code === 'DE')!;
    expect([de.continent, de.continentName]).toEqual(['Europe', 'Avrupa']);
    const regions = (await list('?locale=tr&filter=regional')).body.regions.map((r) => r.name);
    expect(regions).toEqual(expect.arrayContaining(['Avrupa', 'Orta Doğu', 'Balkanlar', 'Karayipler']));
    const global = (await list('?locale=en&filter=global')).body.regions[0]!;
    expect(global.name).toBe('Global');
  });

  test('each locale is its own cached variant with its own ETag', async () => {
    const en = await list('?locale=en&filter=popular');
    const tr = await list('?locale=tr&filter=popular');
    expect(en.res.headers.etag).not.toBe(tr.res.headers.etag);
    expect(en.body.countries[1]!.name).toBe('United States');
    expect(tr.body.countries[1]!.name).toBe('Amerika Birleşik Devletleri');
    // The English ETag does not validate the Turkish variant (nor through Accept-Language).
    const crossed = await list('?locale=tr&filter=popular', {
      'if-none-match': en.res.headers.etag as string,
    });
    expect(crossed.res.statusCode).toBe(200);
    expect(crossed.body.countries[1]!.name).toBe('Amerika Birleşik Devletleri');
    const header = await list('?filter=popular', {
      'accept-language': 'tr-TR,tr;q=0.9',
      'if-none-match': en.res.headers.etag as string,
    });
    expect(header.res.statusCode).toBe(200);
    expect(header.res.headers.etag).toBe(tr.res.headers.etag);
    expect(header.res.headers.vary).toContain('Accept-Language');
    const same = await list('?locale=tr&filter=popular', { 'if-none-match': tr.res.headers.etag as string });
    expect(same.res.statusCode).toBe(304);
    // Bytes of the two variants really differ (the cache keeps bytes per variant).
    expect(en.res.body).not.toBe(tr.res.body);
  });
});
