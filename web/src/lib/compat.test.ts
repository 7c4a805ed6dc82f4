import { describe, expect, test } from 'vitest';
import data from './esim-phones.json';
import en from '../i18n/en.json';
import tr from '../i18n/tr.json';
import { BRAND_NOTES, guessDevice, noteKey, PHONES, PHONES_UPDATED, searchPhones } from './compat';

const names = (query: string) => searchPhones(query).map((p) => p.model);

describe('the eSIM phone list (web/src/lib/esim-phones.json)', () => {
  test('holds at least 150 models of the main brands, with its source and date', () => {
    expect(PHONES.length).toBeGreaterThanOrEqual(150);
    const brands = new Set(PHONES.map((p) => p.brand));
    for (const brand of ['Apple', 'Google', 'Samsung', 'Motorola', 'OPPO', 'Xiaomi', 'Huawei', 'Sony']) {
      expect(brands.has(brand), brand).toBe(true);
    }
    for (const brand of ['Nokia', 'OnePlus']) expect(brands.has(brand), brand).toBe(true);
    expect(PHONES_UPDATED).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(data.source.length).toBeGreaterThan(20);
    expect(data.sources.length).toBeGreaterThan(0);
  });

  test('names each model once', () => {
    const keys = PHONES.map((p) => `${p.brand} ${p.model}`.toLowerCase());
    expect(new Set(keys).size).toBe(keys.length);
  });

  test('the iPhones from the XS on, SE 2020/2022, Pixel 3 on with the 3a exception, Galaxy S20 on', () => {
    for (const model of ['iPhone XS', 'iPhone XR', 'iPhone SE (2020)', 'iPhone SE (2022)', 'iPhone 15']) {
      expect(names(model), model).toContain(model);
    }
    expect(names('iphone x')).not.toContain('iPhone X');
    const pixel3a = PHONES.find((p) => p.model === 'Pixel 3a');
    expect(pixel3a?.note).toBe('pixel3a');
    expect(BRAND_NOTES.get('Apple')).toBe('appleChina');
    for (const model of [
      'Galaxy S20',
      'Galaxy Note 20',
      'Galaxy Z Fold5',
      'Galaxy Z Flip6',
      'Galaxy A54 5G',
    ]) {
      expect(names(model), model).toContain(model);
    }
    expect(names('huawei p40')).toEqual(['P40', 'P40 Pro']);
  });

  test('every note has its text in every UI language', () => {
    const notes = [...PHONES.flatMap((p) => (p.note ? [p.note] : [])), ...BRAND_NOTES.values()];
    for (const note of notes) {
      expect(en, note).toHaveProperty([noteKey(note)]);
      expect(tr, note).toHaveProperty([noteKey(note)]);
    }
  });
});

describe('searchPhones', () => {
  test('every word must match, exact names first', () => {
    expect(names('iPhone 15')).toEqual(['iPhone 15', 'iPhone 15 Plus', 'iPhone 15 Pro', 'iPhone 15 Pro Max']);
    expect(names('pixel 8')).toEqual(['Pixel 8', 'Pixel 8 Pro', 'Pixel 8a']);
    expect(names('  GALAXY   s24 ')).toEqual([
      'Galaxy S24',
      'Galaxy S24+',
      'Galaxy S24 Ultra',
      'Galaxy S24 FE',
    ]);
  });

  test('the brand counts as a word; no match is an empty list; no query is the whole list', () => {
    expect(names('google 9a')).toEqual(['Pixel 9a']);
    expect(names('nokia 3310')).toEqual([]);
    expect(searchPhones('')).toHaveLength(PHONES.length);
  });
});

describe('guessDevice (a hint from the user agent)', () => {
  test.each([
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
      { kind: 'iphone' },
    ],
    [
      'Mozilla/5.0 (Linux; Android 14; Pixel 8 Pro) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36',
      { kind: 'listed', model: 'Google Pixel 8 Pro' },
    ],
    [
      'Mozilla/5.0 (Linux; Android 9; Pixel 3a Build/PQ3B.190801.002) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/76.0 Mobile Safari/537.36',
      { kind: 'listed', model: 'Google Pixel 3a' },
    ],
    [
      'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
      { kind: 'android' },
    ],
    [
      'Mozilla/5.0 (Linux; Android 13; SM-S911B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/116.0 Mobile Safari/537.36',
      { kind: 'android' },
    ],
    [
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      { kind: 'other' },
    ],
  ])('%s', (ua, expected) => {
    expect(guessDevice(ua)).toEqual(expected);
  });
});
