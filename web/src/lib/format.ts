/** Formatting with Intl in the UI language; money from the API is USD numbers. */

const numberFormats = new Map<string, Intl.NumberFormat>();

function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, options);
    numberFormats.set(key, format);
  }
  return format;
}

/** An amount in `currency` (for example a wallet balance in USD), formatted for `locale`. */
export function formatMoney(amount: number, currency: string, locale: string): string {
  return numberFormat(locale, { style: 'currency', currency }).format(amount);
}

/**
 * US dollars named unmistakably ("US$3.49", "3,49 US$"): beside a price in euros or lira, a bare
 * "$" could be any dollar (issue 30 T4).
 */
export function formatUsd(amount: number, locale: string): string {
  return numberFormat(locale, { style: 'currency', currency: 'USD' })
    .formatToParts(amount)
    .map((part) => (part.type === 'currency' && part.value === '$' ? 'US$' : part.value))
    .join('');
}

/** A signed amount (wallet transactions): always shows + or −. */
export function formatSignedMoney(amount: number, currency: string, locale: string): string {
  return numberFormat(locale, { style: 'currency', currency, signDisplay: 'exceptZero' }).format(amount);
}

/** Megabytes as MB below 1 GB, else GB with at most one decimal (1024 MB = 1 GB, as providers count). */
export function formatData(mb: number, locale: string): string {
  if (mb >= 1024) {
    return `${numberFormat(locale, { maximumFractionDigits: 1 }).format(mb / 1024)} GB`;
  }
  return `${numberFormat(locale, { maximumFractionDigits: 0 }).format(mb)} MB`;
}

export function formatDate(iso: string, locale: string): string {
  return new Date(iso).toLocaleDateString(locale, { year: 'numeric', month: 'short', day: 'numeric' });
}

export function formatDateTime(iso: string, locale: string): string {
  return new Date(iso).toLocaleString(locale, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
}

/** Share of `used` in `total` as 0–100, clamped; 0 when the total is unknown. */
export function usagePercent(used: number, total: number): number {
  if (!(total > 0) || !(used > 0)) return 0;
  return Math.min(100, Math.round((used / total) * 1000) / 10);
}

/**
 * Parses a user-typed amount ("10", "10.5", "10,50") into integer cents; null when it is not a
 * positive amount with at most two decimals.
 */
export function parseAmountToCents(input: string): number | null {
  const text = input.trim().replace(',', '.');
  if (!/^\d{1,7}(\.\d{1,2})?$/.test(text)) return null;
  const [whole, fraction = ''] = text.split('.');
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return cents > 0 ? cents : null;
}

/** Cents as the API's decimal string ("10.50"). */
export function centsToDecimal(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}
