import { COUNTRIES, GLOBAL_REGION, REGIONS } from '../../../lib/geo/index.js';
import type { ProviderPackage } from '../types.js';

/**
 * Deterministic sandbox catalogue (no randomness, no clock): every country the catalog knows
 * gets a five-step ladder, countries with busy tourist traffic also get top-ups, and every
 * region gets three plans. Wholesale prices are in cents, like a real provider's after adapter
 * conversion, and depend only on the country code so repeated syncs change nothing.
 */

/** Countries a wholesale provider typically does not serve (sanctions, no operators). */
const NOT_SOLD = new Set(['AQ', 'BV', 'HM', 'TF', 'UM', 'IR', 'KP', 'SY', 'CU', 'PN', 'GS', 'IO']);

/** Countries that also sell top-up packages (and the usual "popular" picks of a store). */
export const SANDBOX_TOP_UP_COUNTRIES = [
  'TR',
  'US',
  'GB',
  'DE',
  'FR',
  'IT',
  'ES',
  'GR',
  'NL',
  'AE',
  'JP',
  'TH',
];

const LADDER: Array<{ gb: number; days: number }> = [
  { gb: 1, days: 7 },
  { gb: 3, days: 15 },
  { gb: 5, days: 30 },
  { gb: 10, days: 30 },
  { gb: 20, days: 30 },
];

/** Cents per GB by continent, so Europe is cheap and remote places cost more, as in real life. */
const CENTS_PER_GB: Record<string, number> = {
  Europe: 90,
  'North America': 110,
  Asia: 130,
  Oceania: 180,
  'South America': 220,
  Africa: 260,
  Antarctica: 900,
};

/** 0..4 derived from the code: spreads prices within a continent deterministically. */
function spread(code: string): number {
  return (code.charCodeAt(0) * 7 + code.charCodeAt(1) * 3) % 5;
}

/** Larger bundles are cheaper per GB, with a fixed per-profile cost on top. */
function wholesaleCents(centsPerGb: number, gb: number, days: number): number {
  const volumeDiscount = gb >= 10 ? 0.7 : gb >= 5 ? 0.85 : 1;
  return Math.round(40 + centsPerGb * gb * volumeDiscount + days * 2);
}

function countryPackages(code: string, continent: string, englishName: string): ProviderPackage[] {
  const perGb = (CENTS_PER_GB[continent] ?? 200) + spread(code) * 10;
  const base = LADDER.map(({ gb, days }) => ({
    packageCode: `SBX-${code}-${gb}GB-${days}D`,
    name: `${englishName} ${gb}GB ${days}Days`,
    description: `${gb} GB of data in ${englishName}, valid ${days} days from first connection`,
    coverage: [code],
    scope: 'country' as const,
    dataAmountMb: gb * 1024,
    durationDays: days,
    isTopUp: false,
    wholesaleCents: wholesaleCents(perGb, gb, days),
    activationPolicy: 'first_connection' as const,
    topUpSupported: SANDBOX_TOP_UP_COUNTRIES.includes(code),
  }));
  if (!SANDBOX_TOP_UP_COUNTRIES.includes(code)) return base;
  const topUps = [1, 5].map((gb) => ({
    ...base.find((p) => p.dataAmountMb === gb * 1024)!,
    packageCode: `SBX-${code}-${gb}GB-TOPUP`,
    name: `${englishName} ${gb}GB Top-up`,
    description: `${gb} GB added to an existing ${englishName} eSIM`,
    isTopUp: true,
    topUpSupported: false,
  }));
  return [...base, ...topUps];
}

function regionPackages(): ProviderPackage[] {
  return REGIONS.flatMap((region) => {
    const isGlobal = region.code === GLOBAL_REGION;
    const coverage = region.countries.filter((c) => !NOT_SOLD.has(c));
    const perGb = isGlobal ? 350 : 150 + Math.min(coverage.length, 50);
    const ladder = isGlobal ? [1, 3, 10] : [1, 5, 10];
    return ladder.map((gb) => {
      const days = gb === 1 ? 7 : 30;
      return {
        packageCode: `SBX-${region.code}-${gb}GB-${days}D`,
        name: `${region.name.en} ${gb}GB ${days}Days`,
        description: `${gb} GB across ${coverage.length} countries, valid ${days} days from ${isGlobal ? 'installation' : 'first connection'}`,
        coverage,
        scope: isGlobal ? ('global' as const) : ('region' as const),
        regionCode: region.code,
        dataAmountMb: gb * 1024,
        durationDays: days,
        isTopUp: false,
        wholesaleCents: wholesaleCents(perGb, gb, days),
        // Global plans count from installation, as some wholesalers' multi-country packages do,
        // so the sandbox shows both policies.
        activationPolicy: isGlobal ? ('first_install' as const) : ('first_connection' as const),
        topUpSupported: false,
      };
    });
  });
}

let cached: ProviderPackage[] | undefined;

export function sandboxListPackages(): ProviderPackage[] {
  cached ??= [
    ...[...COUNTRIES.values()]
      .filter((c) => !NOT_SOLD.has(c.code))
      .flatMap((c) => countryPackages(c.code, c.continent, c.name.en)),
    ...regionPackages(),
  ];
  return cached.map((p) => ({ ...p, coverage: [...p.coverage] }));
}
