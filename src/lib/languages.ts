/**
 * The languages the service speaks to people in (issue 30 T11): the web app's strings and its
 * language switcher, the Mobile API's error messages, mails, legal pages and `hreflang`
 * alternates all read this one list. Plain data with no imports, so the server bundle, the web
 * build and the tests can all read it (like src/lib/client-paths.ts).
 *
 * Catalog names (countries, regions, plan titles) cover more locales: see src/lib/geo/countries.ts.
 */

export const UI_LANGUAGES = ['en', 'tr', 'de', 'fr', 'es'] as const;
export type UiLanguage = (typeof UI_LANGUAGES)[number];

/** The default: a page URL without `?lang=` is in it, and it is every message's fallback. */
export const DEFAULT_UI_LANGUAGE: UiLanguage = UI_LANGUAGES[0];

/** Each language's name in itself, as a language switcher lists it. */
export const LANGUAGE_NAMES: Record<UiLanguage, string> = {
  en: 'English',
  tr: 'Türkçe',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
};

/** The Intl locale dates and amounts are formatted in, per language. */
export const INTL_LOCALES: Record<UiLanguage, string> = {
  en: 'en-US',
  tr: 'tr-TR',
  de: 'de-DE',
  fr: 'fr-FR',
  es: 'es-ES',
};

export function isUiLanguage(value: unknown): value is UiLanguage {
  return typeof value === 'string' && (UI_LANGUAGES as readonly string[]).includes(value);
}

/**
 * The supported language an Accept-Language header prefers: highest q wins, ties go to the first
 * listed, region subtags are ignored ("de-AT" is German); `fallback` when none is supported.
 */
export function negotiateLanguage<F extends UiLanguage | undefined>(
  acceptLanguage: string | undefined,
  fallback: F,
): UiLanguage | F {
  if (!acceptLanguage) return fallback;
  let best: { lang: UiLanguage; q: number } | undefined;
  for (const part of acceptLanguage.split(',')) {
    const [tag, ...params] = part.trim().toLowerCase().split(';');
    const base = tag?.trim().split('-')[0];
    if (!isUiLanguage(base)) continue;
    const qParam = params.find((p) => p.trim().startsWith('q='));
    const q = qParam ? Number(qParam.trim().slice(2)) : 1;
    if (!Number.isFinite(q) || q <= 0) continue;
    if (!best || q > best.q) best = { lang: base, q };
  }
  return best?.lang ?? fallback;
}

/** The first supported language among `candidates` (account locale, a form's language…), else `fallback`. */
export function firstUiLanguage(
  candidates: ReadonlyArray<string | null | undefined>,
  fallback: UiLanguage,
): UiLanguage {
  for (const c of candidates) {
    const base = c?.trim().toLowerCase().slice(0, 2);
    if (isUiLanguage(base)) return base;
  }
  return fallback;
}

/** A page URL's `?lang=` picks its language; the web app reads it before the saved choice. */
export const LANGUAGE_PARAM = 'lang';
