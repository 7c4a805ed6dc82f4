/** The catalog: the price markup over the provider's cost and how often it is synced. */

import { int, type Env } from './parse.js';

export interface CatalogConfig {
  catalog: { markupPercent: number; syncIntervalMinutes: number };
}

export function catalogConfig(env: Env): CatalogConfig {
  return {
    catalog: {
      markupPercent: int(env, 'PRICE_MARKUP_PERCENT', 35, 0, 1000),
      syncIntervalMinutes: int(env, 'CATALOG_SYNC_MINUTES', 360, 0, 10_080),
    },
  };
}
