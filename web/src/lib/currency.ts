import { useState, useSyncExternalStore } from 'react';
import type { Currency } from '../api/types';
import { useI18n } from '../i18n';
import { useMe, userCurrency, visitorCurrency } from './session';

let visitorChoice: Currency | null = null;
const listeners = new Set<() => void>();

/** The visitor's currency choice in the header, shared by every page that shows prices. */
export function useCurrencyState(): [Currency, (c: Currency) => void] {
  const { language } = useI18n();
  const choice = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => visitorChoice,
  );
  const [fallback] = useState(() => visitorCurrency(language));
  const set = (c: Currency) => {
    visitorChoice = c;
    listeners.forEach((l) => l());
  };
  return [choice ?? fallback, set];
}

/** The currency prices are shown in: the account's preference, else the visitor's. */
export function useDisplayCurrency(): Currency {
  const me = useMe();
  const { language } = useI18n();
  const [visitor] = useCurrencyState();
  return me.data ? userCurrency(me.data, language) : visitor;
}
