import { numberFormat } from '../../lib/intl.js';
import type { UiLanguage } from '../../lib/languages.js';
import { esc, languageUrl, message as m } from './html.js';

/**
 * The storefront's and a destination's HTML as the web app renders it (same elements and
 * classes as web/src/components/Layout.tsx, pages/Storefront.tsx and pages/Destination.tsx), so
 * the page reads without JavaScript and does not move when the app replaces it.
 */

export interface Price {
  amount: number;
  currency: string;
  formatted: string;
}

export interface ListView {
  countries: Array<{ code: string; name: string; startingPrice: Price }>;
  regions: Array<{ code: string; name: string; countryCount: number; startingPrice: Price }>;
}

export interface DetailView {
  destination: {
    code: string;
    name: string;
    description: string;
    plans: Array<{
      id: string;
      title: string;
      dataAmountMb: number;
      durationDays: number;
      isTopUp: boolean;
      price: Price;
    }>;
  };
}

/** Flag SVG URLs of the build by country code (hashed file names); regions get the globe. */
export type FlagUrls = ReadonlyMap<string, string>;

const GLOBE =
  '<span class="flag flag-%s flag-region" aria-hidden="true"><svg viewBox="0 0 24 24" width="100%" height="100%"><circle cx="12" cy="12" r="10" fill="none" stroke="currentColor" stroke-width="1.6"></circle><path d="M2 12h20M12 2c3 3.2 3 16.8 0 20M12 2c-3 3.2-3 16.8 0 20" fill="none" stroke="currentColor" stroke-width="1.6"></path></svg></span>';

function flag(flags: FlagUrls, code: string, size: 'md' | 'lg'): string {
  const url = flags.get(code.toUpperCase());
  if (!url) return GLOBE.replace('%s', size);
  return `<img class="flag flag-${size}" src="${esc(url)}" alt="" loading="lazy" decoding="async" width="32" height="24" />`;
}

const BRAND_ICON =
  '<svg aria-hidden="true" width="28" height="28" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="currentColor"></rect><path d="M20 14h18l8 8v28H20z" fill="#fff"></path><rect x="26" y="30" width="14" height="12" rx="2" fill="#5eead4"></rect></svg>';

/** Links keep the page's language for the next page (the app reads `?lang=`). */
const href = (language: UiLanguage, path: string, query = '') => languageUrl('', path, language, query);

/** The app's header, main and footer around `main`, as a visitor without a session sees them. */
export function layout(language: UiLanguage, main: string): string {
  const t = (key: Parameters<typeof m>[1]) => esc(m(language, key));
  const links = (items: Array<[string, Parameters<typeof m>[1]]>) =>
    items.map(([path, key]) => `<li><a href="${href(language, path)}">${t(key)}</a></li>`).join('');
  return [
    `<a class="skip-link" href="#main">${t('nav.skip')}</a>`,
    '<header class="site-header"><div class="header-inner">',
    `<a href="${href(language, '/')}" class="brand" aria-label="${t('brand.home')}">${BRAND_ICON}<span>Roam eSIM</span></a>`,
    `<nav id="site-nav" aria-label="${t('nav.main')}" class="site-nav">`,
    `<ul><li><a href="${href(language, '/')}">${t('nav.destinations')}</a></li></ul>`,
    `<div class="account-links"><a href="/login">${t('nav.login')}</a><a href="/register" class="button small">${t('nav.register')}</a></div>`,
    '</nav></div></header>',
    `<main id="main" tabindex="-1">${main}</main>`,
    '<footer class="site-footer"><div class="footer-inner">',
    `<div class="footer-brand"><p>${t('footer.tagline')}</p></div>`,
    `<nav aria-label="${t('footer.legal')}" class="footer-links">`,
    `<ul>${links([
      ['/terms', 'legal.terms'],
      ['/privacy', 'legal.privacy'],
      ['/refund-policy', 'legal.refunds'],
      ['/contact', 'legal.contact'],
    ])}</ul>`,
    `<ul>${links([
      ['/compatibility', 'compat.footer'],
      ['/support', 'nav.support'],
      ['/api-keys', 'footer.partners'],
    ])}<li><a href="/docs">${t('footer.apiReference')}</a></li></ul>`,
    '</nav></div></footer>',
  ].join('');
}

export const STOREFRONT_FILTERS = ['popular', 'all', 'regional', 'global'] as const;
export type StorefrontFilter = (typeof STOREFRONT_FILTERS)[number];

/** `/`: hero, the destinations of one tab (links: each tab is a page of its own without JavaScript), how it works. */
export function storefrontMain(
  language: UiLanguage,
  filter: StorefrontFilter,
  list: ListView,
  flags: FlagUrls,
): string {
  const t = (key: Parameters<typeof m>[1], params?: Record<string, string | number>) =>
    esc(m(language, key, params));
  const card = (code: string, name: string, price: Price, extra = '') =>
    `<li><a class="destination-card" href="${href(language, `/destinations/${code}`)}">${flag(flags, code, 'md')}` +
    `<span class="destination-name">${esc(name)}${extra}</span>` +
    `<span class="destination-price"><small>${t(`store.from`)}</small> ${esc(price.formatted)}</span></a></li>`;
  const tabs = STOREFRONT_FILTERS.map(
    (f) =>
      `<a class="tab" href="${href(language, '/', `filter=${f}`)}" aria-current="${filter === f ? 'page' : 'false'}">${t(`store.filter.${f}`)}</a>`,
  ).join('');
  const countries = list.countries.length
    ? `<ul class="destination-grid" aria-label="${t('store.countries')}" data-testid="destination-list">${list.countries
        .map((c) => card(c.code, c.name, c.startingPrice))
        .join('')}</ul>`
    : '';
  const regions = list.regions.length
    ? (list.countries.length ? `<h3 class="subhead">${t('store.regions')}</h3>` : '') +
      `<ul class="destination-grid regions" aria-label="${t('store.regions')}">${list.regions
        .map((r) =>
          card(
            r.code,
            r.name,
            r.startingPrice,
            `<small class="muted block">${t('store.countryCount', { n: r.countryCount })}</small>`,
          ),
        )
        .join('')}</ul>`
    : '';
  return [
    '<section class="hero"><div class="hero-inner">',
    `<h1>${t('store.heroTitle')}</h1><p class="hero-sub">${t('store.heroSub')}</p>`,
    `<form class="search" role="search" action="/" method="get"><label for="destination-search" class="visually-hidden">${t('store.searchLabel')}</label>`,
    `<input id="destination-search" type="search" name="q" placeholder="${t('store.searchPlaceholder')}" autocomplete="off" maxlength="100" />`,
    language === 'en' ? '' : `<input type="hidden" name="lang" value="${language}" />`,
    '</form>',
    `<ul class="hero-points"><li>${t('store.point1')}</li><li>${t('store.point2')}</li><li>${t('store.point3')}</li></ul>`,
    '</div></section>',
    '<section class="container" aria-labelledby="destinations-heading"><div class="section-head">',
    `<h2 id="destinations-heading">${t('store.destinations')}</h2>`,
    `<div class="tabs" role="group" aria-label="${t('store.filterLabel')}">${tabs}</div></div>`,
    countries,
    regions,
    '</section>',
    `<section class="container how" aria-labelledby="how-heading"><h2 id="how-heading">${t('store.howTitle')}</h2><ol class="steps">`,
    ([1, 2, 3] as const)
      .map((n) => `<li><strong>${t(`store.how${n}`)}</strong><span>${t(`store.how${n}Body`)}</span></li>`)
      .join(''),
    '</ol></section>',
  ].join('');
}

/** Data as the app shows it ("1 GB", "500 MB"), as web/src/lib/format.ts formatData. */
function formatData(mb: number, language: UiLanguage): string {
  if (mb >= 1024) return `${numberFormat(language, { maximumFractionDigits: 1 }).format(mb / 1024)} GB`;
  return `${numberFormat(language, { maximumFractionDigits: 0 }).format(mb)} MB`;
}

/** `/destinations/:code`: the breadcrumb, name and description, every plan with its price. */
export function destinationMain(language: UiLanguage, detail: DetailView, flags: FlagUrls): string {
  const t = (key: Parameters<typeof m>[1], params?: Record<string, string | number>) =>
    esc(m(language, key, params));
  const d = detail.destination;
  const plan = (p: DetailView['destination']['plans'][number]) =>
    `<li class="plan" data-plan-id="${esc(p.id)}"><span class="plan-data">${esc(formatData(p.dataAmountMb, language))}</span>` +
    `<span class="plan-days">${t('dest.days', { n: p.durationDays })}</span>` +
    `<span class="plan-price">${esc(p.price.formatted)}</span><span class="visually-hidden"> ${esc(p.title)}</span></li>`;
  const base = d.plans.filter((p) => !p.isTopUp);
  const topUps = d.plans.filter((p) => p.isTopUp);
  return [
    '<div class="container destination-page">',
    `<nav aria-label="${t('common.breadcrumb')}" class="breadcrumb"><a href="${href(language, '/')}">${t('nav.destinations')}</a> <span aria-hidden="true">›</span> <span>${esc(d.name)}</span></nav>`,
    `<header class="destination-head">${flag(flags, d.code, 'lg')}<div><h1>${esc(d.name)}</h1><p class="muted">${esc(d.description)}</p></div></header>`,
    '<section class="checkout card" aria-labelledby="plans-heading">',
    `<h2 id="plans-heading" class="legend">${t('dest.choosePlan')}</h2><ul class="plan-list">${base.map(plan).join('')}</ul>`,
    topUps.length
      ? `<h2 class="legend">${t('dest.topUps')}</h2><p class="hint">${t('dest.topUpsHint')}</p><ul class="plan-list">${topUps.map(plan).join('')}</ul>`
      : '',
    `<p><a class="button primary wide" href="/login?next=${encodeURIComponent(`/destinations/${d.code}`)}">${t('dest.loginToBuy')}</a></p>`,
    '</section></div>',
  ].join('');
}
