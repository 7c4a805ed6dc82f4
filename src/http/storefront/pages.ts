import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CatalogService, CatalogSnapshot } from '../../domain/catalog/catalog.service.js';
import { mobileDestinationDetail, mobileDestinationList } from '../../domain/catalog/destinations.js';
import { DEFAULT_UI_LANGUAGE, isUiLanguage, UI_LANGUAGES, type UiLanguage } from '../../lib/languages.js';
import { esc, fillTemplate, headTags, languageUrl, message } from './html.js';
import {
  destinationMain,
  layout,
  STOREFRONT_FILTERS,
  storefrontMain,
  type DetailView,
  type FlagUrls,
  type StorefrontFilter,
} from './markup.js';

/**
 * `/` and `/destinations/:code` rendered on the server (issue 30 T8), `/sitemap.xml` and
 * `/robots.txt`. The pages are the build's index.html with the content, head tags and the data
 * the app starts from filled in; the app then renders over it (docs/web.md "Server-rendered
 * pages"). They read the catalog service's snapshot, the same read models as the Mobile API
 * (`mobileDestinationList`, `mobileDestinationDetail`), and keep each page per (path, language,
 * catalog version): no database read per request once the instance has started.
 */

/** Prices on these pages are the charged ones: US dollars (the app converts after it loads). */
const CURRENCY = 'USD';

/** `?lang=`, else the first UI language of Accept-Language, else the default. */
export function pageLanguage(query: unknown, acceptLanguage: string | undefined): UiLanguage {
  const asked = (query as { lang?: unknown } | undefined)?.lang;
  if (isUiLanguage(asked)) return asked;
  for (const part of (acceptLanguage ?? '').split(',')) {
    const [tag = '', ...params] = part.trim().toLowerCase().split(';');
    if (params.some((p) => /^\s*q=0(\.0*)?$/.test(p))) continue;
    const base = tag.split('-')[0];
    if (isUiLanguage(base)) return base;
  }
  return DEFAULT_UI_LANGUAGE;
}

/** Flag SVGs the build wrote under assets/ (`tr-<hash>.svg`), by upper-case country code. */
export function readFlagUrls(root: string): FlagUrls {
  const flags = new Map<string, string>();
  try {
    for (const file of readdirSync(join(root, 'assets'))) {
      const code = /^([a-z]{2})-[\w-]{8}\.svg$/.exec(file)?.[1];
      if (code) flags.set(code.toUpperCase(), `/assets/${file}`);
    }
  } catch {
    // no assets folder: pages show the globe
  }
  return flags;
}

interface Page {
  status: number;
  body: Buffer;
}

/** Pages of one catalog version; a new version drops them all (bounded: destinations × languages × tabs). */
function createPageCache(catalog: CatalogService) {
  let version = -1;
  const pages = new Map<string, Page>();
  return async (key: string, build: (snapshot: CatalogSnapshot) => Page | null): Promise<Page | null> => {
    const known = catalog.version();
    const current = typeof known === 'number' ? known : await known;
    if (current !== version) {
      pages.clear();
      version = current;
    }
    const hit = pages.get(key);
    if (hit) return hit;
    const page = build(await catalog.snapshot(current));
    // Misses are not kept: the codes asked for are the visitor's input.
    if (page) pages.set(key, page);
    return page;
  };
}

export interface StorefrontOptions {
  template: string;
  flags: FlagUrls;
  baseUrl: string;
  /** Sends a finished HTML page with the web app's headers. */
  send: (reply: FastifyReply, status: number, html: Buffer) => FastifyReply;
  /** The not-found page (index.html with 404) for an unknown destination. */
  notFound: (reply: FastifyReply) => FastifyReply;
}

export function registerStorefront(app: FastifyInstance, options: StorefrontOptions): void {
  const { catalog } = app.container;
  const { template, flags, baseUrl } = options;
  const cached = createPageCache(catalog);
  const html = (s: string) => Buffer.from(s);

  function storefrontPage(snapshot: CatalogSnapshot, language: UiLanguage, filter: StorefrontFilter): Page {
    const list = mobileDestinationList(snapshot, {
      filter: filter === 'all' ? undefined : filter,
      search: '',
      locale: language,
      currency: CURRENCY,
    });
    const title = `${message(language, 'store.title')} · Roam eSIM`;
    const query = filter === 'popular' ? '' : `filter=${filter}`;
    const head = headTags({
      language,
      title,
      description: message(language, 'store.heroSub'),
      base: baseUrl,
      path: '/',
      query,
      ogType: 'website',
    });
    const body = layout(language, storefrontMain(language, filter, list, flags));
    const data = { page: 'storefront', language, currency: CURRENCY, filter, data: list };
    return { status: 200, body: html(fillTemplate(template, { language, title, head, body, data })) };
  }

  function destinationPage(snapshot: CatalogSnapshot, language: UiLanguage, code: string): Page | null {
    const detail = mobileDestinationDetail(snapshot, code, {
      locale: language,
      currency: CURRENCY,
    }) as DetailView | null;
    if (!detail) return null;
    const d = detail.destination;
    const base = d.plans.filter((p) => !p.isTopUp);
    const cheapest = (base.length ? base : d.plans).reduce((a, b) =>
      b.price.amount < a.price.amount ? b : a,
    );
    const price = cheapest.price.formatted;
    const title = message(language, 'seo.destTitle', { name: d.name, price });
    const description = message(language, 'seo.destDescription', { description: d.description, price });
    const path = `/destinations/${d.code}`;
    const url = languageUrl(baseUrl, path, language);
    const jsonLd = {
      '@context': 'https://schema.org',
      '@type': 'Product',
      name: message(language, 'dest.title', { name: d.name }),
      description: d.description,
      sku: d.code,
      brand: { '@type': 'Brand', name: 'Roam eSIM' },
      url,
      offers: d.plans.map((p) => ({
        '@type': 'Offer',
        name: p.title,
        sku: p.id,
        price: p.price.amount.toFixed(2),
        priceCurrency: p.price.currency,
        availability: 'https://schema.org/InStock',
        url,
      })),
    };
    const head = headTags({ language, title, description, base: baseUrl, path, ogType: 'product', jsonLd });
    const body = layout(language, destinationMain(language, detail, flags));
    const data = { page: 'destination', language, currency: CURRENCY, code: d.code, data: detail };
    return { status: 200, body: html(fillTemplate(template, { language, title, head, body, data })) };
  }

  const pageHeaders = (reply: FastifyReply) => reply.header('vary', 'Accept-Language');

  app.get('/', { schema: { hide: true } }, async (request: FastifyRequest, reply) => {
    const query = request.query as { filter?: unknown };
    const language = pageLanguage(request.query, request.headers['accept-language']);
    const filter = STOREFRONT_FILTERS.find((f) => f === query.filter) ?? 'popular';
    const page = await cached(`/|${language}|${filter}`, (s) => storefrontPage(s, language, filter));
    return options.send(pageHeaders(reply), 200, page!.body);
  });

  app.get('/destinations/:code', { schema: { hide: true } }, async (request: FastifyRequest, reply) => {
    const raw = (request.params as { code: string }).code;
    const code = raw.toUpperCase();
    const language = pageLanguage(request.query, request.headers['accept-language']);
    // Only catalog codes can become cache keys: anything else is not a destination.
    if (!/^[A-Z]{2}$|^[A-Z][A-Z_]{2,63}$/.test(code)) return options.notFound(pageHeaders(reply));
    const page = await cached(`/destinations/${code}|${language}`, (s) => destinationPage(s, language, code));
    if (!page) return options.notFound(pageHeaders(reply));
    return options.send(pageHeaders(reply), page.status, page.body);
  });

  let sitemap: { version: number; body: string } | undefined;
  app.get('/sitemap.xml', { schema: { hide: true } }, async (_request, reply) => {
    const known = catalog.version();
    const version = typeof known === 'number' ? known : await known;
    if (sitemap?.version !== version) {
      const list = mobileDestinationList(await catalog.snapshot(version), {
        search: '',
        locale: DEFAULT_UI_LANGUAGE,
        currency: CURRENCY,
      });
      const paths = ['/', ...[...list.countries, ...list.regions].map((d) => `/destinations/${d.code}`)];
      sitemap = { version, body: sitemapXml(baseUrl, paths) };
    }
    return reply
      .header('cache-control', 'public, max-age=3600')
      .type('application/xml; charset=utf-8')
      .send(sitemap.body);
  });

  app.get('/robots.txt', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .header('cache-control', 'public, max-age=86400')
      .type('text/plain; charset=utf-8')
      .send(robotsTxt(baseUrl)),
  );
}

/** Every path in every UI language, each `<url>` naming its alternates (Google's sitemap hreflang). */
export function sitemapXml(baseUrl: string, paths: readonly string[]): string {
  const urls: string[] = [];
  for (const path of paths) {
    const alternates = [
      ...UI_LANGUAGES.map(
        (l) => `<xhtml:link rel="alternate" hreflang="${l}" href="${esc(languageUrl(baseUrl, path, l))}"/>`,
      ),
      `<xhtml:link rel="alternate" hreflang="x-default" href="${esc(languageUrl(baseUrl, path, DEFAULT_UI_LANGUAGE))}"/>`,
    ].join('');
    for (const language of UI_LANGUAGES)
      urls.push(`<url><loc>${esc(languageUrl(baseUrl, path, language))}</loc>${alternates}</url>`);
  }
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n' +
    `${urls.join('\n')}\n</urlset>\n`
  );
}

/** Crawlers may read the storefront; the API, the account and token-bearing pages are not for them. */
export function robotsTxt(baseUrl: string): string {
  return [
    'User-agent: *',
    'Disallow: /api/',
    'Disallow: /sandbox/',
    'Disallow: /install/',
    'Disallow: /support/guest/',
    'Disallow: /reset-password',
    'Allow: /',
    '',
    `Sitemap: ${baseUrl}/sitemap.xml`,
    '',
  ].join('\n');
}
