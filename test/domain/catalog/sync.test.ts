import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { jobs, plans } from '../../../src/db/schema/index.js';
import { retailPriceCents } from '../../../src/domain/catalog/pricing.js';
import type { ProviderPackage } from '../../../src/providers/esim/types.js';
import { sandboxListPackages } from '../../../src/providers/esim/sandbox/catalogue.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';

let t: TestApp;
let offered: ProviderPackage[];

const plan = async (id: string) => (await t.container.db.select().from(plans).where(eq(plans.id, id)))[0]!;

beforeAll(async () => {
  offered = sandboxListPackages();
  t = await buildTestApp({
    env: { PRICE_MARKUP_PERCENT: '50', CATALOG_SYNC_MINUTES: '60' },
    configure: (container) => {
      container.providers.esim.listPackages = async () => offered.map((p) => ({ ...p }));
    },
  });
}, 120_000);
afterAll(() => t.close());

describe('catalog sync', () => {
  test('start-up imports every package with retail = wholesale × markup and schedules the next sync', async () => {
    await t.container.startup();
    const rows = await t.container.db.select().from(plans);
    expect(rows).toHaveLength(offered.length);
    const tr = await plan('plan_sbx-tr-1gb-7d');
    expect(tr).toMatchObject({ scope: 'country', destinationCode: 'TR', coverage: ['TR'], active: true });
    expect(tr.priceCents).toBe(retailPriceCents(tr.wholesaleCents, 50));
    const europe = await plan('plan_sbx-europe-5gb-30d');
    expect(europe).toMatchObject({ scope: 'region', destinationCode: 'EUROPE' });
    expect(europe.coverage).toContain('DE');
    expect((await plan('plan_sbx-global-1gb-7d')).scope).toBe('global');
    expect((await plan('plan_sbx-tr-1gb-topup')).isTopUp).toBe(true);

    const scheduled = await t.container.db.select().from(jobs).where(eq(jobs.kind, 'catalog.sync'));
    expect(scheduled).toHaveLength(1);
    expect(scheduled[0]!.runAt.getTime() % 3_600_000).toBe(0);
    expect(scheduled[0]!.runAt.getTime()).toBeGreaterThan(t.clock.now().getTime());
  });

  test('a second sync with the same list changes nothing and keeps the version', async () => {
    const version = await t.container.catalog.version();
    const result = await t.container.catalog.sync();
    expect(result).toMatchObject({ created: 0, updated: 0, deactivated: 0, unchanged: offered.length });
    expect(await t.container.catalog.version()).toBe(version);
  });

  test('price changes, disappearing packages deactivate, overrides and operator switches survive', async () => {
    await t.container.catalog.updatePlan('plan_sbx-de-1gb-7d', { priceOverrideCents: 777 });
    await t.container.catalog.updatePlan('plan_sbx-fr-1gb-7d', { active: false });
    const version = await t.container.catalog.version();
    offered = sandboxListPackages()
      .filter((p) => p.packageCode !== 'SBX-IT-1GB-7D')
      .map((p) =>
        p.packageCode.startsWith('SBX-DE-') ? { ...p, wholesaleCents: p.wholesaleCents + 100 } : p,
      );

    const result = await t.container.catalog.sync();
    expect(result).toMatchObject({ created: 0, deactivated: 1 });
    expect(result.updated).toBe(offered.filter((p) => p.packageCode.startsWith('SBX-DE-')).length);
    expect(await t.container.catalog.version()).toBeGreaterThan(version);

    const it = await plan('plan_sbx-it-1gb-7d');
    expect(it.active).toBe(false); // kept, not deleted
    expect(await t.container.catalog.findActivePlan(t.container.db, it.id)).toBeNull();

    const de = await plan('plan_sbx-de-1gb-7d');
    expect(de.priceCents).toBe(retailPriceCents(de.wholesaleCents, 50));
    expect(de.priceOverrideCents).toBe(777);
    expect((await t.container.catalog.findActivePlan(t.container.db, de.id))!.effectivePriceCents).toBe(777);

    const fr = await plan('plan_sbx-fr-1gb-7d');
    expect([fr.active, fr.enabledByOperator]).toEqual([true, false]);
    expect(await t.container.catalog.findActivePlan(t.container.db, fr.id)).toBeNull();
  });

  test('a package offered again is reactivated under the same id', async () => {
    offered = sandboxListPackages();
    const result = await t.container.catalog.sync();
    expect(result.created).toBe(0);
    expect((await plan('plan_sbx-it-1gb-7d')).active).toBe(true);
  });

  test('an empty provider list keeps the catalog', async () => {
    offered = [];
    await expect(t.container.catalog.sync()).rejects.toThrow(/no packages/);
    expect((await plan('plan_sbx-tr-1gb-7d')).active).toBe(true);
    offered = sandboxListPackages();
  });

  test('the periodic job syncs and schedules the following slot', async () => {
    const [job] = await t.container.db.select().from(jobs).where(eq(jobs.kind, 'catalog.sync'));
    offered = sandboxListPackages().filter((p) => p.packageCode !== 'SBX-ES-1GB-7D');
    t.clock.set(job!.runAt);
    await t.container.worker.runDue();
    expect((await t.container.db.select().from(jobs).where(eq(jobs.id, job!.id)))[0]!.status).toBe('done');
    expect((await plan('plan_sbx-es-1gb-7d')).active).toBe(false);
    const all = await t.container.db.select().from(jobs).where(eq(jobs.kind, 'catalog.sync'));
    const pending = all.filter((j) => j.status === 'pending');
    expect(pending).toHaveLength(1);
    expect(pending[0]!.runAt.getTime()).toBe(job!.runAt.getTime() + 3_600_000);
    // A second instance starting in the same slot does not add a duplicate job.
    await t.container.catalog.scheduleNextSync();
    expect(
      (await t.container.db.select().from(jobs).where(eq(jobs.status, 'pending'))).filter(
        (j) => j.kind === 'catalog.sync',
      ),
    ).toHaveLength(1);
  });
});
