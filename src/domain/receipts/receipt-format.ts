import { dateTimeFormat, numberFormat } from '../../lib/intl.js';
import type { Receipt } from './receipts.service.js';

/** Receipt amounts and dates as people read them, in the receipt's language (dates in UTC). */

export function formatAmount(minorUnits: number, currency: string, locale: string): string {
  return numberFormat(locale, { style: 'currency', currency }).format(minorUnits / 100);
}

export function formatDay(date: Date, locale: string): string {
  return dateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(date);
}

export function formatDateTime(date: Date, locale: string): string {
  return (
    dateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(date) + ' UTC'
  );
}

export function receiptFigures(receipt: Receipt) {
  const { locale, display } = receipt;
  return {
    amount: (usdCents: number) => formatAmount(usdCents, 'USD', locale),
    total: formatAmount(receipt.totalUsdCents, 'USD', locale),
    display: display ? formatAmount(display.minorUnits, display.currency, locale) : null,
    rateDay: display?.rateAsOf ? formatDay(display.rateAsOf, locale) : null,
    issued: formatDateTime(receipt.issuedAt, locale),
  };
}
