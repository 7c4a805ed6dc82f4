import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { esims, orders } from '../../src/db/schema/index.js';
import { createEsimAccessClient } from '../../src/providers/esim/esimaccess/client.js';
import { createEsimAccessProvider } from '../../src/providers/esim/esimaccess/index.js';
import {
  createEsimAccessProfiles,
  mapEsimAccessStatus,
  toProviderProfile,
} from '../../src/providers/esim/esimaccess/profiles.js';
import { EsimProviderError } from '../../src/providers/esim/types.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { createPlan, createUser } from '../helpers/factories.js';
import { GB, startFakeEsimAccess } from '../helpers/fake-esimaccess-profiles.js';
import { expectLedgerInvariant } from '../helpers/ledger.js';

const credentials = { accessCode: 'ACCESS-1', secretKey: 'secret-key-1' };
const packages = {
  CKH002: { price: 18_000, volume: 3 * GB, duration: 30 },
  TOPUP_CKH002: { price: 9_000, volume: GB, duration: 30 },
};

let fake: Awaited<ReturnType<typeof startFakeEsimAccess>>;
beforeAll(async () => {
  fake = await startFakeEsimAccess({ ...credentials, balance: 1_000_000, packages });
});
afterAll(() => fake.close());

function profiles(allocationWaitMs = 2000, secretKey = credentials.secretKey) {
  const client = createEsimAccessClient({ ...credentials, secretKey, baseUrl: fake.baseUrl });
  return createEsimAccessProfiles(client, { allocationWaitMs, pollIntervalMs: 20 });
}

async function expectProviderError(promise: Promise<unknown>, kind: string, code?: string) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(EsimProviderError);
  expect((error as EsimProviderError).kind).toBe(kind);
  if (code) expect((error as EsimProviderError).providerCode).toBe(code);
  return error as EsimProviderError;
}

describe('eSIM Access adapter: profiles', () => {
  it('orders with transactionId = our order id, waits out 200010, maps units and the LPA', async () => {
    fake.state.allocationPolls = 3;
    const p = profiles();
    const issued = await p.issueProfiles({
      orderId: 'ord_a1',
      packageCode: 'CKH002',
      quantity: 2,
      wholesaleCents: 180,
    });
    fake.state.allocationPolls = 0;
    expect(issued).toHaveLength(2);
    const [first] = issued;
    expect(first).toMatchObject({
      status: 'PENDING',
      totalVolumeMb: 3072,
      dataUsageMb: 0,
      activatedAt: null,
    });
    expect(first!.smdpAddress).toBe('rsp-eu.simlessly.com');
    expect(first!.activationCode).toBe(`LPA:1$${first!.smdpAddress}$${first!.matchingId}`);
    expect(first!.expiresAt).toBeInstanceOf(Date);
    const orderCall = fake.state.requests.find((r) => r.path.endsWith('/esim/order'))!;
    expect(orderCall.body).toMatchObject({
      transactionId: 'ord_a1',
      amount: 36_000,
      packageInfoList: [{ packageCode: 'CKH002', count: 2, price: 18_000 }],
    });
    const polls = fake.state.requests.filter((r) => r.path.endsWith('/esim/query'));
    expect(polls.length).toBe(4);
  });

  it('is idempotent on the order id: a retry buys nothing more', async () => {
    const p = profiles();
    const before = fake.state.balance;
    const a = await p.issueProfiles({ orderId: 'ord_idem', packageCode: 'CKH002', quantity: 1 });
    const b = await p.issueProfiles({ orderId: 'ord_idem', packageCode: 'CKH002', quantity: 1 });
    expect(b.map((x) => x.providerRef)).toEqual(a.map((x) => x.providerRef));
    expect(fake.state.balance).toBe(before - 18_000);
  });

  it('still allocating after the window → retryable allocation_pending; a later call returns the profiles', async () => {
    fake.state.allocationPolls = 1000;
    const p = profiles(150);
    const error = await expectProviderError(
      p.issueProfiles({ orderId: 'ord_slow', packageCode: 'CKH002', quantity: 1 }),
      'allocation_pending',
      '200010',
    );
    expect(error.retryable).toBe(true);
    const order = fake.state.byTransaction.get('ord_slow')!;
    order.pendingPolls = 0;
    fake.state.allocationPolls = 0;
    expect(await p.issueProfiles({ orderId: 'ord_slow', packageCode: 'CKH002', quantity: 1 })).toHaveLength(
      1,
    );
  });

  it('maps vendor errors: 310241 unknown package, 200007 insufficient balance, bad signature', async () => {
    const p = profiles();
    const unknown = await expectProviderError(
      p.issueProfiles({ orderId: 'ord_x1', packageCode: 'NOPE', quantity: 1 }),
      'unknown_package',
      '310241',
    );
    expect(unknown.retryable).toBe(false);

    const saved = fake.state.balance;
    fake.state.balance = 100;
    const poor = await expectProviderError(
      p.issueProfiles({ orderId: 'ord_x2', packageCode: 'CKH002', quantity: 1 }),
      'insufficient_funds',
      '200007',
    );
    expect(poor.retryable).toBe(true);
    fake.state.balance = saved;

    await expectProviderError(
      profiles(2000, 'wrong-secret').issueProfiles({ orderId: 'ord_x3', packageCode: 'CKH002', quantity: 1 }),
      'rejected',
      '101003',
    );
    expect(fake.state.byTransaction.has('ord_x3')).toBe(false);
  });

  it('queries one profile by esimTranNo, reads usage (bytes → MB) and maps statuses', async () => {
    const p = profiles();
    const [issued] = await p.issueProfiles({ orderId: 'ord_use', packageCode: 'CKH002', quantity: 1 });
    const raw = fake.state.profiles.get(issued!.providerRef)!;
    raw.orderUsage = 512 * 1024 * 1024;
    raw.esimStatus = 'IN_USE';
    raw.activateTime = '2026-03-31T19:29:36+0000';
    raw.smdpStatus = 'ENABLED';
    const [profile] = await p.queryProfiles({ providerRef: issued!.providerRef });
    expect(profile).toMatchObject({ status: 'ACTIVE', dataUsageMb: 512, installState: 'ENABLED' });
    expect(profile!.activatedAt!.toISOString()).toBe('2026-03-31T19:29:36.000Z');
    expect(await p.queryUsage([issued!.providerRef])).toEqual([
      {
        providerRef: issued!.providerRef,
        dataUsageMb: 512,
        totalVolumeMb: 3072,
        // lastUpdateTime, to the second.
        measuredAt: expect.any(Date),
      },
    ]);
    expect(mapEsimAccessStatus('GOT_RESOURCE')).toBe('PENDING');
    expect(mapEsimAccessStatus('USED_UP')).toBe('DEPLETED');
    expect(mapEsimAccessStatus('UNUSED_EXPIRED')).toBe('EXPIRED');
    expect(mapEsimAccessStatus('USED_EXPIRED')).toBe('EXPIRED');
    expect(mapEsimAccessStatus('CANCEL')).toBe('CANCELLED');
    expect(mapEsimAccessStatus('REVOKED')).toBe('CANCELLED');
  });

  it('everInstalled: smdpStatus past RELEASED or an installation time; absent when neither is sent', () => {
    const vendor = {
      esimTranNo: '1',
      iccid: '89',
      ac: 'LPA:1$s$m',
      esimStatus: 'GOT_RESOURCE',
      totalVolume: GB,
    };
    expect(toProviderProfile({ ...vendor, smdpStatus: 'RELEASED' }).everInstalled).toBe(false);
    expect(toProviderProfile({ ...vendor, smdpStatus: 'ENABLED' }).everInstalled).toBe(true);
    expect(toProviderProfile({ ...vendor, smdpStatus: 'DELETED' }).everInstalled).toBe(true);
    expect(toProviderProfile({ ...vendor, installationTime: '2026-11-27T10:00:00+0000' }).everInstalled).toBe(
      true,
    );
    expect(toProviderProfile(vendor)).not.toHaveProperty('everInstalled');
  });

  it('tops up an existing profile once per order id', async () => {
    const p = profiles();
    const [issued] = await p.issueProfiles({ orderId: 'ord_base', packageCode: 'CKH002', quantity: 1 });
    const request = {
      orderId: 'ord_top',
      providerRef: issued!.providerRef,
      iccid: issued!.iccid,
      packageCode: 'TOPUP_CKH002',
    };
    const topped = await p.topUp(request);
    expect(topped.totalVolumeMb).toBe(4096);
    expect((await p.topUp(request)).totalVolumeMb).toBe(4096);
    fake.state.profiles.get(issued!.providerRef)!.esimStatus = 'USED_EXPIRED';
    await expectProviderError(p.topUp({ ...request, orderId: 'ord_top2' }), 'not_cancellable', '200009');
  });

  it('cancels only an unused profile', async () => {
    const p = profiles();
    const [a, b] = await p.issueProfiles({ orderId: 'ord_cancel', packageCode: 'CKH002', quantity: 2 });
    const before = fake.state.balance;
    await p.cancelProfile(a!.providerRef);
    expect(fake.state.balance).toBe(before + 18_000);
    expect((await p.queryProfiles({ providerRef: a!.providerRef }))[0]!.status).toBe('CANCELLED');
    fake.state.profiles.get(b!.providerRef)!.esimStatus = 'IN_USE';
    await expectProviderError(p.cancelProfile(b!.providerRef), 'not_cancellable', '200002');
    await expectProviderError(p.cancelProfile('999'), 'not_found', '310403');
  });
});

describe('checkout through the eSIM Access adapter', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      env: {
        ESIM_PROVIDER: 'esimaccess',
        ESIMACCESS_ACCESS_CODE: credentials.accessCode,
        ESIMACCESS_SECRET_KEY: credentials.secretKey,
        ESIMACCESS_BASE_URL: fake.baseUrl,
        ESIMACCESS_ALLOCATION_WAIT_MS: '2000',
      },
    });
  });
  afterAll(() => t.close());

  it('issues the eSIM from the vendor; vendor balance too low → 502 FULFILLMENT_FAILED', async () => {
    expect(
      createEsimAccessProvider({ ...credentials, baseUrl: fake.baseUrl, allocationWaitMs: 1 }).name,
    ).toBe('esimaccess');
    const plan = await createPlan(t.container, {
      providerPackageCode: 'CKH002',
      wholesaleCents: 180,
      priceCents: 299,
    });
    const user = await createUser(t.container, { balanceCents: 598 });
    fake.state.allocationPolls = 2;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/checkout',
      headers: user.auth,
      payload: { planId: plan.id, paymentMethod: 'wallet' },
    });
    fake.state.allocationPolls = 0;
    expect(res.statusCode, res.body).toBe(200);
    const [esim] = await t.container.db.select().from(esims).where(eq(esims.orderId, res.json().orderId));
    const vendor = fake.state.byTransaction.get(res.json().orderId)!;
    expect(esim).toMatchObject({ providerRef: vendor.profiles[0]!.esimTranNo, totalVolumeMb: 3072 });

    fake.state.balance = 0;
    const failed = await t.app.inject({
      method: 'POST',
      url: '/api/v1/checkout',
      headers: user.auth,
      payload: { planId: plan.id, paymentMethod: 'wallet' },
    });
    expect(failed.statusCode).toBe(502);
    const [order] = await t.container.db.select().from(orders).where(eq(orders.id, failed.json().orderId));
    expect(order).toMatchObject({ status: 'PROCESSING' });
    expect(order!.lastError).toMatch(/200007/);
    await expectLedgerInvariant(t.container);
  });
});
