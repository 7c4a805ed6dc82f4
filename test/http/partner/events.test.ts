import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  events,
  jobs,
  orders,
  sandboxEsimProfiles,
  webhookDeliveries,
} from '../../../src/db/schema/index.js';
import { DAY, SECOND } from '../../../src/lib/clock.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { pickPlan } from '../../helpers/catalog.js';
import { balanceOf, createUser, fundWallet } from '../../helpers/factories.js';
import { eventsSettled } from '../../helpers/events.js';
import { expectLedgerInvariant } from '../../helpers/ledger.js';
import { adminPost, createPartner, PARTNER_ROOT, postOrder } from './helpers.js';

const EVENTS = `${PARTNER_ROOT}/events`;
const WALLET = `${PARTNER_ROOT}/wallet`;

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({
    env: {
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      FULFILLMENT_MAX_ATTEMPTS: '2',
      FULFILLMENT_RETRY_BASE_SECONDS: '1',
    },
  });
});
afterAll(() => t.close());

type Ev = { id: string; type: string; livemode: boolean; createdAt: string; data: Record<string, unknown> };

async function allEvents(headers: Record<string, string>): Promise<Ev[]> {
  await eventsSettled(t.container);
  const res = await t.app.inject({ url: `${EVENTS}?limit=100`, headers });
  expect(res.statusCode).toBe(200);
  return res.json().data;
}

async function emitTopUps(accountId: string, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const row = await t.container.db.transaction((tx) =>
      t.container.outbox.emitEvent(tx, { accountId, type: 'wallet.topup_succeeded', data: { n: i } }),
    );
    ids.push(row.id);
    t.clock.advance(1);
  }
  return ids;
}

describe('GET /events', () => {
  it('pages oldest first with after and limit, hasMore on every page but the last', async () => {
    const p = await createPartner(t);
    const ids = await emitTopUps(p.id, 5);
    await eventsSettled(t.container);
    const seen: string[] = [];
    const pages: boolean[] = [];
    let after: string | undefined;
    for (;;) {
      const res = await t.app.inject({
        url: `${EVENTS}?limit=2${after ? `&after=${after}` : ''}`,
        headers: p.headers,
      });
      expect(res.statusCode).toBe(200);
      const page = res.json<{ data: Ev[]; hasMore: boolean }>();
      seen.push(...page.data.map((e) => e.id));
      pages.push(page.hasMore);
      if (!page.hasMore) break;
      after = page.data.at(-1)!.id;
    }
    expect(seen).toEqual(ids);
    expect(pages).toEqual([true, true, false]);
    const all = await t.app.inject({ url: EVENTS, headers: p.headers });
    expect(all.json()).toMatchObject({ hasMore: false });
    expect(all.json().data[0]).toEqual({
      id: ids[0],
      type: 'wallet.topup_succeeded',
      livemode: true,
      createdAt: expect.any(String),
      data: { n: 0 },
    });
    // After the newest: an empty page, so a poller can just keep asking.
    expect((await t.app.inject({ url: `${EVENTS}?after=${ids[4]}`, headers: p.headers })).json()).toEqual({
      data: [],
      hasMore: false,
    });
  });

  it('defaults to 25 per page', async () => {
    const p = await createPartner(t);
    await emitTopUps(p.id, 26);
    await eventsSettled(t.container);
    const res = (await t.app.inject({ url: EVENTS, headers: p.headers })).json();
    expect(res.data).toHaveLength(25);
    expect(res.hasMore).toBe(true);
  });

  it('refuses a bad limit or a cursor that is not one of your events', async () => {
    const p = await createPartner(t);
    const other = await createPartner(t);
    const [foreign] = await emitTopUps(other.id, 1);
    for (const query of ['limit=0', 'limit=101', 'limit=x', 'after=evt_unknown', `after=${foreign}`]) {
      const res = await t.app.inject({ url: `${EVENTS}?${query}`, headers: p.headers });
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
    expect(await allEvents(p.headers)).toEqual([]);
  });

  it('purges events older than 30 days with the periodic job', async () => {
    const p = await createPartner(t);
    const [old] = await emitTopUps(p.id, 1);
    t.clock.advance(29 * DAY);
    const [recent] = await emitTopUps(p.id, 1);
    t.clock.advance(1 * DAY + SECOND);
    await t.container.webhooks.schedulePurge();
    await t.container.worker.runDue();
    expect((await allEvents(p.headers)).map((e) => e.id)).toEqual([recent]);
    const cursor = await t.app.inject({ url: `${EVENTS}?after=${old}`, headers: p.headers });
    expect(cursor.statusCode).toBe(400);
    // The purge job has put its next run in the queue.
    const next = await t.container.db.select().from(jobs).where(eq(jobs.kind, 'events.purge'));
    expect(next.some((j) => j.status === 'pending' && j.runAt > t.clock.now())).toBe(true);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('GET /events with concurrent writers (PostgreSQL)', () => {
  it('holds back events of later transactions while an earlier one is open, so a cursor never skips one', async () => {
    const p = await createPartner(t);
    let releaseA!: () => void;
    const aMayCommit = new Promise<void>((resolve) => (releaseA = resolve));
    let aEmitted!: () => void;
    const aHasEmitted = new Promise<void>((resolve) => (aEmitted = resolve));
    let idA = '';
    // A: emits first, commits last.
    const a = t.container.db.transaction(async (tx) => {
      idA = (
        await t.container.outbox.emitEvent(tx, {
          accountId: p.id,
          type: 'wallet.topup_succeeded',
          data: { w: 'A' },
        })
      ).id;
      aEmitted();
      await aMayCommit;
    });
    await aHasEmitted;
    // B: starts after A, commits while A is still open.
    const idB = (
      await t.container.db.transaction((tx) =>
        t.container.outbox.emitEvent(tx, {
          accountId: p.id,
          type: 'wallet.topup_succeeded',
          data: { w: 'B' },
        }),
      )
    ).id;
    // B committed, but listing it now would let a poller's cursor pass A: it is held back.
    const whileOpen = await t.app.inject({ url: EVENTS, headers: p.headers });
    expect(whileOpen.json().data).toEqual([]);
    releaseA();
    await a;
    expect((await allEvents(p.headers)).map((e) => e.id)).toEqual([idA, idB]);
  });
});

describe('outbox atomicity: an event exists if and only if its change committed', () => {
  it('a transaction that rolls back leaves no event, delivery or job', async () => {
    const p = await createPartner(t);
    const endpoint = await t.app.inject({
      method: 'POST',
      url: `${PARTNER_ROOT}/webhook-endpoints`,
      headers: p.headers,
      payload: { url: 'http://127.0.0.1:3449/never' },
    });
    expect(endpoint.statusCode).toBe(201);
    const jobsBefore = (await t.container.db.select().from(jobs)).length;
    let eventId = '';
    await expect(
      t.container.db.transaction(async (tx) => {
        eventId = (
          await t.container.outbox.emitEvent(tx, { accountId: p.id, type: 'wallet.low_balance', data: {} })
        ).id;
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(eventId).toMatch(/^evt_/);
    expect(await t.container.db.select().from(events).where(eq(events.id, eventId))).toEqual([]);
    expect(
      await t.container.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, eventId)),
    ).toEqual([]);
    expect((await t.container.db.select().from(jobs)).length).toBe(jobsBefore);
  });

  it('parallel orders on a wallet covering one: one order.completed, nothing for the refused ones', async () => {
    const plan = await pickPlan(t.container);
    const p = await createPartner(t, plan.effectivePriceCents);
    await t.app.inject({
      method: 'PATCH',
      url: WALLET,
      headers: p.headers,
      payload: { lowBalanceThreshold: 0 },
    });
    const results = await Promise.all(
      Array.from({ length: 4 }, () => postOrder(t, p.headers, { planId: plan.id, quantity: 1 })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 402, 402, 402]);
    const list = await allEvents(p.headers);
    expect(list.map((e) => e.type)).toEqual(['order.completed']);
    expect((list[0]!.data as { id: string }).id).toBe(results.find((r) => r.statusCode === 201)!.json().id);
    await expectLedgerInvariant(t.container);
  });

  it('fulfillment failure: one order.fulfillment_failed, then one order.refunded when retries run out', async () => {
    const plan = await pickPlan(t.container);
    const p = await createPartner(t, plan.effectivePriceCents * 2);
    await adminPost(t, '/sandbox/esim-provider/faults', { failNext: 100 });
    try {
      const res = await postOrder(t, p.headers, { planId: plan.id, quantity: 1 });
      expect(res.statusCode).toBe(502);
      const orderId = res.json().error.details.orderId as string;
      for (let i = 0; i < 4; i++) {
        t.clock.advance(5 * SECOND);
        await t.container.worker.runDue();
      }
      const [order] = await t.container.db.select().from(orders).where(eq(orders.id, orderId));
      expect(order!.status).toBe('REFUNDED');
      const list = await allEvents(p.headers);
      expect(list.map((e) => e.type)).toEqual(['order.fulfillment_failed', 'order.refunded']);
      expect(list[0]!.data).toMatchObject({ id: orderId, status: 'PROCESSING', esims: [] });
      expect(list[1]!.data).toMatchObject({ id: orderId, status: 'REFUNDED' });
      expect(await balanceOf(t.container, p.id)).toBe(plan.effectivePriceCents * 2);
    } finally {
      await adminPost(t, '/sandbox/esim-provider/faults', { failNext: 0 });
    }
  });
});

describe('wallet events and the low-balance threshold', () => {
  it('PATCH /wallet sets lowBalanceThreshold (USD, two decimals), GET /wallet shows it', async () => {
    const p = await createPartner(t, 1234);
    expect((await t.app.inject({ url: WALLET, headers: p.headers })).json()).toEqual({
      balanceUsd: 12.34,
      currency: 'USD',
      lowBalanceThreshold: 50,
    });
    const set = await t.app.inject({
      method: 'PATCH',
      url: WALLET,
      headers: p.headers,
      payload: { lowBalanceThreshold: 10.5 },
    });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toEqual({ balanceUsd: 12.34, currency: 'USD', lowBalanceThreshold: 10.5 });
    expect((await t.app.inject({ url: WALLET, headers: p.headers })).json().lowBalanceThreshold).toBe(10.5);
    for (const payload of [
      { lowBalanceThreshold: 1.234 },
      { lowBalanceThreshold: -1 },
      { lowBalanceThreshold: 'x' },
      {},
    ]) {
      const res = await t.app.inject({ method: 'PATCH', url: WALLET, headers: p.headers, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
    expect((await t.app.inject({ url: WALLET, headers: p.headers })).json().lowBalanceThreshold).toBe(10.5);
  });

  it('wallet.low_balance fires once when a charge crosses below the threshold', async () => {
    const plan = await pickPlan(t.container);
    const price = plan.effectivePriceCents;
    // Threshold between the balance after one and after two orders.
    const p = await createPartner(t, price * 3);
    const threshold = price * 2 - 1;
    await t.app.inject({
      method: 'PATCH',
      url: WALLET,
      headers: p.headers,
      payload: { lowBalanceThreshold: threshold / 100 },
    });
    expect((await postOrder(t, p.headers, { planId: plan.id, quantity: 1 })).statusCode).toBe(201);
    expect((await allEvents(p.headers)).filter((e) => e.type === 'wallet.low_balance')).toEqual([]);
    expect((await postOrder(t, p.headers, { planId: plan.id, quantity: 1 })).statusCode).toBe(201);
    expect((await postOrder(t, p.headers, { planId: plan.id, quantity: 1 })).statusCode).toBe(201);
    const low = (await allEvents(p.headers)).filter((e) => e.type === 'wallet.low_balance');
    expect(low).toHaveLength(1);
    // The data is the Wallet itself, as GET /wallet answers it.
    expect(low[0]!.data).toEqual({
      balanceUsd: price / 100,
      currency: 'USD',
      lowBalanceThreshold: threshold / 100,
    });
    // Back above (a deposit), then below again: a new crossing, a new event.
    await fundWallet(t.container, p.id, price * 2);
    expect((await postOrder(t, p.headers, { planId: plan.id, quantity: 1 })).statusCode).toBe(201);
    expect((await allEvents(p.headers)).filter((e) => e.type === 'wallet.low_balance')).toHaveLength(2);
  });

  it('wallet.topup_succeeded when a card top-up is paid', async () => {
    const user = await createUser(t.container);
    const { key } = await t.container.apiKeys.generate(user.id);
    const session = await t.app.inject({
      method: 'POST',
      url: '/api/v1/payments/card/create-session',
      headers: user.auth,
      payload: { amount: 2500, currency: 'USD' },
    });
    expect(session.statusCode).toBe(200);
    const page = new URL(session.json().url as string);
    const paid = await t.app.inject({
      method: 'POST',
      url: `${page.pathname}/complete`,
      payload: { outcome: 'paid' },
    });
    expect(paid.statusCode).toBe(303);
    const list = await allEvents({ 'x-api-key': key });
    expect(list.map((e) => e.type)).toEqual(['wallet.topup_succeeded']);
    expect(list[0]!.data).toMatchObject({
      wallet: { balanceUsd: 25, currency: 'USD', lowBalanceThreshold: 50 },
      amountUsd: 25,
      paymentId: expect.stringMatching(/^pay_/),
    });
    // A replayed settlement credits nothing and emits nothing.
    await t.app.inject({ method: 'POST', url: `${page.pathname}/complete`, payload: { outcome: 'paid' } });
    expect(await allEvents({ 'x-api-key': key })).toHaveLength(1);
  });
});

describe('esim.usage_threshold from the sandbox provider’s usage webhooks', () => {
  it('fires 50, 80, 90 and 100 once each per eSIM', async () => {
    const plan = await pickPlan(t.container);
    const p = await createPartner(t, plan.effectivePriceCents);
    const order = (await postOrder(t, p.headers, { planId: plan.id, quantity: 1 })).json();
    const esim = order.esims[0] as { id: string; iccid: string };
    const total = plan.dataAmountMb;
    const setUsage = async (usedMb: number) => {
      const res = await adminPost(t, '/sandbox/esim-provider/usage', { iccid: esim.iccid, usedMb });
      expect(res.statusCode).toBe(200);
      await t.container.worker.runDue();
    };
    const thresholds = async () =>
      (await allEvents(p.headers))
        .filter((e) => e.type === 'esim.usage_threshold')
        .map((e) => (e.data as { thresholdPercent: number }).thresholdPercent);

    await setUsage(Math.floor(total * 0.4));
    expect(await thresholds()).toEqual([]);
    await setUsage(Math.ceil(total * 0.8));
    expect(await thresholds()).toEqual([50, 80]);
    await setUsage(Math.ceil(total * 0.85));
    expect(await thresholds()).toEqual([50, 80]);
    await setUsage(total);
    expect(await thresholds()).toEqual([50, 80, 90, 100]);
    await setUsage(total);
    expect(await thresholds()).toEqual([50, 80, 90, 100]);

    const last = (await allEvents(p.headers)).filter((e) => e.type === 'esim.usage_threshold').at(-1)!;
    // The snapshot taken when the usage report arrived (the status report follows it).
    expect(last.data).toMatchObject({
      thresholdPercent: 100,
      esim: { id: esim.id, iccid: esim.iccid, dataUsageMb: total, totalVolumeMb: total },
    });
    const detail = (
      await t.app.inject({ url: `${PARTNER_ROOT}/orders/${order.id}`, headers: p.headers })
    ).json();
    expect(detail.esims[0]).toMatchObject({ id: esim.id, status: 'DEPLETED', dataUsageMb: total });
  });

  it('also fires from the provider usage readings behind GET /orders/:id', async () => {
    const plan = await pickPlan(t.container);
    const p = await createPartner(t, plan.effectivePriceCents);
    const order = (await postOrder(t, p.headers, { planId: plan.id, quantity: 1 })).json();
    // Usage changes upstream without any webhook (the provider's polling API only).
    await t.container.db
      .update(sandboxEsimProfiles)
      .set({ usedMb: Math.ceil(plan.dataAmountMb * 0.85) })
      .where(eq(sandboxEsimProfiles.iccid, order.esims[0].iccid));
    t.clock.advance(61 * SECOND);
    const detail = await t.app.inject({ url: `${PARTNER_ROOT}/orders/${order.id}`, headers: p.headers });
    expect(detail.json().esims[0].dataUsageMb).toBe(Math.ceil(plan.dataAmountMb * 0.85));
    const usage = (await allEvents(p.headers)).filter((e) => e.type === 'esim.usage_threshold');
    expect(usage.map((e) => (e.data as { thresholdPercent: number }).thresholdPercent)).toEqual([50, 80]);
  });
});
