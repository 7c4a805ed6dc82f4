import { describe, expect, it } from 'vitest';
import {
  floorPriceCents,
  partnerPriceCents,
  percentToBps,
  priceRuleKey,
  type PriceRule,
} from '../../../src/domain/pricing/partner-price.js';

const discount = (percent: number, minMargin = 5): PriceRule => ({
  rule: 'discount',
  percentBps: percent * 100,
  minMarginBps: minMargin * 100,
});
const markup = (percent: number, minMargin = 5): PriceRule => ({
  rule: 'markup',
  percentBps: percent * 100,
  minMarginBps: minMargin * 100,
});

/** A small deterministic generator (mulberry32): the property cases are the same on every run. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('partner prices (issue 32 C5)', () => {
  it('is the retail price without a rule', () => {
    expect(partnerPriceCents({ retailCents: 499, wholesaleCents: 300 }, null)).toBe(499);
  });

  it('takes a discount off retail, rounded half up to the cent', () => {
    expect(partnerPriceCents({ retailCents: 1000, wholesaleCents: 500 }, discount(10))).toBe(900);
    // 999 × 0.85 = 849.15 → 849; 1099 × 0.85 = 934.15 → 934; 1010 × 0.875 = 883.75 → 884
    expect(partnerPriceCents({ retailCents: 999, wholesaleCents: 100 }, discount(15))).toBe(849);
    expect(partnerPriceCents({ retailCents: 1010, wholesaleCents: 100 }, discount(12.5))).toBe(884);
    // exactly half a cent rounds up: 1001 × 0.5 = 500.5 → 501
    expect(partnerPriceCents({ retailCents: 1001, wholesaleCents: 100 }, discount(50))).toBe(501);
  });

  it('adds a markup over wholesale, rounded to the cent', () => {
    expect(partnerPriceCents({ retailCents: 999, wholesaleCents: 500 }, markup(20))).toBe(600);
    // 333 × 1.15 = 382.95 → 383
    expect(partnerPriceCents({ retailCents: 999, wholesaleCents: 333 }, markup(15))).toBe(383);
  });

  it('never goes below wholesale × (1 + min margin), that floor rounded up', () => {
    // 50 % off 499 = 249.5 → 250, below 300 × 1.05 = 315
    expect(partnerPriceCents({ retailCents: 499, wholesaleCents: 300 }, discount(50))).toBe(315);
    // 333 × 1.05 = 349.65 → floor 350 (up, not 350 by luck: 333 × 1.07 = 356.31 → 357)
    expect(floorPriceCents(333, 500)).toBe(350);
    expect(floorPriceCents(333, 700)).toBe(357);
    expect(partnerPriceCents({ retailCents: 999, wholesaleCents: 333 }, markup(0, 7))).toBe(357);
    // A 100 % discount still pays the floor; a zero min margin still never sells below cost.
    expect(partnerPriceCents({ retailCents: 999, wholesaleCents: 333 }, discount(100, 0))).toBe(333);
  });

  it('holds its promises for many random plans and rules (property cases)', () => {
    const next = random(32);
    for (let i = 0; i < 5000; i++) {
      const wholesaleCents = Math.floor(next() * 20_000);
      const retailCents = wholesaleCents + Math.floor(next() * 10_000);
      const percentBps = Math.floor(next() * 10_001);
      const minMarginBps = Math.floor(next() * 3000);
      const rule: PriceRule = { rule: next() < 0.5 ? 'discount' : 'markup', percentBps, minMarginBps };
      const price = partnerPriceCents({ retailCents, wholesaleCents }, rule);
      expect(Number.isSafeInteger(price)).toBe(true);
      // never below the floor, and the floor is never below the exact wholesale × (1 + m)
      expect(price).toBeGreaterThanOrEqual(floorPriceCents(wholesaleCents, minMarginBps));
      expect(price * 10_000).toBeGreaterThanOrEqual(wholesaleCents * (10_000 + minMarginBps));
      // the rule's exact price is within half a cent, unless the floor raised it
      const base = rule.rule === 'discount' ? retailCents : wholesaleCents;
      const sign = rule.rule === 'discount' ? -1 : 1;
      const exact = (base * (10_000 + sign * percentBps)) / 10_000;
      if (price !== floorPriceCents(wholesaleCents, minMarginBps)) {
        expect(Math.abs(price - exact)).toBeLessThanOrEqual(0.5);
      } else {
        expect(price).toBeGreaterThanOrEqual(Math.round(exact) - 1);
      }
      // a discount is never more than retail unless the floor demands it
      if (rule.rule === 'discount' && price > retailCents)
        expect(price).toBe(floorPriceCents(wholesaleCents, minMarginBps));
    }
  });

  it('reads percentages with at most two decimals', () => {
    expect(percentToBps(12.5, 10_000)).toBe(1250);
    expect(percentToBps(0.01, 10_000)).toBe(1);
    expect(percentToBps(33.33, 10_000)).toBe(3333);
    expect(percentToBps(12.345, 10_000)).toBeNull();
    expect(percentToBps(-1, 10_000)).toBeNull();
    expect(percentToBps(101, 10_000)).toBeNull();
  });

  it('keys the catalogue cache by the prices a rule gives, never by partner', () => {
    expect(priceRuleKey(null)).toBe('retail');
    expect(priceRuleKey(discount(10))).toBe(priceRuleKey(discount(10)));
    expect(priceRuleKey(discount(10))).not.toBe(priceRuleKey(markup(10)));
    expect(priceRuleKey(discount(10, 5))).not.toBe(priceRuleKey(discount(10, 6)));
  });
});
