/**
 * Money is integer cents everywhere inside the service. Conversion to a decimal USD number
 * happens only at the HTTP edge (`amountUsd`, `walletBalance`), and parsing a decimal string
 * into cents never goes through floating point.
 */

export function assertCents(value: number, what = 'amount'): number {
  if (!Number.isSafeInteger(value)) throw new RangeError(`${what} must be an integer number of cents`);
  return value;
}

/** 1234 → 12.34 (a JSON number with at most two decimals). */
export function centsToUsd(cents: number): number {
  assertCents(cents);
  return Number((cents / 100).toFixed(2));
}

/**
 * Parses a decimal string such as "12", "12.5" or "12.50" into cents without float maths.
 * Returns null for anything else (signs, exponents, more than two decimals, empty).
 */
export function parseDecimalToCents(text: string): number | null {
  const m = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!m) return null;
  const whole = Number(m[1]);
  const frac = Number((m[2] ?? '').padEnd(2, '0'));
  return whole * 100 + frac;
}

/** Cents → "12.34" for providers that take decimal strings. */
export function centsToDecimalString(cents: number): string {
  assertCents(cents);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

export const CURRENCIES = ['USD', 'EUR', 'GBP', 'TRY'] as const;
export type Currency = (typeof CURRENCIES)[number];
export function isCurrency(value: unknown): value is Currency {
  return typeof value === 'string' && (CURRENCIES as readonly string[]).includes(value);
}
