import { eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { catalogState, plans } from '../../db/schema/index.js';
import type { ProviderPackage } from '../../providers/esim/types.js';
import { COUNTRIES } from './countries.js';
import { retailPriceCents } from './pricing.js';
import { GLOBAL_REGION, regionForCoverage } from './regions.js';

export type PlanInsert = typeof plans.$inferInsert;

export interface SyncResult {
  created: number;
  updated: number;
  deactivated: number;
  unchanged: number;
  /** Packages for countries we cannot name (unknown ISO code), left out of the catalog. */
  skipped: number;
}

/** Stable, readable plan id: survives every sync because it is derived from the package code. */
export function planIdFor(packageCode: string): string {
  return `plan_${packageCode.toLowerCase()}`;
}

/** Provider package → the plan columns a sync owns (never the operator's override or switch). */
export function toPlanRow(
  pkg: ProviderPackage,
  provider: string,
  markupPercent: number,
): Omit<PlanInsert, 'createdAt' | 'updatedAt'> | null {
  const coverage = pkg.coverage.map((c) => c.toUpperCase()).filter((c) => COUNTRIES.has(c));
  if (coverage.length === 0) return null;
  const destinationCode =
    pkg.scope === 'country'
      ? coverage[0]!
      : pkg.scope === 'global'
        ? GLOBAL_REGION
        : regionForCoverage(pkg.regionCode, coverage).code;
  return {
    id: planIdFor(pkg.packageCode),
    provider,
    providerPackageCode: pkg.packageCode,
    title: pkg.name,
    description: pkg.description,
    scope: pkg.scope,
    destinationCode,
    coverage: pkg.scope === 'country' ? [coverage[0]!] : coverage.sort(),
    dataAmountMb: pkg.dataAmountMb,
    durationDays: pkg.durationDays,
    isTopUp: pkg.isTopUp,
    wholesaleCents: pkg.wholesaleCents,
    priceCents: retailPriceCents(pkg.wholesaleCents, markupPercent),
    activationPolicy: pkg.activationPolicy,
    topUpSupported: pkg.topUpSupported,
    active: true,
  };
}

const COMPARED = [
  'provider',
  'title',
  'description',
  'scope',
  'destinationCode',
  'dataAmountMb',
  'durationDays',
  'isTopUp',
  'wholesaleCents',
  'priceCents',
  'activationPolicy',
  'topUpSupported',
  'active',
] as const;

function differs(existing: typeof plans.$inferSelect, next: Omit<PlanInsert, 'createdAt' | 'updatedAt'>) {
  return COMPARED.some((k) => existing[k] !== next[k]) || existing.coverage.join() !== next.coverage.join();
}

/** Channel of catalog version notifications (payload: the new version). */
export const CATALOG_CHANNEL = 'esim_catalog';

/**
 * Bumps the catalog version in `tx` and notifies (`pg_notify`, delivered at commit) every
 * instance listening, so their response caches rebuild; returns the new version, which the
 * caller publishes in-process after commit.
 */
export async function bumpCatalogVersion(tx: Tx, now: Date): Promise<number> {
  const [row] = await tx
    .insert(catalogState)
    .values({ id: 'catalog', version: 1, updatedAt: now })
    .onConflictDoUpdate({
      target: catalogState.id,
      set: { version: sql`${catalogState.version} + 1`, updatedAt: now },
    })
    .returning({ version: catalogState.version });
  await tx.execute(sql`select pg_notify(${CATALOG_CHANNEL}, ${String(row!.version)})`);
  return row!.version;
}

const UPSERT_CHUNK = 250;

/**
 * Writes one provider list in `tx`: new and changed plans are upserted by package code, plans
 * the provider no longer lists become inactive (never deleted: orders reference them).
 */
export async function applyPackages(
  tx: Tx,
  rows: Array<Omit<PlanInsert, 'createdAt' | 'updatedAt'>>,
  now: Date,
  onBumped?: (version: number) => void,
): Promise<Omit<SyncResult, 'skipped'>> {
  const existing = new Map((await tx.select().from(plans)).map((p) => [p.providerPackageCode, p]));
  const changed = rows.filter((r) => {
    const current = existing.get(r.providerPackageCode);
    return !current || differs(current, r);
  });
  const offered = new Set(rows.map((r) => r.providerPackageCode));
  const gone = [...existing.values()].filter((p) => p.active && !offered.has(p.providerPackageCode));

  changed.sort((a, b) => a.providerPackageCode.localeCompare(b.providerPackageCode));
  for (let i = 0; i < changed.length; i += UPSERT_CHUNK) {
    const chunk = changed.slice(i, i + UPSERT_CHUNK).map((r) => ({ ...r, createdAt: now, updatedAt: now }));
    await tx
      .insert(plans)
      .values(chunk.map((r) => ({ ...r, lastSyncedAt: now })))
      .onConflictDoUpdate({
        target: plans.providerPackageCode,
        set: {
          ...Object.fromEntries(
            [...COMPARED, 'coverage' as const].map((k) => [k, sql.raw(`excluded.${plans[k].name}`)]),
          ),
          updatedAt: now,
          lastSyncedAt: now,
        },
      });
  }
  if (gone.length > 0) {
    await tx
      .update(plans)
      .set({ active: false, updatedAt: now })
      .where(
        inArray(
          plans.id,
          gone.map((p) => p.id),
        ),
      );
  }
  // One statement instead of touching every unchanged row: "seen by the last sync" for operators.
  await tx.update(plans).set({ lastSyncedAt: now }).where(eq(plans.active, true));
  const created = changed.filter((r) => !existing.has(r.providerPackageCode)).length;
  if (changed.length > 0 || gone.length > 0) onBumped?.(await bumpCatalogVersion(tx, now));
  return {
    created,
    updated: changed.length - created,
    deactivated: gone.length,
    unchanged: rows.length - changed.length,
  };
}
