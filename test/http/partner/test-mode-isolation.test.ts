import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accounts,
  esims,
  events,
  orders,
  walletTransactions,
  webhookEndpoints,
} from '../../../src/db/schema/index.js';
import type { SellablePlan } from '../../../src/domain/catalog/catalog.service.js';
import { MINUTE } from '../../../src/lib/clock.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { pickPlan } from '../../helpers/catalog.js';
import { PARTNER_ROOT, partnerWithBothKeys } from './helpers.js';

/**
 * Issue 28 H5: everything a test key writes lives in test mode only. The walk below takes every
 * write route of the Partner document the app serves (so a new route is walked without editing
 * this file) and calls it with a test key, on test ids and on live ids, then proves that nothing
 * of live mode moved.
 */

const WRITE_METHODS = ['post', 'patch', 'put', 'delete'] as const;
const WEBHOOK_URL = 'http://127.0.0.1:9/hooks';

let t: TestApp;
let plan: SellablePlan;

beforeAll(async () => {
  t = await buildTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
  plan = await pickPlan(t.container);
});
afterAll(() => t.close());

const call = (method: string, url: string, headers: Record<string, string>, payload?: unknown) =>
  t.app.inject({
    method: method.toUpperCase() as 'POST',
    url: url.startsWith('/') ? url : `${PARTNER_ROOT}/${url}`,
    headers,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

const partner = () => partnerWithBothKeys(t);
type Partner = Awaited<ReturnType<typeof partner>>;

/** Everything of live mode a key could reach: wallet, threshold, orders, eSIMs, endpoints, events, key. */
async function liveState(p: Partner) {
  const { db } = t.container;
  const id = p.user.id;
  const [account] = await db
    .select({
      balance: accounts.walletBalanceCents,
      threshold: accounts.lowBalanceThresholdCents,
      keyHash: accounts.apiKeyHash,
      keyPrefix: accounts.apiKeyPrefix,
      keyGeneratedAt: accounts.apiKeyGeneratedAt,
      status: accounts.status,
    })
    .from(accounts)
    .where(eq(accounts.id, id));
  const live = <T extends { accountId: unknown; livemode: unknown }>(table: T) =>
    and(eq(table.accountId as never, id), eq(table.livemode as never, true));
  const wallet = await call('get', 'wallet', p.live);
  return {
    account,
    // Also proves the live key still works.
    wallet: { status: wallet.statusCode, body: wallet.json() },
    orders: await db.select().from(orders).where(live(orders)).orderBy(asc(orders.id)),
    esims: await db.select().from(esims).where(live(esims)).orderBy(asc(esims.id)),
    endpoints: await db
      .select()
      .from(webhookEndpoints)
      .where(live(webhookEndpoints))
      .orderBy(asc(webhookEndpoints.id)),
    events: await db.select().from(events).where(live(events)).orderBy(asc(events.seq)),
    ledger: await db
      .select()
      .from(walletTransactions)
      .where(live(walletTransactions))
      .orderBy(asc(walletTransactions.seq)),
  };
}

/** The request body a route documents as its example, made concrete for this app. */
function exampleBody(operation: { requestBody?: { content?: Record<string, { example?: unknown }> } }) {
  const example = operation.requestBody?.content?.['application/json']?.example;
  if (example === undefined || typeof example !== 'object' || example === null) return example;
  const body = { ...(example as Record<string, unknown>) };
  if ('planId' in body) body.planId = plan.id;
  if ('url' in body) body.url = WEBHOOK_URL;
  return body;
}

describe('a test key writes nothing of live mode (H5)', () => {
  it('walks every Partner write route with a test key; live state stays as it was', async () => {
    const p = await partner();
    // Live things a test key must not reach: an order with its eSIM, an endpoint, a threshold.
    const liveOrder = await call('post', 'orders', p.live, { planId: plan.id, quantity: 1 });
    expect(liveOrder.statusCode).toBe(201);
    const liveEndpoint = await call('post', 'webhook-endpoints', p.live, {
      url: WEBHOOK_URL,
      events: ['order.completed'],
    });
    expect(liveEndpoint.statusCode).toBe(201);
    expect((await call('patch', 'wallet', p.live, { lowBalanceThreshold: 12.34 })).statusCode).toBe(200);
    // Test things of the same kinds, so the routes act on something real.
    const testOrder = await call('post', 'orders', p.test, { planId: plan.id, quantity: 1 });
    expect(testOrder.statusCode).toBe(201);
    const testEndpoint = await call('post', 'webhook-endpoints', p.test, {
      url: WEBHOOK_URL,
      events: ['order.completed'],
    });
    expect(testEndpoint.statusCode).toBe(201);
    t.clock.advance(MINUTE);
    await t.container.worker.runDue();

    const ids = [
      liveOrder.json().esims[0].id as string,
      liveOrder.json().esims[0].iccid as string,
      liveOrder.json().id as string,
      liveEndpoint.json().id as string,
      testOrder.json().esims[0].id as string,
      testOrder.json().esims[0].iccid as string,
      testEndpoint.json().id as string,
    ];
    const before = await liveState(p);
    expect(before.wallet.body.lowBalanceThreshold).toBe(12.34);

    const document = (await t.app.inject({ url: `${PARTNER_ROOT}/openapi.json` })).json();
    const walked: string[] = [];
    for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, object>>)) {
      for (const method of WRITE_METHODS) {
        const operation = item[method];
        if (!operation) continue;
        const body = exampleBody(operation);
        const param = /\{(?:id|iccid)\}/;
        const urls = param.test(path) ? ids.map((id) => path.replace(param, id)) : [path];
        for (const url of urls) {
          const res = await call(method, url, p.test, body);
          expect(res.statusCode, `${method} ${url}`).toBeLessThan(500);
          walked.push(`${method.toUpperCase()} ${path}`);
        }
      }
    }
    t.clock.advance(MINUTE);
    await t.container.worker.runDue();

    // The walk reached every kind of write the Partner API has today.
    expect(walked).toEqual(
      expect.arrayContaining([
        'PATCH /api/public/v1/wallet',
        'POST /api/public/v1/orders',
        'POST /api/public/v1/test/wallet/reset',
        'POST /api/public/v1/test/orders/fail-next',
        'DELETE /api/public/v1/test/orders/fail-next',
        'POST /api/public/v1/test/esims/{id}/usage',
        'POST /api/public/v1/esims/{iccid}/install-link',
        'POST /api/public/v1/webhook-endpoints',
        'DELETE /api/public/v1/webhook-endpoints/{id}',
        'POST /api/public/v1/webhook-endpoints/{id}/test',
      ]),
    );
    expect(await liveState(p)).toEqual(before);
  });

  it('keeps one low-balance threshold per mode: GET /wallet and wallet.low_balance use the mode’s own', async () => {
    const p = await partner();
    // The test wallet opens at 1000.00: any test purchase crosses 999.99.
    const setTest = await call('patch', 'wallet', p.test, { lowBalanceThreshold: 999.99 });
    expect(setTest.statusCode).toBe(200);
    expect(setTest.json()).toMatchObject({ balanceUsd: 1000, lowBalanceThreshold: 999.99 });
    const setLive = await call('patch', 'wallet', p.live, { lowBalanceThreshold: 0 });
    expect(setLive.json()).toMatchObject({ balanceUsd: 500, lowBalanceThreshold: 0 });

    expect((await call('get', 'wallet', p.test)).json().lowBalanceThreshold).toBe(999.99);
    expect((await call('get', 'wallet', p.live)).json().lowBalanceThreshold).toBe(0);

    expect((await call('post', 'orders', p.test, { planId: plan.id, quantity: 1 })).statusCode).toBe(201);
    expect((await call('post', 'orders', p.live, { planId: plan.id, quantity: 1 })).statusCode).toBe(201);
    const lowBalance = await t.container.db
      .select()
      .from(events)
      .where(and(eq(events.accountId, p.user.id), eq(events.type, 'wallet.low_balance')));
    // Only the test wallet crossed its threshold; the live one (0: off) sent nothing.
    expect(lowBalance.map((e) => [e.livemode, e.data.lowBalanceThreshold])).toEqual([[false, 999.99]]);
  });
});
