import type { DestinationDetail, DestinationList, ExchangeRate } from '../api/types';

/** `GET /api/v1/destinations/{code}`'s answer, as the server rendered it (USD: no rate). */
type DetailAnswer = { destination: DestinationDetail; exchangeRate: ExchangeRate | null };

/**
 * The data a server-rendered page (`/`, `/destinations/:code`) was rendered from, in the page's
 * `<script type="application/json" id="ssr-data">` (src/http/storefront/pages.ts). The pages'
 * queries start from it, so the app's first render shows what the server sent instead of a
 * loading state: nothing moves while the visitor's own prices are fetched.
 */
type Seed =
  | { page: 'storefront'; language: string; filter: string; data: DestinationList }
  | { page: 'destination'; language: string; code: string; data: DetailAnswer };

let seed: Seed | null | undefined;

function readSeed(): Seed | null {
  if (seed === undefined) {
    try {
      const text = document.getElementById('ssr-data')?.textContent;
      seed = text ? (JSON.parse(text) as Seed) : null;
    } catch {
      seed = null;
    }
  }
  return seed;
}

/** The storefront's list the server rendered for this tab and language, if it did. */
export function storefrontSeed(filter: string, language: string): DestinationList | undefined {
  const s = readSeed();
  return s?.page === 'storefront' && s.filter === filter && s.language === language ? s.data : undefined;
}

/** The destination the server rendered, if it is this one in this language. */
export function destinationSeed(code: string, language: string): DetailAnswer | undefined {
  const s = readSeed();
  return s?.page === 'destination' && s.code === code.toUpperCase() && s.language === language
    ? s.data
    : undefined;
}
