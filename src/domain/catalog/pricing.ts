/**
 * Retail pricing: wholesale × (1 + markup%), then rounded UP to the next price ending in .49 or
 * .99 (4.05 → 4.49, 4.60 → 4.99). Rounding up keeps the markup a floor, never a ceiling; two
 * endings per dollar keep the added amount under 50 cents. Integer cents only.
 */
export function retailPriceCents(wholesaleCents: number, markupPercent: number): number {
  if (!Number.isSafeInteger(wholesaleCents) || wholesaleCents < 0) {
    throw new RangeError('wholesaleCents must be a non-negative integer');
  }
  if (!Number.isInteger(markupPercent) || markupPercent < 0) {
    throw new RangeError('markupPercent must be a non-negative integer');
  }
  const marked = Math.ceil((wholesaleCents * (100 + markupPercent)) / 100);
  return Math.floor(marked / 50) * 50 + 49;
}
