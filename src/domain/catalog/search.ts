/**
 * Search normalisation: accents and case never matter, and the four Turkish i's (I ı İ i) are one
 * letter, so "istanbul", "İSTANBUL" and "ıstanbul" find the same thing in any locale.
 */
export function normalizeSearchText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/ı/g, 'i')
    .replace(/ß/g, 'ss')
    .replace(/[\s\-_'’.,()]+/g, ' ')
    .trim();
}

export const MAX_SEARCH_LENGTH = 100;

/**
 * A destination's precomputed search key: its code and every name, normalised and joined by a
 * separator no query can contain, so one `includes` per destination answers a query.
 */
export function buildSearchKey(code: string, names: Iterable<string>): { code: string; text: string } {
  const parts = new Set<string>();
  for (const name of names) parts.add(normalizeSearchText(name));
  return { code: code.toLowerCase(), text: [...parts].join('\u0000') };
}

/** `query` must already be normalised (and non-empty). Codes match exactly, names as substrings. */
export function matchesSearch(key: { code: string; text: string }, query: string): boolean {
  return key.code === query || key.text.includes(query);
}
