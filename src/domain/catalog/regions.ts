import { findRegion, GLOBAL_REGION, REGIONS, type RegionInfo } from '../../lib/geo/regions.js';

/** Region data lives in src/lib/geo (shared with the sandbox provider's catalogue); the catalog's rules are here. */
export { findRegion, GLOBAL_REGION, REGIONS, type RegionInfo };

/**
 * Our region for a provider's multi-country package: a known code wins, otherwise the region
 * whose members overlap the package's coverage best (Jaccard), so vendor codes need no table.
 */
export function regionForCoverage(providerRegionCode: string | undefined, coverage: string[]): RegionInfo {
  const known = providerRegionCode ? findRegion(providerRegionCode) : undefined;
  if (known) return known;
  const covered = new Set(coverage);
  let best = findRegion(GLOBAL_REGION)!;
  let bestScore = -1;
  for (const region of REGIONS) {
    const shared = region.countries.filter((c) => covered.has(c)).length;
    const score = shared / (region.countries.length + covered.size - shared);
    if (score > bestScore) [best, bestScore] = [region, score];
  }
  return best;
}
