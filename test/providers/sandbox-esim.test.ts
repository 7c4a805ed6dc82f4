import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '../../src/db/schema/index.js';
import { DAY } from '../../src/lib/clock.js';
import { createSandboxEsimProvider } from '../../src/providers/esim/sandbox/index.js';
import { sandboxListPackages } from '../../src/providers/esim/sandbox/catalogue.js';
import { createSandboxEsimControls } from '../../src/providers/esim/sandbox/controls.js';
import { luhnCheckDigit, SANDBOX_SMDP_ADDRESS } from '../../src/providers/esim/sandbox/profiles.js';
import { EsimProviderError } from '../../src/providers/esim/types.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
const provider = () => createSandboxEsimProvider({ db: t.container.db, clock: t.clock, latencyMs: 0 });
const controls = () => createSandboxEsimControls({ db: t.container.db, clock: t.clock });
const base = sandboxListPackages().find((p) => !p.isTopUp && p.coverage[0] === 'TR')!;
const topUp = sandboxListPackages().find((p) => p.isTopUp)!;

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

async function providerError(promise: Promise<unknown>): Promise<EsimProviderError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(EsimProviderError);
  return error as EsimProviderError;
}

describe('sandbox eSIM provider', () => {
  it('issues realistic profiles: 20-digit 89… ICCID with a valid Luhn digit, LPA string', async () => {
    const issued = await provider().issueProfiles({
      orderId: 'ord_sbx1',
      packageCode: base.packageCode,
      quantity: 3,
    });
    expect(issued).toHaveLength(3);
    for (const p of issued) {
      expect(p.iccid).toMatch(/^89\d{18}$/);
      expect(Number(p.iccid.at(-1))).toBe(luhnCheckDigit(p.iccid.slice(0, -1)));
      expect(p.smdpAddress).toBe(SANDBOX_SMDP_ADDRESS);
      expect(p.matchingId).toMatch(/^[0-9A-F]{32}$/);
      expect(p.activationCode).toBe(`LPA:1$${SANDBOX_SMDP_ADDRESS}$${p.matchingId}`);
      expect(p).toMatchObject({ status: 'PENDING', totalVolumeMb: base.dataAmountMb, dataUsageMb: 0 });
    }
    expect(new Set(issued.map((p) => p.providerRef)).size).toBe(3);
    expect(luhnCheckDigit('7992739871')).toBe(3);
  });

  it('is idempotent on the order id, also for parallel calls', async () => {
    const calls = await Promise.all(
      [1, 2, 3].map(() =>
        provider().issueProfiles({ orderId: 'ord_sbx2', packageCode: base.packageCode, quantity: 2 }),
      ),
    );
    const refs = calls.map((c) =>
      c
        .map((p) => p.providerRef)
        .sort()
        .join(),
    );
    expect(new Set(refs).size).toBe(1);
    expect(await provider().queryProfiles({ orderId: 'ord_sbx2' })).toHaveLength(2);
  });

  it('rejects unknown package codes like a real provider', async () => {
    const error = await providerError(
      provider().issueProfiles({ orderId: 'ord_sbx3', packageCode: 'NOPE', quantity: 1 }),
    );
    expect(error).toMatchObject({ kind: 'unknown_package', retryable: false });
  });

  it('fails the next n issue calls on demand, then works', async () => {
    await controls().setFailNext(2);
    for (const id of ['ord_f1', 'ord_f2']) {
      const error = await providerError(
        provider().issueProfiles({ orderId: id, packageCode: base.packageCode, quantity: 1 }),
      );
      expect(error).toMatchObject({ kind: 'unavailable', retryable: true });
    }
    expect(
      await provider().issueProfiles({ orderId: 'ord_f1', packageCode: base.packageCode, quantity: 1 }),
    ).toHaveLength(1);
  });

  it('sends ORDER_STATUS once per issued order, in the statement that stores the profiles', async () => {
    const notifications = t.container.providerNotifications;
    const sending = () =>
      createSandboxEsimProvider({
        db: t.container.db,
        clock: t.clock,
        latencyMs: 0,
        notify: notifications.sandboxNotify,
        notifyWithin: notifications.sandboxNotifyWithin,
      });
    const sent = async (orderId: string) => {
      const rows = await t.container.db.select().from(jobs).where(eq(jobs.kind, 'sandbox.esim.notify'));
      return rows.flatMap((job) =>
        (job.payload.notifications as Array<{ notifyType: string; content: Record<string, unknown> }>).filter(
          (n) => n.content.transactionId === orderId,
        ),
      );
    };
    await sending().issueProfiles({ orderId: 'ord_ntf1', packageCode: base.packageCode, quantity: 2 });
    expect(await sent('ord_ntf1')).toEqual([
      expect.objectContaining({
        notifyType: 'ORDER_STATUS',
        content: { orderNo: 'ord_ntf1', transactionId: 'ord_ntf1', orderStatus: 'GOT_RESOURCE' },
      }),
    ]);
    // A repeated call returns the same profiles and sends nothing more.
    await sending().issueProfiles({ orderId: 'ord_ntf1', packageCode: base.packageCode, quantity: 2 });
    expect(await sent('ord_ntf1')).toHaveLength(1);
    // A failed call allocates nothing and sends nothing.
    await controls().setFailNext(1);
    await providerError(
      sending().issueProfiles({ orderId: 'ord_ntf2', packageCode: base.packageCode, quantity: 1 }),
    );
    expect(await sent('ord_ntf2')).toHaveLength(0);
  });

  it('usage set by the operator: first use activates, using it all depletes; state survives a new instance', async () => {
    const [p] = await provider().issueProfiles({
      orderId: 'ord_use',
      packageCode: base.packageCode,
      quantity: 1,
    });
    await controls().setUsage(p!.iccid, 100);
    const again = buildTestApp({ shareWith: t });
    const b = await again;
    try {
      const fresh = createSandboxEsimProvider({ db: b.container.db, clock: b.clock, latencyMs: 0 });
      const [usage] = await fresh.queryUsage([p!.providerRef]);
      expect(usage).toEqual({
        providerRef: p!.providerRef,
        dataUsageMb: 100,
        totalVolumeMb: base.dataAmountMb,
        status: 'ACTIVE',
      });
      const [profile] = await fresh.queryProfiles({ providerRef: p!.providerRef });
      expect(profile!.activatedAt!.getTime()).toBe(t.clock.now().getTime());
      expect(profile!.expiresAt!.getTime()).toBe(t.clock.now().getTime() + base.durationDays * DAY);
    } finally {
      await b.app.close();
    }
    await controls().setUsage(p!.iccid, base.dataAmountMb);
    expect((await provider().queryProfiles({ providerRef: p!.providerRef }))[0]!.status).toBe('DEPLETED');
  });

  it('tops up once per order id; cancels only unused profiles; validity runs out', async () => {
    const [p, q] = await provider().issueProfiles({
      orderId: 'ord_tu',
      packageCode: base.packageCode,
      quantity: 2,
    });
    const request = {
      orderId: 'ord_tu_1',
      providerRef: p!.providerRef,
      iccid: p!.iccid,
      packageCode: topUp.packageCode,
    };
    expect((await provider().topUp(request)).totalVolumeMb).toBe(base.dataAmountMb + topUp.dataAmountMb);
    expect((await provider().topUp(request)).totalVolumeMb).toBe(base.dataAmountMb + topUp.dataAmountMb);
    expect(
      await providerError(provider().topUp({ ...request, orderId: 'x', packageCode: base.packageCode })),
    ).toMatchObject({ retryable: false });

    await controls().setUsage(p!.iccid, 1);
    expect(await providerError(provider().cancelProfile(p!.providerRef))).toMatchObject({
      kind: 'not_cancellable',
    });
    expect((await provider().queryProfiles({ providerRef: q!.providerRef }))[0]!.everInstalled).toBe(false);
    await provider().cancelProfile(q!.providerRef);
    expect((await provider().queryProfiles({ providerRef: q!.providerRef }))[0]!.status).toBe('CANCELLED');
    // A repeated cancel of a cancelled profile succeeds (the self-service cancel retries it).
    await provider().cancelProfile(q!.providerRef);
    expect(await providerError(provider().cancelProfile('nope'))).toMatchObject({ kind: 'not_found' });

    t.clock.advance(400 * DAY);
    expect((await provider().queryProfiles({ providerRef: p!.providerRef }))[0]!.status).toBe('EXPIRED');
  });

  it('an installed profile, unused, reports everInstalled and cannot be cancelled', async () => {
    const [p] = await provider().issueProfiles({
      orderId: 'ord_inst',
      packageCode: base.packageCode,
      quantity: 1,
    });
    expect((await controls().setInstallState(p!.iccid, 'INSTALLED'))?.everInstalled).toBe(true);
    const [after] = await provider().queryProfiles({ providerRef: p!.providerRef });
    expect(after).toMatchObject({ status: 'PENDING', dataUsageMb: 0, everInstalled: true });
    expect(await providerError(provider().cancelProfile(p!.providerRef))).toMatchObject({
      kind: 'not_cancellable',
    });
    expect(await controls().setInstallState('0000000000', 'INSTALLED')).toBeNull();
  });
});
