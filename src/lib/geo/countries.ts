import { continents, countries as countryFacts } from 'countries-list';
import { displayNames } from '../intl.js';

/**
 * Locales every catalog name is available in. Names come from the runtime's ICU data through
 * `Intl.DisplayNames` (Node ships full ICU), so they are the everyday CLDR names ("Türkiye",
 * "United States", "Turkije"), never the official long forms ("Republiek Turkije").
 */
export const LOCALES = ['en', 'tr', 'de', 'fr', 'es', 'ru', 'ar', 'it', 'pt', 'nl'] as const;
export type Locale = (typeof LOCALES)[number];

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

export type LocalizedName = Record<Locale, string>;

export interface CountryInfo {
  /** ISO 3166-1 alpha-2, upper case. */
  code: string;
  name: LocalizedName;
  /** English continent name from countries-list, e.g. "Europe": a stable grouping key. */
  continent: string;
  /** The continent's name in every locale (CLDR names of the UN M49 area). */
  continentName: LocalizedName;
  flagEmoji: string;
}

/** Regional-indicator letters: "TR" → 🇹🇷. */
export function flagEmoji(code: string): string {
  return String.fromCodePoint(...[...code.toUpperCase()].map((c) => 0x1f1e6 + c.charCodeAt(0) - 65));
}

/**
 * The region formatters by style and locale. The search index asks for every country in every
 * locale at start-up (tens of thousands of calls), so the lookup goes by the two strings as they
 * are instead of composing the shared cache's key (kind, locale, options as JSON) each time.
 */
const regionNames = {
  long: new Map<string, Intl.DisplayNames>(),
  short: new Map<string, Intl.DisplayNames>(),
};

/** CLDR name of a region code (ISO alpha-2 or UN M49) in `locale`; undefined when ICU has none. */
export function regionDisplayName(
  code: string,
  locale: string,
  style: 'long' | 'short' = 'long',
): string | undefined {
  let names = regionNames[style].get(locale);
  if (!names) {
    names = displayNames(locale, { type: 'region', style, fallback: 'none' });
    regionNames[style].set(locale, names);
  }
  return names.of(code);
}

function localized(code: string, fallback: string): LocalizedName {
  const name = {} as LocalizedName;
  for (const locale of LOCALES) name[locale] = regionDisplayName(code, locale) ?? fallback;
  return name;
}

/** countries-list continent code → UN M49 area code, which Intl.DisplayNames can name. */
const CONTINENT_M49: Record<keyof typeof continents, string> = {
  AF: '002',
  AN: 'AQ',
  AS: '142',
  EU: '150',
  NA: '003',
  OC: '009',
  SA: '005',
};

/** countries-list also lists these exceptionally reserved codes; they are not countries we sell. */
const NOT_ISO_3166_1 = new Set(['AC', 'TA']);

type Facts = { name: string; native: string; continent: keyof typeof continents; alias?: string[] };
const FACTS = countryFacts as unknown as Record<string, Facts>;

function buildCountry(code: string): CountryInfo | null {
  const facts = FACTS[code];
  if (!facts || NOT_ISO_3166_1.has(code) || !regionDisplayName(code, 'en')) return null;
  return {
    code,
    name: localized(code, facts.name),
    continent: continents[facts.continent],
    continentName: localized(CONTINENT_M49[facts.continent], continents[facts.continent]),
    flagEmoji: flagEmoji(code),
  };
}

/** Every ISO alpha-2 country countries-list and ICU both know (250), keyed by upper-case code. */
export const COUNTRIES: ReadonlyMap<string, CountryInfo> = new Map(
  Object.keys(FACTS)
    .sort()
    .map(buildCountry)
    .filter((c): c is CountryInfo => c !== null)
    .map((c) => [c.code, c]),
);

export function findCountry(code: string): CountryInfo | undefined {
  return COUNTRIES.get(code.toUpperCase());
}

/** A country's name for `locale` (any language ICU knows, e.g. a mail in the account's locale). */
export function countryName(code: string, locale: string): string {
  const upper = code.toUpperCase();
  return (
    (isLocale(locale) ? COUNTRIES.get(upper)?.name[locale] : undefined) ??
    regionDisplayName(upper, locale) ??
    regionDisplayName(upper, 'en') ??
    upper
  );
}

/**
 * Languages whose names search also matches (besides the ten served ones): the languages
 * travellers type in, the languages i18n-iso-countries covered before
 * the catalog moved to ICU names, plus a few more ICU has.
 */
// prettier-ignore
const SEARCH_LOCALES = [
  ...LOCALES,
  'af', 'am', 'az', 'be', 'bg', 'bn', 'br', 'bs', 'ca', 'cs', 'cy', 'da', 'el', 'et', 'eu', 'fa', 'fi',
  'ga', 'gl', 'gu', 'ha', 'he', 'hi', 'hr', 'hu', 'hy', 'id', 'is', 'ja', 'ka', 'kk', 'km', 'kn', 'ko',
  'ku', 'ky', 'lt', 'lv', 'mk', 'ml', 'mn', 'mr', 'ms', 'mt', 'my', 'nb', 'ne', 'nn', 'no', 'pa',
  'pl', 'ps', 'ro', 'sd', 'si', 'sk', 'sl', 'so', 'sq', 'sr', 'sv', 'sw', 'ta', 'te', 'tg', 'th',
  'tk', 'tt', 'ug', 'uk', 'ur', 'uz', 'vi', 'zh',
];

/**
 * Colloquial names ICU does not carry (search only): what English and Turkish speakers type for
 * a destination whose CLDR name is different ("England" for the United Kingdom).
 */
const EXTRA_ALIASES: Record<string, string[]> = {
  AE: ['UAE', 'BAE', 'Dubai', 'Abu Dhabi'],
  BY: ['Beyaz Rusya', 'Byelorussia'],
  CI: ['Ivory Coast', 'Fildişi Sahili'],
  CV: ['Cape Verde', 'Yeşil Burun Adaları'],
  CZ: ['Czech Republic', 'Çek Cumhuriyeti'],
  GB: ['England', 'Scotland', 'Wales', 'Great Britain', 'İngiltere', 'İskoçya', 'Galler', 'Büyük Britanya'],
  MK: ['Macedonia', 'Makedonya'],
  MM: ['Burma'],
  NL: ['Holland', 'Hollanda'],
  SZ: ['Swaziland', 'Svaziland'],
  TL: ['East Timor', 'Doğu Timor'],
  US: ['USA', 'ABD', 'America', 'Amerika'],
  VA: ['Vatican', 'Vatikan'],
};

/**
 * Every name search matches for a country: its ICU names (long and short style) in the search
 * languages, the countries-list English, native and alias names, and the colloquial extras.
 * Built on demand (about 150 ms for all countries), so start-up does not pay for it.
 */
export function searchNames(code: string): string[] {
  const facts = FACTS[code];
  const names = new Set<string>([...(facts ? [facts.name, facts.native, ...(facts.alias ?? [])] : [])]);
  for (const alias of EXTRA_ALIASES[code] ?? []) names.add(alias);
  for (const locale of SEARCH_LOCALES) {
    for (const style of ['long', 'short'] as const) {
      const name = regionDisplayName(code, locale, style);
      if (name) names.add(name);
    }
  }
  return [...names];
}
