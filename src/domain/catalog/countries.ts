import isoCountries from 'i18n-iso-countries';
import { continents, countries as countryFacts } from 'countries-list';

/**
 * Locales every catalog name is available in. The Node build of i18n-iso-countries registers
 * all of its shipped locale files on import, so no registerLocale call is needed here.
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
  /** English continent name from countries-list, e.g. "Europe". */
  continent: string;
  flagEmoji: string;
  /** Every name and alias in every shipped locale ("Turkey", "Türkei" …), for search only. */
  aliases: string[];
}

/** Regional-indicator letters: "TR" → 🇹🇷. */
export function flagEmoji(code: string): string {
  return String.fromCodePoint(...[...code.toUpperCase()].map((c) => 0x1f1e6 + c.charCodeAt(0) - 65));
}

function buildCountry(code: string): CountryInfo | null {
  const facts = (countryFacts as Record<string, { continent: keyof typeof continents; alias?: string[] }>)[
    code
  ];
  if (!facts) return null;
  const name = {} as LocalizedName;
  for (const locale of LOCALES) {
    name[locale] =
      isoCountries.getName(code, locale, { select: 'official' }) ?? isoCountries.getName(code, 'en')!;
  }
  const aliases = new Set<string>(facts.alias ?? []);
  for (const locale of isoCountries.langs()) {
    for (const alias of isoCountries.getName(code, locale, { select: 'all' }) ?? []) aliases.add(alias);
  }
  return {
    code,
    name,
    continent: continents[facts.continent],
    flagEmoji: flagEmoji(code),
    aliases: [...aliases],
  };
}

/** Every ISO alpha-2 country both libraries know, keyed by upper-case code. */
export const COUNTRIES: ReadonlyMap<string, CountryInfo> = new Map(
  Object.keys(isoCountries.getAlpha2Codes())
    .map(buildCountry)
    .filter((c): c is CountryInfo => c !== null)
    .map((c) => [c.code, c]),
);

export function findCountry(code: string): CountryInfo | undefined {
  return COUNTRIES.get(code.toUpperCase());
}
