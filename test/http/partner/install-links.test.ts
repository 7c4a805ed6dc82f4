import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { pickPlan } from '../../helpers/catalog.js';
import { BASE_URL } from '../../helpers/config.js';
import { eventsSettled } from '../../helpers/events.js';
import { PARTNER_ROOT, partnerWithBothKeys } from './helpers.js';

/**
 * Issue 30 T2 on the Partner API: every eSIM object (order answers, the test helper, events)
 * carries `installUrl`; `POST /esims/{iccid}/install-link` replaces it for eSIMs of the key's own
 * Partner API orders in the key's mode, and the old page answers 404.
 */

const INSTALL_URL = new RegExp(`^${BASE_URL}/install/([A-Za-z0-9_-]{43})$`);

let t: TestApp;
let planId: string;

beforeAll(async () => {
  t = await buildTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
  planId = (await pickPlan(t.container)).id;
});
afterAll(() => t.close());

const partner = () => partnerWithBothKeys(t);

const call = (method: 'GET' | 'POST', path: string, headers: Record<string, string>, payload?: object) =>
  t.app.inject({ method, url: `${PARTNER_ROOT}${path}`, headers, ...(payload ? { payload } : {}) });
const order = async (headers: Record<string, string>) => {
  const res = await call('POST', '/orders', headers, { planId, quantity: 1 });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ id: string; esims: Array<{ iccid: string; installUrl: string }> }>();
};
const replace = (headers: Record<string, string>, iccid: string) =>
  call('POST', `/esims/${iccid}/install-link`, headers);
const tokenOf = (installUrl: string) => INSTALL_URL.exec(installUrl)![1]!;
const page = (installUrl: string) => t.app.inject({ url: `/api/v1/install/${tokenOf(installUrl)}` });

describe('installUrl on every Partner eSIM', () => {
  it('201, GET /orders/{id}, the test helper and the order.completed event carry the same link', async () => {
    const p = await partner();
    const endpoint = await call('POST', '/webhook-endpoints', p.live, {
      url: 'http://127.0.0.1:9/hooks',
      events: ['order.completed'],
    });
    expect(endpoint.statusCode).toBe(201);
    const placed = await order(p.live);
    const installUrl = placed.esims[0]!.installUrl;
    expect(installUrl).toMatch(INSTALL_URL);
    const detail = await call('GET', `/orders/${placed.id}`, p.live);
    expect(detail.json().esims[0].installUrl).toBe(installUrl);
    await eventsSettled(t.container);
    const events = await call('GET', '/events', p.live);
    const completed = (events.json().data as Array<{ type: string; data: typeof placed }>).find(
      (e) => e.type === 'order.completed' && e.data.id === placed.id,
    );
    expect(completed!.data.esims[0]!.installUrl).toBe(installUrl);
    expect((await page(installUrl)).statusCode).toBe(200);

    const testOrder = await order(p.test);
    const usage = await call('POST', `/test/esims/${testOrder.esims[0]!.iccid}/usage`, p.test, {
      usedMb: 10,
    });
    expect(usage.statusCode, usage.body).toBe(200);
    expect(usage.json().installUrl).toBe(testOrder.esims[0]!.installUrl);
  });
});

describe('POST /esims/{iccid}/install-link', () => {
  it('issues a new link; the old page answers 404 and the order shows the new one', async () => {
    const p = await partner();
    const placed = await order(p.live);
    const esim = placed.esims[0]!;
    const res = await replace(p.live, esim.iccid);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['x-livemode']).toBe('true');
    const replaced = res.json();
    expect(replaced).toMatchObject({ iccid: esim.iccid, livemode: true });
    expect(replaced.installUrl).toMatch(INSTALL_URL);
    expect(replaced.installUrl).not.toBe(esim.installUrl);
    expect((await page(esim.installUrl)).statusCode).toBe(404);
    expect((await page(replaced.installUrl)).statusCode).toBe(200);
    const detail = await call('GET', `/orders/${placed.id}`, p.live);
    expect(detail.json().esims[0].installUrl).toBe(replaced.installUrl);
    // Again: each call issues another link, and only the newest works.
    const again = (await replace(p.live, esim.iccid)).json();
    expect((await page(replaced.installUrl)).statusCode).toBe(404);
    expect((await page(again.installUrl)).statusCode).toBe(200);
  });

  it('another partner’s eSIM, the account’s own web order and an unknown ICCID are 404', async () => {
    const owner = await partner();
    const other = await partner();
    const placed = await order(owner.live);
    const foreign = await replace(other.live, placed.esims[0]!.iccid);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error.code).toBe('ESIM_NOT_FOUND');
    expect((await page(placed.esims[0]!.installUrl)).statusCode).toBe(200);

    // A web checkout of the same account: the Partner API does not see it (as GET /orders/{id}).
    const checkout = await t.app.inject({
      method: 'POST',
      url: '/api/v1/checkout',
      headers: owner.user.auth,
      payload: { planId, quantity: 1, paymentMethod: 'wallet' },
    });
    expect(checkout.statusCode, checkout.body).toBe(200);
    const webEsims = await t.app.inject({ url: '/api/v1/user/esims?channel=web', headers: owner.user.auth });
    const webIccid = webEsims.json().esims[0].iccid as string;
    expect((await replace(owner.live, webIccid)).statusCode).toBe(404);

    expect((await replace(owner.live, '8990000000000000000')).statusCode).toBe(404);
    expect((await replace({}, placed.esims[0]!.iccid)).statusCode).toBe(401);
  });

  it('test and live keys each see only their own mode’s eSIMs', async () => {
    const p = await partner();
    const live = (await order(p.live)).esims[0]!;
    const test = (await order(p.test)).esims[0]!;

    const testOnLive = await replace(p.test, live.iccid);
    expect(testOnLive.statusCode).toBe(404);
    expect(testOnLive.headers['x-livemode']).toBe('false');
    expect((await replace(p.live, test.iccid)).statusCode).toBe(404);
    expect((await page(live.installUrl)).statusCode).toBe(200);
    expect((await page(test.installUrl)).statusCode).toBe(200);

    const replaced = await replace(p.test, test.iccid);
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json().livemode).toBe(false);
    expect((await page(test.installUrl)).statusCode).toBe(404);
    // A test eSIM's page says so and offers no top-up.
    expect((await page(replaced.json().installUrl)).json()).toMatchObject({
      livemode: false,
      topUpUrl: null,
    });
  });
});
