import type { EsimProvider, ProviderPackage } from '../types.js';
import { esimAccessUnits, type EsimAccessClient } from './client.js';

/** One entry of `obj.packageList` of POST /api/v1/open/package/list (fields we read). */
export interface EsimAccessPackage {
  packageCode: string;
  slug?: string;
  name: string;
  description?: string | null;
  /** Wholesale price × 10 000 USD. */
  price: number;
  currencyCode?: string;
  /** Bytes. */
  volume: number;
  duration: number;
  durationUnit?: string;
  /** One alpha-2 code, or a comma list for multi-country packages. */
  location: string;
  /** Alpha-2 for a country package; `!RG` regional, `!GL` global. */
  locationCode?: string;
  /** 1: validity starts on installation; 2: on the first network connection. */
  activeType?: number;
  /** 1: no top-ups; 2 (and 3, seen in live data): top-ups can be added. */
  supportTopUpType?: number;
}

/** Countries above which a multi-country package is sold as "global" even without `!GL`. */
const GLOBAL_COVERAGE_THRESHOLD = 100;

function durationDays(duration: number, unit: string | undefined): number {
  return (unit ?? 'DAY').toUpperCase().startsWith('MONTH') ? duration * 30 : duration;
}

/** Vendor package → our shape; the region code is the slug prefix (`NA-3_1_7` → `NA`). */
export function toProviderPackage(pkg: EsimAccessPackage, isTopUp: boolean): ProviderPackage {
  const coverage = [
    ...new Set(
      pkg.location
        .split(',')
        .map((c) => c.trim().toUpperCase())
        .filter((c) => /^[A-Z]{2}$/.test(c)),
    ),
  ];
  const locationCode = (pkg.locationCode ?? '').toUpperCase();
  const isGlobal = locationCode === '!GL' || coverage.length > GLOBAL_COVERAGE_THRESHOLD;
  const isRegional = !isGlobal && (coverage.length > 1 || locationCode === '!RG');
  const slugPrefix = pkg.slug?.includes('-') ? pkg.slug.split('-')[0] : undefined;
  return {
    packageCode: pkg.packageCode,
    name: pkg.name,
    description: pkg.description ?? pkg.name,
    coverage,
    scope: isGlobal ? 'global' : isRegional ? 'region' : 'country',
    ...(isGlobal || isRegional ? { regionCode: isGlobal ? 'GLOBAL' : slugPrefix } : {}),
    dataAmountMb: esimAccessUnits.bytesToMb(pkg.volume),
    durationDays: durationDays(pkg.duration, pkg.durationUnit),
    isTopUp,
    wholesaleCents: esimAccessUnits.priceToCents(pkg.price),
    // Absent or unknown activeType: the common case (first connection), which never promises
    // more days than the package gives.
    activationPolicy: pkg.activeType === 1 ? 'first_install' : 'first_connection',
    topUpSupported: !isTopUp && pkg.supportTopUpType !== undefined && pkg.supportTopUpType !== 1,
  };
}

/** package/list → ProviderPackage: base packages, then top-ups (a code listed as both stays base). */
export function createEsimAccessPackages(client: EsimAccessClient): Pick<EsimProvider, 'listPackages'> {
  async function list(type: 'BASE' | 'TOPUP'): Promise<EsimAccessPackage[]> {
    const obj = await client.call<{ packageList?: EsimAccessPackage[] } | null>('package/list', {
      locationCode: '',
      type,
    });
    return obj?.packageList ?? [];
  }
  return {
    async listPackages() {
      const base = await list('BASE');
      const topUps = await list('TOPUP');
      const seen = new Set(base.map((p) => p.packageCode));
      return [
        ...base.map((p) => toProviderPackage(p, false)),
        ...topUps.filter((p) => !seen.has(p.packageCode)).map((p) => toProviderPackage(p, true)),
      ];
    },
  };
}
