import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxListPackages } from '../../../src/providers/esim/sandbox/catalogue.js';
import { EsimProviderError, type EsimProvider } from '../../../src/providers/esim/types.js';
import { ADMIN_TOKEN, buildTestApp, type TestApp } from '../../helpers/app.js';
import { signedInOperator, type SignedInOperator } from '../../helpers/operators.js';

/** Issue 33: "Sync now" in the console's catalogue page, markup per plan, the rates form's data. */
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
const ROOT = '/api/admin/v1';

let t: TestApp;
let catalog: SignedInOperator;
let provider: EsimProvider;
beforeAll(async () => {
  t = await buildTestApp();
  catalog = await signedInOperator(t, 'catalog');
  // The sandbox's list whatever ESIM_PROVIDER is: the counts below are about the sync, not a vendor.
  provider = { ...t.container.providers.esim, listPackages: () => Promise.resolve(sandboxListPackages()) };
  t.container.providers.esim = provider;
}, 120_000);
afterAll(() => t.close());

const syncNow = (headers: Record<string, string> = catalog.headers) =>
  t.app.inject({ method: 'POST', url: `${ROOT}/catalog/sync`, headers });

const failingWith = (error: Error): EsimProvider => ({
  ...provider,
  listPackages: () => Promise.reject(error),
});

describe('POST /catalog/sync', () => {
  it('imports the catalogue, then finds nothing new; each run audited with its counts', async () => {
    const first = await syncNow();
    expect(first.statusCode, first.body).toBe(200);
    const report = first.json().sync;
    expect(report).toMatchObject({ ok: true, error: null, updated: 0, deactivated: 0, unchanged: 0 });
    expect(report.created).toBeGreaterThan(10);
    expect(report.durationMs).toEqual(expect.any(Number));
    expect(report.syncedAt).toBe(t.clock.now().toISOString());

    t.clock.advance(1000);
    const again = (await syncNow()).json().sync;
    expect(again).toMatchObject({ ok: true, created: 0, updated: 0, unchanged: report.created });

    const entries = (await t.app.inject({ url: `${ROOT}/audit?action=catalog.sync`, headers: admin })).json()
      .entries;
    expect(entries).toHaveLength(2);
    expect(entries[1]).toMatchObject({
      actor: `operator:${catalog.id}`,
      actorEmail: catalog.email,
      targetType: 'catalog',
      after: { ok: true, created: report.created, error: null },
    });
  });

  it('answers a provider failure as a result, keeps the catalogue, and hides unknown causes', async () => {
    const plansBefore = (await t.app.inject({ url: `${ROOT}/plans`, headers: admin })).json().plans.length;
    t.clock.advance(1000); // after the successful syncs: the newest audit row below is a failure's
    t.container.providers.esim = failingWith(
      new EsimProviderError('unavailable', 'provider busy (900001)', true),
    );
    try {
      const busy = await syncNow();
      expect(busy.statusCode).toBe(200);
      expect(busy.json().sync).toMatchObject({
        ok: false,
        error: 'provider busy (900001)',
        created: 0,
        updated: 0,
        deactivated: 0,
      });
      t.container.providers.esim = failingWith(new Error('connect ECONNREFUSED postgres://svc:hunter2@db'));
      const odd = (await syncNow()).json().sync;
      expect(odd.ok).toBe(false);
      expect(odd.error).toBe('catalog sync failed; the service log has the cause');
      t.container.providers.esim = { ...provider, listPackages: () => Promise.resolve([]) };
      const empty = (await syncNow()).json().sync;
      expect(empty.error).toBe('provider listed no packages; keeping the current catalog');
    } finally {
      t.container.providers.esim = provider;
    }
    const plansAfter = (await t.app.inject({ url: `${ROOT}/plans`, headers: admin })).json().plans;
    expect(plansAfter).toHaveLength(plansBefore);
    expect(plansAfter.every((p: { active: boolean }) => p.active)).toBe(true);
    const [latest] = (await t.app.inject({ url: `${ROOT}/audit?action=catalog.`, headers: admin })).json()
      .entries;
    expect(latest.after).toMatchObject({ ok: false });
    expect(JSON.stringify(latest)).not.toContain('hunter2');
  });

  it('is refused to Support, Finance and Read-only (403)', async () => {
    for (const role of ['support', 'finance', 'readonly'] as const) {
      const res = await syncNow((await signedInOperator(t, role)).headers);
      expect(res.statusCode, role).toBe(403);
      expect(res.json().error.code).toBe('ROLE_FORBIDDEN');
    }
  });
});

describe('the catalogue page’s data', () => {
  it('lists wholesale, retail and markup; an override changes the markup', async () => {
    const [plan] = (
      await t.app.inject({ url: `${ROOT}/plans?destination=TR&limit=1`, headers: admin })
    ).json().plans;
    expect(plan.markupPercent).toBeCloseTo(
      ((plan.priceUsd - plan.wholesaleUsd) / plan.wholesaleUsd) * 100,
      0,
    );
    const override = Math.round(plan.wholesaleUsd * 200) / 100; // twice the wholesale price
    const res = await t.app.inject({
      method: 'PATCH',
      url: `${ROOT}/plans/${plan.id}`,
      headers: catalog.headers,
      payload: { priceUsd: override },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().plan.markupPercent).toBeCloseTo(100, 0);
  });

  it('GET /exchange-rates answers the rates in force and when each was set', async () => {
    const seeded = (await t.app.inject({ url: `${ROOT}/exchange-rates`, headers: catalog.headers })).json();
    expect(seeded.rates.USD).toBe('1');
    t.clock.advance(1000);
    await t.app.inject({
      method: 'PUT',
      url: `${ROOT}/exchange-rates`,
      headers: catalog.headers,
      payload: { EUR: '0.9', GBP: '0.8', TRY: '35' },
    });
    const set = (await t.app.inject({ url: `${ROOT}/exchange-rates`, headers: admin })).json();
    expect(set).toEqual({
      rates: { USD: '1', EUR: '0.9', GBP: '0.8', TRY: '35' },
      updatedAt: {
        EUR: t.clock.now().toISOString(),
        GBP: t.clock.now().toISOString(),
        TRY: t.clock.now().toISOString(),
      },
    });
  });
});
