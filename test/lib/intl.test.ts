import { describe, expect, test } from 'vitest';
import { collator, dateTimeFormat, displayNames, numberFormat } from '../../src/lib/intl.js';

describe('shared Intl formatters', () => {
  test('one instance per kind, locale and options, which formats as a new one would', () => {
    const usd = numberFormat('tr-TR', { style: 'currency', currency: 'USD' });
    expect(numberFormat('tr-TR', { style: 'currency', currency: 'USD' })).toBe(usd);
    expect(usd.format(12.5)).toBe(
      new Intl.NumberFormat('tr-TR', { style: 'currency', currency: 'USD' }).format(12.5),
    );

    // Another locale, another option value: another formatter, with its own output.
    const enUsd = numberFormat('en-US', { style: 'currency', currency: 'USD' });
    const eur = numberFormat('tr-TR', { style: 'currency', currency: 'EUR' });
    expect(enUsd).not.toBe(usd);
    expect(eur).not.toBe(usd);
    expect(enUsd.format(12.5)).toBe('$12.50');
    expect(eur.format(12.5)).toContain('€');

    const options = { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' } as const;
    const date = dateTimeFormat('en-US', options);
    expect(dateTimeFormat('en-US', { ...options })).toBe(date);
    expect(date.format(new Date('2026-11-26T09:05:00Z'))).toBe('November 26, 2026 at 9:05 AM');
    expect(dateTimeFormat('en-US', { ...options, timeZone: 'Europe/Istanbul' })).not.toBe(date);

    expect(collator('tr')).toBe(collator('tr'));
    expect(['Zambiya', 'Çin', 'Ürdün', 'Cezayir'].sort(collator('tr').compare)).toEqual([
      'Cezayir',
      'Çin',
      'Ürdün',
      'Zambiya',
    ]);

    const names = displayNames('tr', { type: 'region' });
    expect(displayNames('tr', { type: 'region' })).toBe(names);
    expect(names.of('TR')).toBe('Türkiye');
  });

  test('a caller passing open-ended keys cannot grow it without bound: past the bound it starts over', () => {
    const first = numberFormat('en-US', { style: 'unit', unit: 'day' });
    // Any well-formed three-letter code is a currency to Intl: 1 000 distinct keys.
    const code = (i: number) =>
      String.fromCharCode(65 + (i % 26), 65 + (Math.floor(i / 26) % 26), 65 + Math.floor(i / 676));
    for (let i = 0; i < 1000; i++) numberFormat('en-US', { style: 'currency', currency: code(i) });
    // The first entry was dropped with the rest when the cache filled, so this is a new instance.
    expect(numberFormat('en-US', { style: 'unit', unit: 'day' })).not.toBe(first);
  });
});
