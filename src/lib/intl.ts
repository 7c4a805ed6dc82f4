/**
 * Shared Intl formatters, one per (kind, locale, options). Building one is slow and takes ICU
 * memory outside V8's heap that is freed only when V8 collects the wrapper, so a formatter built
 * per call (a receipt's date and amounts) kept megabytes of ICU objects alive under load and
 * fragmented the process's malloc heap (docs/performance.md, "Intl formatters").
 * Formatters hold no per-call state, so one instance serves every caller.
 *
 * Keys come from fixed sets (our locales, currencies, units); the bound only guards a caller that
 * passes something open-ended: past it the cache starts over.
 */
const MAX_ENTRIES = 1000;
const cache = new Map<string, unknown>();

function cached<T>(key: string, make: () => T): T {
  let value = cache.get(key) as T | undefined;
  if (value === undefined) {
    if (cache.size >= MAX_ENTRIES) cache.clear();
    value = make();
    cache.set(key, value);
  }
  return value;
}

export function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  return cached(`number|${locale}|${JSON.stringify(options)}`, () => new Intl.NumberFormat(locale, options));
}

export function dateTimeFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return cached(`date|${locale}|${JSON.stringify(options)}`, () => new Intl.DateTimeFormat(locale, options));
}

export function collator(locale: string): Intl.Collator {
  return cached(`collator|${locale}`, () => new Intl.Collator(locale));
}

export function displayNames(locale: string, options: Intl.DisplayNamesOptions): Intl.DisplayNames {
  return cached(`names|${locale}|${JSON.stringify(options)}`, () => new Intl.DisplayNames(locale, options));
}
