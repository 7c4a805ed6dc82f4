import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { setApiLanguage } from '../api/client';
import {
  detectLanguage,
  isLoaded,
  loadLanguage,
  STORAGE_KEY,
  translate,
  type Language,
  type Translate,
} from './messages';

export * from './messages';

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
    const lang = isLoaded(detected) ? detected : 'en';
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
