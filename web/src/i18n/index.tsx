import rosetta from 'rosetta';
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { isUiLanguage, UI_LANGUAGES, type UiLanguage } from '../../../src/lib/ui-languages';
import { setApiLanguage } from '../api/client';
import en from './en.json';
import tr from './tr.json';

export type Language = UiLanguage;
export const LANGUAGES: readonly Language[] = UI_LANGUAGES;
export type MessageKey = keyof typeof en;
export type Translate = (key: MessageKey, params?: Record<string, string | number>) => string;

const i18n = rosetta<Record<string, string>>({ en, tr });
const STORAGE_KEY = 'lang';

export const isLanguage = isUiLanguage;

/**
 * The visitor's language: the page's `?lang=` (the server-rendered pages' links, docs/web.md),
 * else a saved choice, else the browser's first supported language, else en.
 */
export function detectLanguage(): Language {
  const asked = new URLSearchParams(location.search).get('lang');
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

interface I18nValue {
  language: Language;
  setLanguage: (language: Language, remember?: boolean) => void;
  t: Translate;
}

const I18nContext = createContext<I18nValue | null>(null);

export function I18nProvider({ children, initial }: { children: ReactNode; initial?: Language }) {
  const [language, setState] = useState<Language>(() => {
    const lang = initial ?? detectLanguage();
    setApiLanguage(lang);
    return lang;
  });
  const setLanguage = useCallback((next: Language, remember = true) => {
    setApiLanguage(next);
    document.documentElement.lang = next;
    if (remember) {
      try {
        localStorage.setItem(STORAGE_KEY, next);
      } catch {
        // ignore
      }
    }
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
