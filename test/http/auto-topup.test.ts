import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { esims, events } from '../../src/db/schema/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { pickPlan } from '../helpers/catalog.js';
import { eventsSettled } from '../helpers/events.js';
import { balanceOf, createUser, type TestUser } from '../helpers/factories.js';
import { expectLedgerInvariant } from '../helpers/ledger.js';
import {
  attemptsOf,
  esimRow,
  expectReconcileClean,
  partnerWithEsim,
  patchPartner,
  recordAlerts,
  report,
} from '../domain/autotopup/helpers.js';
import { partnerWithBothKeys, PARTNER_ROOT, postOrder } from './partner/helpers.js';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const DEFAULTS = { enabled: false, planId: null, whenPercentUsed: 80, maxPerMonth: 2 };

async function mobileEsim(balanceCents: number): Promise<{ user: TestUser; iccid: string; esimId: string }> {
  const plan = await pickPlan(t.container);
  const user = await createUser(t.container, { balanceCents: plan.effectivePriceCents + balanceCents });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/checkout',
    headers: user.auth,
    payload: { planId: plan.id, quantity: 1, paymentMethod: 'wallet' },
  });
  expect(res.statusCode).toBe(200);
  const esimId = res.json().esimIds[0] as string;
  return { user, esimId, iccid: (await esimRow(t, esimId)).iccid };
}

function patchMobile(user: TestUser, iccid: string, autoTopUp: object) {
  return t.app.inject({
    method: 'PATCH',
    url: `/api/v1/user/esims/${iccid}`,
    headers: user.auth,
    payload: { autoTopUp },
  });
}

describe('Mobile: PATCH /api/v1/user/esims/{iccid}', () => {
  it('shows the defaults, stores the settings and shows them on the eSIM and the list', async () => {
    const { user, iccid } = await mobileEsim(0);
    const topUp = await pickPlan(t.container, { isTopUp: true });
    const get = await t.app.inject({ url: `/api/v1/user/esims/${iccid}`, headers: user.auth });
    expect(get.json().esim.autoTopUp).toEqual(DEFAULTS);
    const res = await patchMobile(user, iccid, { enabled: true, planId: topUp.id, whenPercentUsed: 90 });
    expect(res.statusCode).toBe(200);
    const settings = { enabled: true, planId: topUp.id, whenPercentUsed: 90, maxPerMonth: 2 };
    expect(res.json().esim.autoTopUp).toEqual(settings);
    const list = await t.app.inject({ url: '/api/v1/user/esims', headers: user.auth });
    expect(list.json().esims[0].autoTopUp).toEqual(settings);
    // Partial: the rest is kept.
    const off = await patchMobile(user, iccid, { enabled: false });
    expect(off.json().esim.autoTopUp).toEqual({ ...settings, enabled: false });
  });

  it('refuses bad values (400), a plan that cannot top this eSIM up (400), others’ eSIMs (404)', async () => {
    const { user, iccid } = await mobileEsim(0);
    const topUp = await pickPlan(t.container, { isTopUp: true });
    const base = await pickPlan(t.container);
    const otherTopUp = await pickPlan(t.container, { destination: 'US', isTopUp: true });
    for (const body of [
      { whenPercentUsed: 49 },
      { whenPercentUsed: 101 },
      { whenPercentUsed: 80.5 },
      { maxPerMonth: 0 },
      { maxPerMonth: 11 },
      { enabled: true },
      { enabled: true, planId: base.id },
      { enabled: true, planId: otherTopUp.id },
      { enabled: true, planId: 'plan_unknown' },
      { enabled: 'yes' },
    ]) {
      const res = await patchMobile(user, iccid, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
    }
    const stranger = await createUser(t.container);
    const res = await patchMobile(stranger, iccid, { enabled: true, planId: topUp.id });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('ESIM_NOT_FOUND');
    expect((await attemptsOf(t, (await mobileEsim(0)).esimId)).length).toBe(0);
  });

  it('tells the traveller (alerts port) of a success and of a failure', async () => {
    const alerts = recordAlerts(t);
    const rich = await mobileEsim(10_000);
    const poor = await mobileEsim(0);
    const topUp = await pickPlan(t.container, { isTopUp: true });
    for (const e of [rich, poor])
      expect((await patchMobile(e.user, e.iccid, { enabled: true, planId: topUp.id })).statusCode).toBe(200);
    await report(t, rich.esimId, 1000);
    await report(t, poor.esimId, 1000);
    await t.container.worker.runDue();
    const [attempt] = await attemptsOf(t, rich.esimId);
    expect(alerts).toEqual(
      expect.arrayContaining([
        {
          accountId: rich.user.id,
          alert: {
            kind: 'auto_topup_succeeded',
            iccid: rich.iccid,
            orderId: attempt!.orderId,
            amountCents: topUp.effectivePriceCents,
          },
          dedupeKey: `auto-topup:${rich.esimId}:1`,
        },
        {
          accountId: poor.user.id,
          alert: { kind: 'auto_topup_failed', iccid: poor.iccid, reason: 'insufficient_balance' },
          dedupeKey: `auto-topup:${poor.esimId}:1`,
        },
      ]),
    );
    expect(alerts).toHaveLength(2);
    // No partner event for the account's own eSIMs.
    const rows = await t.container.db.select().from(events).where(eq(events.accountId, rich.user.id));
    expect(rows.filter((e) => e.type.startsWith('esim.auto_topup'))).toEqual([]);
    await expectLedgerInvariant(t.container);
    await expectReconcileClean(t);
  });
});

describe('Partner: /api/public/v1/esims', () => {
  it('lists (paged) and gets eSIMs with usage and settings; PATCH validates in the partner shape', async () => {
    const s = await partnerWithEsim(t, 10_000);
    t.clock.advance(1000); // newest first: the second eSIM on the first page
    const second = (await postOrder(t, s.p.headers, { planId: s.plan.id, quantity: 1 })).json();
    expect(second.status ?? 'COMPLETED').toBe('COMPLETED');
    const page1 = await t.app.inject({ url: `${PARTNER_ROOT}/esims?limit=1`, headers: s.p.headers });
    expect(page1.statusCode).toBe(200);
    expect(page1.json()).toMatchObject({ hasMore: true, nextCursor: expect.any(String) });
    expect(page1.json().esims).toHaveLength(1);
    const page2 = await t.app.inject({
      url: `${PARTNER_ROOT}/esims?limit=1&cursor=${page1.json().nextCursor}`,
      headers: s.p.headers,
    });
    expect(page2.json()).toMatchObject({ hasMore: false, nextCursor: null });
    expect(page2.json().esims[0]).toMatchObject({
      iccid: s.iccid,
      dataUsageMb: 0,
      totalVolumeMb: s.plan.dataAmountMb,
      autoTopUp: DEFAULTS,
    });
    const all = await t.app.inject({ url: `${PARTNER_ROOT}/esims`, headers: s.p.headers });
    expect(all.json().esims.map((e: { iccid: string }) => e.iccid)).toContain(s.iccid);
    expect(all.json().hasMore).toBe(false);

    const ok = await patchPartner(t, s.p.headers, s.iccid, {
      enabled: true,
      planId: s.topUp.id,
      maxPerMonth: 5,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().autoTopUp).toEqual({
      enabled: true,
      planId: s.topUp.id,
      whenPercentUsed: 80,
      maxPerMonth: 5,
    });
    const got = await t.app.inject({ url: `${PARTNER_ROOT}/esims/${s.iccid}`, headers: s.p.headers });
    expect(got.json()).toMatchObject({ iccid: s.iccid, autoTopUp: { maxPerMonth: 5 } });

    const bad = await patchPartner(t, s.p.headers, s.iccid, { maxPerMonth: 11 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatchObject({ code: 'VALIDATION_ERROR' });
    const wrongPlan = await patchPartner(t, s.p.headers, s.iccid, { planId: s.plan.id });
    expect(wrongPlan.statusCode).toBe(400);
    const missing = await patchPartner(t, s.p.headers, '8990000000000000000', { enabled: false });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.code).toBe('ESIM_NOT_FOUND');
    // Another partner's eSIM is unknown too, for GET and PATCH.
    const other = await partnerWithEsim(t, 0);
    expect(
      (await t.app.inject({ url: `${PARTNER_ROOT}/esims/${s.iccid}`, headers: other.p.headers })).statusCode,
    ).toBe(404);
  });

  it('refuses to enable it on an expired eSIM (409 INVALID_STATE)', async () => {
    const s = await partnerWithEsim(t, 0);
    await t.container.db.update(esims).set({ status: 'EXPIRED' }).where(eq(esims.id, s.esimId));
    const res = await patchPartner(t, s.p.headers, s.iccid, { enabled: true, planId: s.topUp.id });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('INVALID_STATE');
  });

  it('test keys: the test wallet pays, the live wallet is untouched', async () => {
    const { user, test } = await partnerWithBothKeys(t, 50_000);
    const plan = await pickPlan(t.container);
    const topUp = await pickPlan(t.container, { isTopUp: true });
    const order = (await postOrder(t, test, { planId: plan.id, quantity: 1 })).json();
    const iccid = order.esims[0].iccid as string;
    // The test eSIM is not the live key's.
    expect(
      (await t.app.inject({ url: `${PARTNER_ROOT}/esims/${iccid}`, headers: { 'x-api-key': 'nope' } }))
        .statusCode,
    ).toBe(401);
    const res = await patchPartner(t, test, iccid, { enabled: true, planId: topUp.id });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ livemode: false, autoTopUp: { enabled: true } });
    const live = await balanceOf(t.container, user.id);
    await report(t, order.esims[0].id, 1000);
    await t.container.worker.runDue();
    expect(await attemptsOf(t, order.esims[0].id)).toEqual([
      expect.objectContaining({ status: 'succeeded', livemode: false }),
    ]);
    expect(await balanceOf(t.container, user.id)).toBe(live);
    await eventsSettled(t.container);
    const listed = await t.app.inject({ url: `${PARTNER_ROOT}/events?limit=100`, headers: test });
    expect(
      listed.json().data.filter((e: { type: string }) => e.type === 'esim.auto_topup_succeeded'),
    ).toEqual([expect.objectContaining({ livemode: false })]);
    await expectLedgerInvariant(t.container);
    await expectReconcileClean(t);
  });
});
