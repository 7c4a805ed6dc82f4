import { partnerPriceCents, type PriceRule } from '../pricing/partner-price.js';
import type { Currency } from '../../lib/money.js';
import { centsToUsd } from '../../lib/money.js';
import { collator, numberFormat } from '../../lib/intl.js';
import type { CatalogSnapshot, SellablePlan } from './catalog.service.js';
import { COUNTRIES, countryName, searchNames, type CountryInfo, type Locale } from './countries.js';
import { fromUsdCents } from './exchange-rates.js';
import { planDescription, planTitle } from './plan-names.js';
import { GLOBAL_REGION, REGIONS, type RegionInfo } from './regions.js';
import { buildSearchKey, matchesSearch } from './search.js';

/**
 * Read models of the catalog, built from one snapshot. Pure functions: the HTTP layer caches
 * their serialized output per variant and catalog version.
 */

export type DestinationFilter = 'popular' | 'regional' | 'global';

/** Shown for filter=popular, in this order, when they have sellable plans. */
export const POPULAR_COUNTRIES = ['TR', 'US', 'GB', 'DE', 'FR', 'IT', 'ES', 'GR', 'NL', 'AE', 'JP', 'TH'];

export interface Money {
  amount: number;
  currency: Currency;
  formatted: string;
}

export function money(
  usdCents: number,
  currency: Currency,
  locale: Locale,
  rates: CatalogSnapshot['rates'],
): Money {
  const minor = currency === 'USD' ? usdCents : fromUsdCents(usdCents, rates[currency]);
  const amount = centsToUsd(minor);
  return {
    amount,
    currency,
    formatted: numberFormat(locale, { style: 'currency', currency }).format(amount),
  };
}

type SearchKey = ReturnType<typeof buildSearchKey>;
/** The search index once complete; until then `partialKeys` holds what warmSearchIndex built. */
let countryKeys: Map<string, SearchKey> | undefined;
const partialKeys = new Map<string, SearchKey>();

function countrySearchKey(c: CountryInfo): SearchKey {
  return buildSearchKey(c.code, [...Object.values(c.name), ...searchNames(c.code)]);
}

/**
 * Built once per process: every country's names in ~85 languages, too much CPU for one turn.
 * `npm start` builds it after the server listens (warmSearchIndex, through the container's
 * warmUp), a few countries per turn of the event loop; a search that comes first completes it at
 * once.
 */
function countryKey(code: string): SearchKey {
  if (!countryKeys) {
    for (const c of COUNTRIES.values())
      if (!partialKeys.has(c.code)) partialKeys.set(c.code, countrySearchKey(c));
    countryKeys = partialKeys;
  }
  return countryKeys.get(code)!;
}

/** Countries indexed per turn of the event loop while warming: small enough that requests keep flowing. */
const WARM_BATCH = 10;

/**
 * Builds the search index in batches, yielding to the event loop between them, so that requests
 * arriving meanwhile (the first readiness probe among them) are not held up by it. Resolves once
 * the index is complete.
 */
export async function warmSearchIndex(): Promise<void> {
  let sinceYield = 0;
  for (const c of COUNTRIES.values()) {
    if (countryKeys) return;
    if (partialKeys.has(c.code)) continue;
    partialKeys.set(c.code, countrySearchKey(c));
    if (++sinceYield === WARM_BATCH) {
      sinceYield = 0;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
  countryKeys ??= partialKeys;
}

const regionKeys = new Map(REGIONS.map((r) => [r.code, buildSearchKey(r.code, Object.values(r.name))]));

const grouped = new WeakMap<CatalogSnapshot, Map<string, SellablePlan[]>>();

/** Sellable plans by destination code (country or region), in snapshot order. */
export function plansByDestination(snapshot: CatalogSnapshot): Map<string, SellablePlan[]> {
  let groups = grouped.get(snapshot);
  if (!groups) {
    groups = new Map();
    for (const plan of snapshot.plans) {
      const list = groups.get(plan.destinationCode) ?? [];
      list.push(plan);
      groups.set(plan.destinationCode, list);
    }
    grouped.set(snapshot, groups);
  }
  return groups;
}

/** Cheapest base plan (top-ups only count when a destination sells nothing else). */
function startingPriceCents(plans: SellablePlan[]): number {
  const base = plans.filter((p) => !p.isTopUp);
  return Math.min(...(base.length ? base : plans).map((p) => p.effectivePriceCents));
}

/** Countries a region's sellable plans actually cover. */
function coveredCount(plans: SellablePlan[]): number {
  return new Set(plans.flatMap((p) => p.coverage)).size;
}

export interface ListOptions {
  filter?: DestinationFilter;
  /** Already normalised with normalizeSearchText; empty = no search. */
  search?: string;
  locale: Locale;
  currency: Currency;
}

export function mobileDestinationList(snapshot: CatalogSnapshot, options: ListOptions) {
  const groups = plansByDestination(snapshot);
  const { filter, search, locale, currency } = options;
  const countryCodes =
    filter === 'regional' || filter === 'global'
      ? []
      : filter === 'popular'
        ? POPULAR_COUNTRIES
        : [...COUNTRIES.keys()];
  const byName = collator(locale);
  const countries = countryCodes
    .filter((code) => groups.has(code) && (!search || matchesSearch(countryKey(code), search)))
    .map((code) => COUNTRIES.get(code)!)
    .map((c) => ({
      code: c.code,
      name: c.name[locale],
      flagEmoji: c.flagEmoji,
      continent: c.continent,
      continentName: c.continentName[locale],
      startingPrice: money(startingPriceCents(groups.get(c.code)!), currency, locale, snapshot.rates),
      planCount: groups.get(c.code)!.length,
    }));
  if (filter !== 'popular') countries.sort((a, b) => byName.compare(a.name, b.name));
  const regions = (filter === 'popular' ? [] : REGIONS)
    .filter((r) =>
      filter === 'global'
        ? r.code === GLOBAL_REGION
        : filter === 'regional'
          ? r.code !== GLOBAL_REGION
          : true,
    )
    .filter((r) => groups.has(r.code) && (!search || matchesSearch(regionKeys.get(r.code)!, search)))
    .map((r) => ({
      code: r.code,
      name: r.name[locale],
      countryCount: coveredCount(groups.get(r.code)!),
      startingPrice: money(startingPriceCents(groups.get(r.code)!), currency, locale, snapshot.rates),
      planCount: groups.get(r.code)!.length,
    }));
  return { countries, regions };
}

const DESCRIPTIONS: Record<Locale, (name: string) => string> = {
  en: (n) => `Prepaid eSIM data plans for ${n}. Install before you travel and go online on arrival.`,
  tr: (n) => `${n} için ön ödemeli eSIM veri paketleri. Yolculuktan önce yükleyin, varışta bağlanın.`,
  // German and French country names take articles (die Türkei, la Turquie, le Japon) that a
  // preposition would have to agree with: the name stands before a colon instead.
  de: (n) => `${n}: Prepaid-eSIM-Datentarife. Vor der Reise installieren, bei Ankunft online gehen.`,
  fr: (n) =>
    `${n} : forfaits de données eSIM prépayés. Installez avant de partir, connectez-vous à l'arrivée.`,
  es: (n) => `Planes de datos eSIM prepago para ${n}. Instálalo antes de viajar y conéctate al llegar.`,
  ru: (n) =>
    `Предоплаченные тарифы eSIM для страны ${n}. Установите до поездки и выходите в сеть по прибытии.`,
  ar: (n) => `باقات بيانات eSIM مسبقة الدفع لـ ${n}. ثبّتها قبل السفر واتصل عند الوصول.`,
  it: (n) => `Piani dati eSIM prepagati per ${n}. Installa prima di partire e connettiti all'arrivo.`,
  pt: (n) => `Planos de dados eSIM pré-pagos para ${n}. Instale antes de viajar e conecte-se ao chegar.`,
  nl: (n) => `Prepaid eSIM-databundels voor ${n}. Installeer vóór vertrek en ga online bij aankomst.`,
};

export function mobileDestinationDetail(
  snapshot: CatalogSnapshot,
  code: string,
  options: { locale: Locale; currency: Currency },
) {
  const { locale } = options;
  const country = COUNTRIES.get(code.toUpperCase());
  if (!country) return mobileRegionDetail(snapshot, code, options);
  const plans = plansByDestination(snapshot).get(country.code);
  if (!plans) return null;
  return {
    destination: {
      code: country.code,
      name: country.name[locale],
      flagEmoji: country.flagEmoji,
      continent: country.continent,
      continentName: country.continentName[locale],
      description: DESCRIPTIONS[locale](country.name[locale]),
      plans: mobilePlans(snapshot, plans, options),
    },
    exchangeRate: exchangeRateView(snapshot, options.currency),
  };
}

/**
 * A plan's countries named in `locale`, in that language's alphabetical order. Plans of one
 * region usually share their list, so each distinct list is named once per response.
 */
function namedCoverage(plans: SellablePlan[], locale: Locale) {
  const byName = collator(locale);
  const named = new Map<string, Array<{ code: string; name: string }>>();
  return (plan: SellablePlan) => {
    const key = plan.coverage.join();
    let list = named.get(key);
    if (!list) {
      list = plan.coverage
        .map((code) => ({ code, name: countryName(code, locale) }))
        .sort((a, b) => byName.compare(a.name, b.name));
      named.set(key, list);
    }
    return list;
  };
}

/** The plans of a destination as the Mobile API shows them: localised titles, caller's currency. */
function mobilePlans(
  snapshot: CatalogSnapshot,
  plans: SellablePlan[],
  { locale, currency }: { locale: Locale; currency: Currency },
) {
  const coverage = namedCoverage(plans, locale);
  return plans.map((p) => ({
    id: p.id,
    title: planTitle(p, locale),
    description: planDescription(p, locale),
    dataAmountMb: p.dataAmountMb,
    durationDays: p.durationDays,
    isTopUp: p.isTopUp,
    scope: p.scope,
    activationPolicy: p.activationPolicy,
    topUpSupported: p.topUpSupported,
    coverage: coverage(p),
    price: money(p.effectivePriceCents, currency, locale, snapshot.rates),
    // What is charged (issue 30 T4): the checkout says "You pay US$3.49" beside a converted price.
    priceUsd: money(p.effectivePriceCents, 'USD', locale, snapshot.rates),
  }));
}

/** The rate converted prices used and since when; null when prices are in USD already. */
export function exchangeRateView(snapshot: CatalogSnapshot, currency: Currency) {
  if (currency === 'USD') return null;
  return {
    currency,
    ratePerUsd: snapshot.rates[currency],
    asOf: snapshot.rateDates?.[currency]?.toISOString() ?? null,
  };
}

const REGION_LABEL: Partial<Record<Locale, string>> = { en: 'Region', tr: 'Bölge' };

const REGION_DESCRIPTIONS: Partial<Record<Locale, (name: string, count: number) => string>> = {
  en: (n, c) => `One prepaid eSIM for ${n}: ${c} destinations covered. Install before you travel.`,
  tr: (n, c) => `${n} için tek bir ön ödemeli eSIM: ${c} ülkede geçerli. Yolculuktan önce yükleyin.`,
};

/**
 * A region (EUROPE, GLOBAL, …) in the same shape as a country, so the storefront can open the
 * regions it lists: flag 🌍 (🌐 for GLOBAL), continent "Region", its plans.
 */
function mobileRegionDetail(
  snapshot: CatalogSnapshot,
  code: string,
  options: { locale: Locale; currency: Currency },
) {
  const region = REGIONS.find((r) => r.code === code.toUpperCase());
  const plans = region ? plansByDestination(snapshot).get(region.code) : undefined;
  if (!region || !plans) return null;
  const { locale } = options;
  const name = region.name[locale];
  const describe = REGION_DESCRIPTIONS[locale] ?? REGION_DESCRIPTIONS.en!;
  return {
    destination: {
      code: region.code,
      name,
      flagEmoji: region.code === GLOBAL_REGION ? '🌐' : '🌍',
      continent: 'Region',
      continentName: REGION_LABEL[locale] ?? REGION_LABEL.en!,
      description: describe(name, coveredCount(plans)),
      plans: mobilePlans(snapshot, plans, options),
    },
    exchangeRate: exchangeRateView(snapshot, options.currency),
  };
}

/**
 * The Partner API's plans, priced for the caller: its partner price (issue 32 C5) when an
 * operator set it a rule, with the retail price beside it; else retail.
 */
function partnerPlans(plans: SellablePlan[], rule: PriceRule | null) {
  return plans.map((p) => ({
    id: p.id,
    dataAmountMb: p.dataAmountMb,
    durationDays: p.durationDays,
    priceUsd: centsToUsd(
      partnerPriceCents({ retailCents: p.effectivePriceCents, wholesaleCents: p.wholesaleCents }, rule),
    ),
    ...(rule ? { retailPriceUsd: centsToUsd(p.effectivePriceCents) } : {}),
    isTopUp: p.isTopUp,
    activationPolicy: p.activationPolicy,
    topUpSupported: p.topUpSupported,
    coverage: p.coverage,
  }));
}

function partnerCountryShape(country: CountryInfo, plans: SellablePlan[], rule: PriceRule | null) {
  const { code, name, flagEmoji, continent } = country;
  return { code, name, flagEmoji, continent, plans: partnerPlans(plans, rule) };
}

function partnerRegionShape(region: RegionInfo, plans: SellablePlan[], rule: PriceRule | null) {
  return {
    code: region.code,
    name: region.name,
    countryCount: coveredCount(plans),
    plans: partnerPlans(plans, rule),
  };
}

export function partnerCatalog(snapshot: CatalogSnapshot, rule: PriceRule | null = null) {
  const groups = plansByDestination(snapshot);
  return {
    countries: [...COUNTRIES.values()]
      .filter((c) => groups.has(c.code))
      .map((c) => partnerCountryShape(c, groups.get(c.code)!, rule)),
    regions: REGIONS.filter((r) => groups.has(r.code)).map((r) =>
      partnerRegionShape(r, groups.get(r.code)!, rule),
    ),
  };
}

export function partnerCountry(snapshot: CatalogSnapshot, code: string, rule: PriceRule | null = null) {
  const country = COUNTRIES.get(code.toUpperCase());
  const plans = country ? plansByDestination(snapshot).get(country.code) : undefined;
  return country && plans ? partnerCountryShape(country, plans, rule) : null;
}
