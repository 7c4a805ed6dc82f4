import rosetta from 'rosetta';
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { setApiLanguage } from '../api/client';
import { isUiLanguage, LANGUAGE_NAMES, UI_LANGUAGES, type UiLanguage } from '../../../src/lib/languages';
import en from './en.json';

/** The UI languages: one list shared with the server (src/lib/languages.ts). */
export type Language = UiLanguage;
export const LANGUAGES: readonly Language[] = UI_LANGUAGES;
export { LANGUAGE_NAMES };
export type MessageKey = keyof typeof en;
export type Messages = Record<MessageKey, string>;
export type Translate = (key: MessageKey, params?: Record<string, string | number>) => string;

const i18n = rosetta<Record<string, string>>({ en });
const STORAGE_KEY = 'lang';

/**
 * English ships in the main bundle (it is every key's fallback); the other languages are chunks
 * of their own, fetched when first used, so a visitor downloads only the language they read.
 */
const LOADERS: Record<Exclude<Language, 'en'>, () => Promise<{ default: Messages }>> = {
  tr: () => import('./tr.json'),
  de: () => import('./de.json'),
  fr: () => import('./fr.json'),
  es: () => import('./es.json'),
};
const loaded = new Set<Language>(['en']);

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

/** The visitor's language: a saved choice, else the browser's first supported language, else en. */
export function detectLanguage(): Language {
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

interface I18nValue {
  language: Language;
  /** Switches once the language's messages are loaded (at once when they already are). */
  setLanguage: (language: Language, remember?: boolean) => Promise<void>;
  t: Translate;
}

const I18nContext = createContext<I18nValue | null>(null);

/** `initial` must already be loaded (main.tsx awaits loadLanguage before the first render). */
export function I18nProvider({ children, initial }: { children: ReactNode; initial?: Language }) {
  const [language, setState] = useState<Language>(() => {
    const detected = initial ?? detectLanguage();
    const lang = loaded.has(detected) ? detected : 'en';
    setApiLanguage(lang);
    return lang;
  });
  const setLanguage = useCallback(async (next: Language, remember = true) => {
    if (remember) {
      try {
        localStorage.setItem(STORAGE_KEY, next);
      } catch {
        // ignore
      }
    }
    try {
      await loadLanguage(next);
    } catch {
      // offline or a stale deploy: stay in the current language
      return;
    }
    setApiLanguage(next);
    document.documentElement.lang = next;
    setState(next);
  }, []);
  const value = useMemo<I18nValue>(
    () => ({ language, setLanguage, t: (key, params) => translate(language, key, params) }),
    [language, setLanguage],
  );
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18nValue {
  const value = useContext(I18nContext);
  if (!value) throw new Error('useI18n outside I18nProvider');
  return value;
}
