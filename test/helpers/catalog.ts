import { and, asc, eq } from 'drizzle-orm';
import type { Container } from '../../src/container.js';
import { plans } from '../../src/db/schema/index.js';
import { applyPackages, toPlanRow, type SyncResult } from '../../src/domain/catalog/catalog-sync.js';
import type { SellablePlan } from '../../src/domain/catalog/catalog.service.js';
import { effectivePriceCents } from '../../src/domain/catalog/catalog.service.js';
import { sandboxListPackages } from '../../src/providers/esim/sandbox/catalogue.js';

/**
 * Imports the sandbox provider's catalogue (whatever ESIM_PROVIDER is): the real sync when the
 * sandbox is the provider; otherwise the sync's own steps (toPlanRow, applyPackages) over the
 * sandbox's list, without touching the container's provider.
 */
export async function importCatalog(container: Container): Promise<SyncResult> {
  if (container.providers.esim.name === 'sandbox') return container.catalog.sync();
  const packages = sandboxListPackages();
  const rows = packages.flatMap((p) => toPlanRow(p, 'sandbox', container.config.catalog.markupPercent) ?? []);
  const counts = await container.db.transaction((tx) => applyPackages(tx, rows, container.clock.now()));
  return { ...counts, skipped: packages.length - rows.length };
}

/**
 * A synced, sellable plan: the smallest of `destination` (default TR), a top-up one when
 * `isTopUp`. Imports the catalogue first when no plan exists yet.
 */
export async function pickPlan(
  container: Container,
  options: { destination?: string; isTopUp?: boolean } = {},
): Promise<SellablePlan> {
  const destination = (options.destination ?? 'TR').toUpperCase();
  const find = () =>
    container.db
      .select()
      .from(plans)
      .where(
        and(
          eq(plans.destinationCode, destination),
          eq(plans.isTopUp, options.isTopUp ?? false),
          eq(plans.active, true),
          eq(plans.enabledByOperator, true),
        ),
      )
      .orderBy(asc(plans.dataAmountMb), asc(plans.durationDays))
      .limit(1);
  let [plan] = await find();
  if (!plan) {
    await importCatalog(container);
    [plan] = await find();
  }
  if (!plan) throw new Error(`no sellable plan for ${destination} (isTopUp ${options.isTopUp ?? false})`);
  return { ...plan, effectivePriceCents: effectivePriceCents(plan) };
}
