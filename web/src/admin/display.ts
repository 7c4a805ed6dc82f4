import { formatData, formatDateTime, formatMoney, formatSignedMoney, formatUsd } from '../lib/format';

/**
 * How the console shows money, dates and data: in the operator's own locale (the browser's), the
 * console's words in English. Money always with its currency: the service keeps USD, a customer
 * may think in euros.
 */
function operatorLocale(): string {
  return typeof navigator === 'undefined' ? 'en' : (navigator.languages?.[0] ?? navigator.language ?? 'en');
}

/** US dollars as "US$": beside a customer's euros or lira a bare "$" could be any dollar. */
const usDollars = (text: string) => text.replace(/(^|[^A-Z])\$/, '$1US$');

export const money = (amount: number, currency = 'USD') =>
  currency === 'USD' ? formatUsd(amount, operatorLocale()) : formatMoney(amount, currency, operatorLocale());
export const signedMoney = (amount: number, currency = 'USD') => {
  const text = formatSignedMoney(amount, currency, operatorLocale());
  return currency === 'USD' ? usDollars(text) : text;
};
/** Whole cents (the overview's figures) as money. */
export const centsMoney = (cents: number, currency = 'USD') => money(cents / 100, currency);
export const dateTime = (iso: string) => formatDateTime(iso, operatorLocale());
export const dateTimeOrDash = (iso: string | null | undefined) => (iso ? dateTime(iso) : '—');
export const dataSize = (mb: number) => formatData(mb, operatorLocale());
export const count = (n: number) => new Intl.NumberFormat(operatorLocale()).format(n);
/** An amount in the minor units of `currency` (cents, or yen: 0 decimals), as money. */
export function minorMoney(amountMinor: number, currency: string): string {
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
    .maximumFractionDigits;
  return money(amountMinor / 10 ** (digits ?? 2), currency);
}
