import rosetta from 'rosetta';
import {
  isUiLanguage,
  LANGUAGE_NAMES,
  LANGUAGE_PARAM,
  UI_LANGUAGES,
  type UiLanguage,
} from '../../../src/lib/languages';
import en from './en.json';

/** The UI languages: one list shared with the server (src/lib/languages.ts). */
export type Language = UiLanguage;
export const LANGUAGES: readonly Language[] = UI_LANGUAGES;
export { LANGUAGE_NAMES };
export type MessageKey = keyof typeof en;
export type Translate = (key: MessageKey, params?: Record<string, string | number>) => string;

const i18n = rosetta<Record<string, string>>({ en });
export const STORAGE_KEY = 'lang';

/**
 * English ships in the main bundle (it is every key's fallback); the other languages are chunks
 * of their own, fetched when first used, so a visitor downloads only the language they read.
 */
// Typed loosely on purpose: a key missing from a file falls back to English at run time, and
// messages.test.ts is what insists that every file is complete.
const LOADERS: Record<Exclude<Language, 'en'>, () => Promise<{ default: Record<string, string> }>> = {
  tr: () => import('./tr.json'),
  de: () => import('./de.json'),
  fr: () => import('./fr.json'),
  es: () => import('./es.json'),
};
const loaded = new Set<Language>(['en']);

export function isLoaded(language: Language): boolean {
  return loaded.has(language);
}

/** Fetches a language's messages once; resolves when `translate` can use them. */
export async function loadLanguage(language: Language): Promise<void> {
  if (loaded.has(language) || language === 'en') return;
  const messages = (await LOADERS[language]()).default;
  i18n.set(language, messages);
  loaded.add(language);
}

export function isLanguage(value: unknown): value is Language {
  return isUiLanguage(value);
}

/**
 * The visitor's language: the page URL's `?lang=` (what a search result's hreflang link names),
 * else a saved choice, else the browser's first supported language, else en.
 */
export function detectLanguage(): Language {
  const asked = new URLSearchParams(globalThis.location?.search ?? '').get(LANGUAGE_PARAM);
  if (isLanguage(asked)) return asked;
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    if (isLanguage(saved)) return saved;
  } catch {
    // storage may be blocked
  }
  for (const tag of navigator.languages ?? [navigator.language]) {
    const base = tag.slice(0, 2).toLowerCase();
    if (isLanguage(base)) return base;
  }
  return 'en';
}

export function translate(
  language: Language,
  key: MessageKey,
  params?: Record<string, string | number>,
): string {
  // An array key: message keys contain dots, which rosetta would otherwise read as a path.
  const text = i18n.t([key], params ?? {}, language);
  return text || i18n.t([key], params ?? {}, 'en') || key;
}
