import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fillTemplate, jsonForScript } from '../../../src/http/storefront/html.js';
import { destinationMain, type DetailView } from '../../../src/http/storefront/markup.js';
import { UI_LANGUAGES } from '../../../src/lib/languages.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { importCatalog, pickPlan } from '../../helpers/catalog.js';

// Shaped like web/dist/index.html: the page's head is replaced, the body goes into #root.
const TEMPLATE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta
      name="description"
      content="Generic description."
    />
    <title>Roam eSIM · generic</title>
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
  </head>
  <body>
    <div id="root"></div>
    <noscript>This site needs JavaScript.</noscript>
  </body>
</html>`;
const BASE = 'https://shop.example';

let dir: string;
let t: TestApp;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'web-ssr-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), TEMPLATE);
  writeFileSync(join(dir, 'assets', 'tr-AbCd12_-.svg'), '<svg/>');
  t = await buildTestApp({ env: { WEB_DIST_DIR: dir, PUBLIC_BASE_URL: BASE } });
  await importCatalog(t.container);
}, 120_000);
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers });

/** The document's `<script type="application/ld+json">` objects. */
function jsonLd(html: string): Array<Record<string, unknown>> {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
    (m) => JSON.parse(m[1]!) as Record<string, unknown>,
  );
}

const attr = (html: string, pattern: RegExp) => pattern.exec(html)?.[1]?.replace(/&amp;/g, '&');

describe('GET /destinations/:code (server-rendered)', () => {
  test('curl gets the name, plans and prices, title, meta, canonical, hreflang, Open Graph, JSON-LD', async () => {
    const res = await get('/destinations/TR');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    const html = res.body;
    const cheapest = await pickPlan(t.container, { destination: 'TR' });
    const price = `$${(cheapest.effectivePriceCents / 100).toFixed(2)}`;

    expect(html).toContain(`<title>eSIM for Türkiye from ${price}</title>`);
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(html).not.toContain('Generic description');
    expect(html).not.toContain('needs JavaScript');
    expect(html).toContain('<html lang="en"');
    expect(html).toMatch(/<h1>Türkiye<\/h1>/);
    expect(html).toContain(price);
    expect(attr(html, /<meta name="description" content="([^"]*)"/)).toMatch(/Türkiye.*from \$\d+\.\d\d\./);
    expect(attr(html, /<link rel="canonical" href="([^"]*)"/)).toBe(`${BASE}/destinations/TR`);
    for (const lang of UI_LANGUAGES) {
      const href = lang === 'en' ? `${BASE}/destinations/TR` : `${BASE}/destinations/TR?lang=${lang}`;
      expect(html).toContain(`<link rel="alternate" hreflang="${lang}" href="${href}" />`);
    }
    expect(html).toContain(`<link rel="alternate" hreflang="x-default" href="${BASE}/destinations/TR" />`);
    expect(attr(html, /<meta property="og:title" content="([^"]*)"/)).toBe(`eSIM for Türkiye from ${price}`);
    expect(attr(html, /<meta property="og:url" content="([^"]*)"/)).toBe(`${BASE}/destinations/TR`);
    expect(attr(html, /<meta property="og:type" content="([^"]*)"/)).toBe('product');
    expect(attr(html, /<meta property="og:locale" content="([^"]*)"/)).toBe('en_US');
    // The build's flag file, found by its code.
    expect(html).toContain('src="/assets/tr-AbCd12_-.svg"');

    const [product] = jsonLd(html);
    expect(product).toMatchObject({ '@context': 'https://schema.org', '@type': 'Product' });
    const offers = product!.offers as Array<Record<string, unknown>>;
    expect(offers.length).toBeGreaterThan(1);
    expect(offers).toContainEqual(
      expect.objectContaining({
        '@type': 'Offer',
        sku: cheapest.id,
        price: (cheapest.effectivePriceCents / 100).toFixed(2),
        priceCurrency: 'USD',
      }),
    );
    // The app starts from the same data (docs/web.md "Server-rendered pages").
    const data = JSON.parse(
      attr(html, /<script type="application\/json" id="ssr-data">([\s\S]*?)<\/script>/)!,
    );
    expect(data).toMatchObject({ page: 'destination', code: 'TR', language: 'en', currency: 'USD' });
    expect(data.data.destination.plans.length).toBe(offers.length);
  });

  test('the language: ?lang= first, else Accept-Language; canonical and og:locale follow', async () => {
    const tr = await get('/destinations/tr?lang=tr', { 'accept-language': 'en-GB' });
    expect(tr.body).toContain('<html lang="tr"');
    expect(tr.body).toContain('<h1>Türkiye</h1>');
    expect(tr.body).toContain('<title>Türkiye için eSIM');
    expect(attr(tr.body, /<link rel="canonical" href="([^"]*)"/)).toBe(`${BASE}/destinations/TR?lang=tr`);
    expect(attr(tr.body, /<meta property="og:locale" content="([^"]*)"/)).toBe('tr_TR');
    const byHeader = await get('/destinations/DE', { 'accept-language': 'tr-TR,tr;q=0.9,en;q=0.8' });
    expect(byHeader.body).toContain('<h1>Almanya</h1>');
    expect(byHeader.headers.vary).toContain('Accept-Language');
  });

  test('an unknown destination is the HTML not-found page with 404, whatever the client accepts', async () => {
    for (const url of ['/destinations/ZZ', '/destinations/NOPE_REGION', '/destinations/1%3Cx']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toBe('text/html; charset=utf-8');
      expect(res.body, url).toBe(TEMPLATE);
    }
  });

  test('a new catalog version re-renders the page (price change)', async () => {
    const plan = await pickPlan(t.container, { destination: 'TR' });
    const before = await get('/destinations/TR');
    await t.container.catalog.updatePlan(plan.id, { priceOverrideCents: 12_345 });
    try {
      const after = await get('/destinations/TR');
      expect(before.body).not.toContain('$123.45');
      expect(after.body).toContain('$123.45');
    } finally {
      await t.container.catalog.updatePlan(plan.id, { priceOverrideCents: null });
    }
  });
});

describe('GET / (server-rendered)', () => {
  test('the storefront lists destinations with starting prices and links, in the asked language', async () => {
    const res = await get('/');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('data-testid="destination-list"');
    expect(res.body).toMatch(/<a class="destination-card" href="\/destinations\/TR">/);
    expect(res.body).toMatch(/Türkiye<\/span><span class="destination-price"><small>from<\/small> \$\d/);
    expect(attr(res.body, /<link rel="canonical" href="([^"]*)"/)).toBe(`${BASE}/`);
    expect(res.body).toContain(`<link rel="alternate" hreflang="tr" href="${BASE}/?lang=tr" />`);
    expect(attr(res.body, /<meta property="og:type" content="([^"]*)"/)).toBe('website');

    const all = await get('/?filter=all&lang=tr');
    expect(all.body).toContain('<html lang="tr"');
    expect(all.body).toMatch(/href="\/destinations\/TR\?lang=tr"/);
    expect(attr(all.body, /<link rel="canonical" href="([^"]*)"/)).toBe(`${BASE}/?filter=all&lang=tr`);
    // "All countries" lists more than the popular twelve.
    expect(all.body.match(/class="destination-card"/g)!.length).toBeGreaterThan(
      res.body.match(/class="destination-card"/g)!.length,
    );
  });
});

describe('escaping', () => {
  const hostile = '<script>alert(1)</script>"\'&$&';
  const view: DetailView = {
    destination: {
      code: 'TR',
      name: hostile,
      description: hostile,
      plans: [
        {
          id: `plan_${hostile}`,
          title: hostile,
          dataAmountMb: 1024,
          durationDays: 7,
          isTopUp: false,
          price: { amount: 3.49, currency: 'USD', formatted: hostile },
        },
      ],
    },
  };

  test('text and attributes are escaped; no tag or quote of a value survives', () => {
    const html = destinationMain('en', view, new Map());
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;$&amp;');
  });

  test('JSON in a script cannot close it, and $-patterns stay text in the template', () => {
    const page = fillTemplate(TEMPLATE, {
      language: 'en',
      title: hostile,
      head: '',
      body: destinationMain('en', view, new Map()),
      data: view,
    });
    expect(page.match(/<script>/g)).toBeNull();
    expect(page).not.toContain('</script>"');
    expect(jsonForScript(view)).not.toMatch(/[<>]/);
    expect(JSON.parse(jsonForScript(view))).toEqual(view);
    expect(page).toContain('<title>&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;$&amp;</title>');
  });
});

describe('GET /sitemap.xml and /robots.txt', () => {
  test('the sitemap lists every destination in every UI language with its alternates', async () => {
    const res = await get('/sitemap.xml');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    const locs = [...res.body.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
    const list = (await get('/api/v1/destinations')).json<{
      countries: Array<{ code: string }>;
      regions: Array<{ code: string }>;
    }>();
    const codes = [...list.countries, ...list.regions].map((d) => d.code);
    expect(codes.length).toBeGreaterThan(50);
    for (const path of ['/', ...codes.map((c) => `/destinations/${c}`)])
      for (const lang of UI_LANGUAGES)
        expect(locs).toContain(lang === 'en' ? `${BASE}${path}` : `${BASE}${path}?lang=${lang}`);
    expect(locs).toHaveLength((codes.length + 1) * UI_LANGUAGES.length);
    expect(res.body).toContain(
      `<xhtml:link rel="alternate" hreflang="tr" href="${BASE}/destinations/TR?lang=tr"/>`,
    );
  });

  test('robots.txt points to the sitemap and keeps crawlers off the API', async () => {
    const res = await get('/robots.txt');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).toContain(`Sitemap: ${BASE}/sitemap.xml`);
    expect(res.body).toMatch(/^Disallow: \/api\/$/m);
  });
});
