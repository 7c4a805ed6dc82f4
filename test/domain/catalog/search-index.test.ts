import { describe, expect, test, vi } from 'vitest';
import type { CatalogSnapshot } from '../../../src/domain/catalog/catalog.service.js';
import type * as DestinationsModule from '../../../src/domain/catalog/destinations.js';
import { normalizeSearchText } from '../../../src/domain/catalog/search.js';

/**
 * The country search index is built once per process (every name in ~85 languages), after the
 * server listens and a few countries per turn of the event loop (src/main.ts → warmUp). Each test
 * loads the module afresh, so each starts without an index.
 */
type Destinations = typeof DestinationsModule;
async function freshModule(): Promise<Destinations> {
  vi.resetModules();
  return import('../../../src/domain/catalog/destinations.js');
}

const snapshot = {
  version: 1,
  rates: {},
  plans: ['DE', 'GB', 'JP', 'TR', 'US'].map((destinationCode) => ({
    destinationCode,
    isTopUp: false,
    effectivePriceCents: 500,
  })),
} as unknown as CatalogSnapshot;

function found(destinations: Destinations, search: string): string[] {
  return destinations
    .mobileDestinationList(snapshot, { search: normalizeSearchText(search), locale: 'en', currency: 'USD' })
    .countries.map((c) => c.code);
}

describe('country search index', () => {
  test('warming yields to the event loop between batches, so requests are served meanwhile', async () => {
    const destinations = await freshModule();
    let servedMeanwhile = 0;
    const warming = destinations.warmSearchIndex();
    const serve = () => {
      servedMeanwhile += 1;
      if (servedMeanwhile < 5) setImmediate(serve);
    };
    setImmediate(serve);
    await warming;
    expect(servedMeanwhile).toBeGreaterThanOrEqual(5);
    expect(found(destinations, 'Almanya')).toEqual(['DE']);
  });

  test('a search before the warm-up has finished completes the index and finds every country', async () => {
    const destinations = await freshModule();
    const warming = destinations.warmSearchIndex();
    // Synchronously, while only the first batch is indexed: names in other languages and aliases.
    expect(found(destinations, 'Türkei')).toEqual(['TR']);
    expect(found(destinations, 'England')).toEqual(['GB']);
    expect(found(destinations, '日本')).toEqual(['JP']);
    expect(found(destinations, 'ABD')).toEqual(['US']);
    await warming;
    expect(found(destinations, 'Turquía')).toEqual(['TR']);
  });

  test('without a warm-up the first search builds the index', async () => {
    const destinations = await freshModule();
    expect(found(destinations, 'Deutschland')).toEqual(['DE']);
    expect(found(destinations, 'United')).toEqual(['GB', 'US']);
  });
});
