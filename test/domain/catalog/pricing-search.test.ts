import { describe, expect, test } from 'vitest';
import { COUNTRIES, flagEmoji, LOCALES } from '../../../src/domain/catalog/countries.js';
import { retailPriceCents } from '../../../src/domain/catalog/pricing.js';
import { findRegion, regionForCoverage, REGIONS } from '../../../src/domain/catalog/regions.js';
import { buildSearchKey, matchesSearch, normalizeSearchText } from '../../../src/domain/catalog/search.js';

describe('retailPriceCents', () => {
  test('applies the markup and rounds up to a .49 or .99 ending', () => {
    expect(retailPriceCents(300, 35)).toBe(449); // 405 → 4.49
    expect(retailPriceCents(340, 35)).toBe(499); // 459 → 4.99
    expect(retailPriceCents(370, 35)).toBe(549); // 499.5 → 500 → 5.49
    expect(retailPriceCents(1000, 0)).toBe(1049); // exactly 10.00 → 10.49
    expect(retailPriceCents(1049, 0)).toBe(1049); // already on an ending
    expect(retailPriceCents(0, 35)).toBe(49);
  });

  test('never below wholesale × markup, always ends in 49 or 99', () => {
    for (let wholesale = 1; wholesale < 5000; wholesale += 37) {
      const price = retailPriceCents(wholesale, 35);
      expect(price).toBeGreaterThanOrEqual((wholesale * 135) / 100);
      expect(price - (wholesale * 135) / 100).toBeLessThan(50);
      expect([49, 99]).toContain(price % 100);
    }
  });

  test('rejects fractional or negative inputs', () => {
    expect(() => retailPriceCents(1.5, 35)).toThrow(RangeError);
    expect(() => retailPriceCents(-1, 35)).toThrow(RangeError);
    expect(() => retailPriceCents(100, 1.5)).toThrow(RangeError);
  });
});

describe('search normalisation', () => {
  test('case, accents and the four Turkish i letters fold to one form', () => {
    const forms = ['İstanbul', 'istanbul', 'ISTANBUL', 'ıstanbul', 'İSTANBUL'];
    expect(new Set(forms.map(normalizeSearchText))).toEqual(new Set(['istanbul']));
    expect(normalizeSearchText('Türkiye')).toBe('turkiye');
    expect(normalizeSearchText('  España ')).toBe('espana');
    expect(normalizeSearchText('Côte d’Ivoire')).toBe('cote d ivoire');
    expect(normalizeSearchText('Straße')).toBe('strasse');
  });

  test('codes match exactly, names as substrings', () => {
    const key = buildSearchKey('DE', ['Germany', 'Almanya', 'Deutschland']);
    expect(matchesSearch(key, 'de')).toBe(true);
    expect(matchesSearch(key, normalizeSearchText('ALMAN'))).toBe(true);
    expect(matchesSearch(key, 'germ')).toBe(true);
    expect(matchesSearch(key, 'fr')).toBe(false);
  });
});

describe('countries and regions', () => {
  test('names in every locale, continent and flag', () => {
    const tr = COUNTRIES.get('TR')!;
    expect(Object.keys(tr.name)).toEqual([...LOCALES]);
    expect(tr.name).toMatchObject({ en: 'Türkiye', de: 'Türkei', fr: 'Turquie', ru: 'Турция', ar: 'تركيا' });
    expect(tr.continent).toBe('Asia');
    expect(flagEmoji('tr')).toBe('🇹🇷');
    expect(COUNTRIES.size).toBeGreaterThan(240);
  });

  test('regions have members; multi-country packages map by code or by overlap', () => {
    for (const region of REGIONS) expect(region.countries.length, region.code).toBeGreaterThan(2);
    expect(findRegion('europe')!.countries).toContain('DE');
    expect(regionForCoverage('EUROPE', ['DE']).code).toBe('EUROPE');
    expect(regionForCoverage('NA', ['US', 'CA', 'MX']).code).toBe('NORTH_AMERICA');
    expect(regionForCoverage(undefined, ['AL', 'RS', 'ME', 'BA', 'MK']).code).toBe('BALKANS');
  });
});
