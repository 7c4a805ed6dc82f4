import { describe, expect, test } from 'vitest';
import {
  centsToDecimal,
  formatData,
  formatMoney,
  formatSignedMoney,
  parseAmountToCents,
  usagePercent,
} from './format';
import { checkAvatarFile } from './avatar';
import { safeNext } from './next';
import { destinationFromPlanId } from './plans';

describe('money', () => {
  test('formats in the UI language and currency', () => {
    expect(formatMoney(12.5, 'USD', 'en')).toBe('$12.50');
    expect(formatMoney(12.5, 'EUR', 'en')).toBe('€12.50');
    expect(formatMoney(1234.5, 'TRY', 'tr')).toMatch(/^₺1\.234,50$/);
    expect(formatSignedMoney(-3.49, 'USD', 'en')).toBe('-$3.49');
    expect(formatSignedMoney(10, 'USD', 'en')).toBe('+$10.00');
  });

  test('parses typed amounts into cents, with a comma or a point', () => {
    expect(parseAmountToCents('25')).toBe(2500);
    expect(parseAmountToCents('12.5')).toBe(1250);
    expect(parseAmountToCents(' 12,05 ')).toBe(1205);
    for (const bad of ['', '0', '0.00', '-1', '1.234', 'abc', '1e3', '12.']) {
      expect(parseAmountToCents(bad), bad).toBeNull();
    }
    expect(centsToDecimal(1205)).toBe('12.05');
    expect(centsToDecimal(200)).toBe('2.00');
  });
});

describe('data and usage', () => {
  test('MB below a gigabyte, GB above', () => {
    expect(formatData(512, 'en')).toBe('512 MB');
    expect(formatData(1024, 'en')).toBe('1 GB');
    expect(formatData(1536, 'tr')).toBe('1,5 GB');
  });

  test('usage percent is clamped and safe without a total', () => {
    expect(usagePercent(0, 1024)).toBe(0);
    expect(usagePercent(256, 1024)).toBe(25);
    expect(usagePercent(2000, 1024)).toBe(100);
    expect(usagePercent(10, 0)).toBe(0);
  });
});

describe('client rules', () => {
  test('avatar type and size as the API enforces them', () => {
    expect(checkAvatarFile({ type: 'image/png', size: 1_500_000 })).toEqual({ ok: true });
    expect(checkAvatarFile({ type: 'image/png', size: 1_500_001 })).toEqual({ ok: false, reason: 'size' });
    expect(checkAvatarFile({ type: 'image/svg+xml', size: 10 })).toEqual({ ok: false, reason: 'type' });
  });

  test('next= stays inside the app', () => {
    expect(safeNext('/destinations/JP')).toBe('/destinations/JP');
    for (const bad of ['https://evil.example', '//evil.example', '/\\evil', null, 'esims']) {
      expect(safeNext(bad, '/esims')).toBe('/esims');
    }
  });

  test('plan ids: the destination when the id carries it', () => {
    expect(destinationFromPlanId('plan_sbx-tr-1gb-7d')).toBe('TR');
    expect(destinationFromPlanId('plan_sbx-europe-3gb-30d')).toBe('EUROPE');
    expect(destinationFromPlanId('plan_p2l6ksa8x')).toBeNull();
  });
});
