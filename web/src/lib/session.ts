import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api, unwrap } from '../api/client';
import type { Currency, User } from '../api/types';
import { CURRENCIES } from '../api/types';
import type { Language } from '../i18n';

export const ME_KEY = ['me'] as const;

/** The logged-in user from GET /auth/me (null when logged out); the session is the httpOnly cookie. */
export function useMe() {
  return useQuery({
    queryKey: ME_KEY,
    queryFn: async () => (await unwrap(api.GET('/api/v1/auth/me'))).user ?? null,
    staleTime: 30_000,
  });
}

export function useSetMe() {
  const client = useQueryClient();
  return (user: User | null) => client.setQueryData(ME_KEY, user);
}

/**
 * After money moved (a purchase, a top-up coming back, an order refunded): the header balance
 * (GET /auth/me, kept 30 s otherwise) and every list that shows money or what it bought are read
 * again. Prefix keys: ['orders'] covers the paged list and the partner page's full list.
 */
export function useMoneyMoved(): () => Promise<void> {
  const client = useQueryClient();
  return useCallback(async () => {
    await Promise.all(
      [ME_KEY, ['transactions'], ['orders'], ['esims']].map((queryKey) =>
        client.invalidateQueries({ queryKey }),
      ),
    );
  }, [client]);
}

export function useLogout() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.POST('/api/v1/auth/logout')),
    onSettled: () => {
      client.clear();
      client.setQueryData(ME_KEY, null);
    },
  });
}

const CURRENCY_KEY = 'currency';

function isCurrency(value: unknown): value is Currency {
  return typeof value === 'string' && (CURRENCIES as readonly string[]).includes(value);
}

/** A visitor's currency: saved choice, else TRY for Turkish, GBP for en-GB, EUR for euro locales, else USD. */
export function visitorCurrency(language: Language): Currency {
  try {
    const saved = localStorage.getItem(CURRENCY_KEY);
    if (isCurrency(saved)) return saved;
  } catch {
    // ignore
  }
  if (language === 'tr') return 'TRY';
  const tag = navigator.language ?? '';
  if (/-GB$/i.test(tag)) return 'GBP';
  if (/-(DE|FR|IT|ES|NL|AT|BE|IE|PT|FI|GR)$/i.test(tag)) return 'EUR';
  return 'USD';
}

export function rememberCurrency(currency: Currency): void {
  try {
    localStorage.setItem(CURRENCY_KEY, currency);
  } catch {
    // ignore
  }
}

export function userCurrency(user: User | null | undefined, language: Language): Currency {
  return user && isCurrency(user.currency) ? user.currency : visitorCurrency(language);
}
