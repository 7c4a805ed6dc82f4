/**
 * Partner prices (issue 32 C5; docs/partner-guide.md "Prices"). An operator gives a partner one
 * rule: a discount off the retail price, or a markup over the wholesale cost, and a minimum
 * margin. Integer cents and basis points only (1 bp = 0.01 %), never floating point money.
 */

export type PriceRuleKind = 'discount' | 'markup';

export interface PriceRule {
  rule: PriceRuleKind;
  /** The discount (off retail) or markup (over wholesale), in basis points: 1250 = 12.5 %. */
  percentBps: number;
  /** The price is never below wholesale × (1 + this), in basis points; 500 (5 %) by default. */
  minMarginBps: number;
}

export const DEFAULT_MIN_MARGIN_BPS = 500;
/** A discount can at most give the plan away; the floor then still holds. */
export const MAX_DISCOUNT_BPS = 10_000;
/** Ten times wholesale: anything above is a typo, not a price. */
export const MAX_MARKUP_BPS = 100_000;
export const MAX_MIN_MARGIN_BPS = 100_000;

const BPS = 10_000;

/** n / d rounded half up, for non-negative integers (no floating point: exact to the cent). */
function roundHalfUp(n: number, d: number): number {
  return Math.floor((2 * n + d) / (2 * d));
}

/** n / d rounded up, for non-negative integers. */
function ceilDiv(n: number, d: number): number {
  return Math.floor((n + d - 1) / d);
}

/** The lowest price the rule allows: wholesale × (1 + min margin), rounded UP to the cent. */
export function floorPriceCents(wholesaleCents: number, minMarginBps: number): number {
  return ceilDiv(wholesaleCents * (BPS + minMarginBps), BPS);
}

/**
 * A plan's partner price in USD cents: the rule's price rounded to the nearest cent (half up),
 * raised to the floor when below it. No rule: the retail price.
 */
export function partnerPriceCents(
  plan: { retailCents: number; wholesaleCents: number },
  rule: PriceRule | null | undefined,
): number {
  if (!rule) return plan.retailCents;
  const priced =
    rule.rule === 'discount'
      ? roundHalfUp(plan.retailCents * (BPS - rule.percentBps), BPS)
      : roundHalfUp(plan.wholesaleCents * (BPS + rule.percentBps), BPS);
  return Math.max(priced, floorPriceCents(plan.wholesaleCents, rule.minMarginBps));
}

/** 12.5 → 1250; null when the percent has more than two decimals or is out of 0..max. */
export function percentToBps(percent: number, maxBps: number): number | null {
  if (!Number.isFinite(percent) || percent < 0) return null;
  const bps = Math.round(percent * 100);
  if (Math.abs(bps - percent * 100) > 1e-6 || bps > maxBps) return null;
  return bps;
}

export const bpsToPercent = (bps: number): number => bps / 100;

/**
 * A short text naming the prices a rule gives (the same for two partners with the same rule):
 * the catalogue's response cache keys its variants with it, so one partner's prices are never
 * served to another, while partners on the same rule share one entry.
 */
export function priceRuleKey(rule: PriceRule | null | undefined): string {
  return rule ? `${rule.rule}:${rule.percentBps}:${rule.minMarginBps}` : 'retail';
}

/** The rule of the stored columns (accounts.price_rule*), or null when unset. */
export function priceRuleOf(columns: {
  priceRule: PriceRuleKind | null;
  priceRuleBps: number | null;
  priceMinMarginBps: number | null;
}): PriceRule | null {
  if (!columns.priceRule || columns.priceRuleBps === null) return null;
  return {
    rule: columns.priceRule,
    percentBps: columns.priceRuleBps,
    minMarginBps: columns.priceMinMarginBps ?? DEFAULT_MIN_MARGIN_BPS,
  };
}
