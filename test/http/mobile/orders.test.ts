import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECOND } from '../../../src/lib/clock.js';
import { luhnCheckDigit } from '../../../src/providers/esim/sandbox/profiles.js';
import { ADMIN_TOKEN, buildTestApp, type TestApp } from '../../helpers/app.js';
import { pickPlan } from '../../helpers/catalog.js';
import { createUser, type TestUser } from '../../helpers/factories.js';

const USAGE_CACHE_SECONDS = 60;
let t: TestApp;
let planId: string;
let priceCents: number;

beforeAll(async () => {
  t = await buildTestApp({ env: { USAGE_CACHE_SECONDS: String(USAGE_CACHE_SECONDS) } });
  const plan = await pickPlan(t.container);
  planId = plan.id;
  priceCents = plan.effectivePriceCents;
});
afterAll(() => t.close());

async function buy(user: TestUser, quantity = 1) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/checkout',
    headers: user.auth,
    payload: { planId, quantity, paymentMethod: 'wallet' },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ orderId: string; esimIds: string[] }>();
}

const get = (user: TestUser | null, url: string) =>
  t.app.inject({ method: 'GET', url, headers: user ? user.auth : {} });

describe('GET /user/orders and /user/orders/:id', () => {
  it('lists my orders newest first with esimIds; detail carries the same shape', async () => {
    const user = await createUser(t.container, { balanceCents: priceCents * 3 });
    const first = await buy(user, 2);
    t.clock.advance(SECOND);
    const second = await buy(user);
    const res = await get(user, '/api/v1/user/orders');
    expect(res.statusCode).toBe(200);
    const list = res.json().orders;
    expect(list.map((o: { id: string }) => o.id)).toEqual([second.orderId, first.orderId]);
    expect(list[1]).toEqual({
      id: first.orderId,
      orderNumber: expect.stringMatching(/^SVC-/),
      status: 'COMPLETED',
      planId,
      planName: 'Türkiye · 1 GB · 7 days',
      quantity: 2,
      amount: (priceCents * 2) / 100,
      currency: 'USD',
      paymentMethod: 'wallet',
      esimIds: expect.arrayContaining(first.esimIds),
      topUpIccid: null,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      completedAt: expect.any(String),
    });
    const detail = await get(user, `/api/v1/user/orders/${first.orderId}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.json().order).toEqual(list[1]);
  });

  it('another account’s order is 404; no session is 401', async () => {
    const owner = await createUser(t.container, { balanceCents: priceCents });
    const other = await createUser(t.container);
    const { orderId } = await buy(owner);
    const res = await get(other, `/api/v1/user/orders/${orderId}`);
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('ORDER_NOT_FOUND');
    expect((await get(other, '/api/v1/user/orders/ord_missing')).statusCode).toBe(404);
    expect((await get(other, '/api/v1/user/orders')).json().orders).toEqual([]);
    expect((await get(null, '/api/v1/user/orders')).statusCode).toBe(401);
    expect((await get(null, '/api/v1/user/esims')).statusCode).toBe(401);
  });
});

describe('planName (issue 30 T5)', () => {
  it('names the plan in the account language, else Accept-Language; never by id', async () => {
    const turkish = await createUser(t.container, { balanceCents: priceCents, locale: 'tr' });
    const { orderId } = await buy(turkish);
    const withHeader = (url: string, language: string) =>
      t.app.inject({ method: 'GET', url, headers: { ...turkish.auth, 'accept-language': language } });
    // The account's language wins over the header, as on the destinations.
    const orders = await withHeader('/api/v1/user/orders', 'de');
    expect(orders.json().orders[0].planName).toBe('Türkiye · 1 GB · 7 gün');
    const order = await withHeader(`/api/v1/user/orders/${orderId}`, 'en');
    expect(order.json().order.planName).toBe('Türkiye · 1 GB · 7 gün');
    const esims = await withHeader('/api/v1/user/esims', 'en');
    const [esim] = esims.json().esims;
    expect(esim.planName).toBe('Türkiye · 1 GB · 7 gün');
    const one = await withHeader(`/api/v1/user/esims/${esim.iccid}`, 'en');
    expect(one.json().esim.planName).toBe('Türkiye · 1 GB · 7 gün');
    // An account language the API has no names for falls back to Accept-Language.
    const other = await createUser(t.container, { balanceCents: priceCents, locale: 'xx' });
    await buy(other);
    const german = await t.app.inject({
      method: 'GET',
      url: '/api/v1/user/orders',
      headers: { ...other.auth, 'accept-language': 'de-DE,de;q=0.9' },
    });
    expect(german.json().orders[0].planName.replace(/\s/g, ' ')).toBe('Türkei · 1 GB · 7 Tage');
  });
});

describe('GET /user/esims', () => {
  it('returns every field; ICCID, LPA and install link are well formed; other accounts see none', async () => {
    const user = await createUser(t.container, { balanceCents: priceCents });
    const { orderId, esimIds } = await buy(user);
    const res = await get(user, '/api/v1/user/esims');
    expect(res.statusCode).toBe(200);
    const [esim] = res.json().esims;
    expect(esim.id).toBe(esimIds[0]);
    expect(esim).toMatchObject({
      orderId,
      planId,
      planName: 'Türkiye · 1 GB · 7 days',
      status: 'PENDING',
      dataUsage: 0,
      activatedAt: null,
    });
    expect(esim.totalVolume).toBeGreaterThan(0);
    expect(esim.iccid).toMatch(/^89\d{17,18}$/);
    expect(Number(esim.iccid.at(-1))).toBe(luhnCheckDigit(esim.iccid.slice(0, -1)));
    expect(esim.activationCode).toBe(`LPA:1$${esim.smdpAddress}$${esim.matchingId}`);
    expect(esim.iosInstallUrl).toBe(
      `https://esimsetup.apple.com/esim_qrcode_provisioning?carddata=${esim.activationCode}`,
    );
    expect(esim.qrCodeUrl).toMatch(/^http:\/\/localhost:3000\/api\/v1\/esims\/[A-Za-z0-9_-]{32}\/qr\.png$/);
    expect(esim.expiresAt).toMatch(/Z$/);
    const other = await createUser(t.container);
    expect((await get(other, '/api/v1/user/esims')).json().esims).toEqual([]);
  });

  it('usage comes from the provider and is reused for USAGE_CACHE_SECONDS', async () => {
    const user = await createUser(t.container, { balanceCents: priceCents });
    await buy(user);
    const [esim] = (await get(user, '/api/v1/user/esims')).json().esims;
    const set = await t.app.inject({
      method: 'POST',
      url: '/api/admin/v1/sandbox/esim-provider/usage',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      payload: { iccid: esim.iccid, usedMb: 300 },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect((await get(user, '/api/v1/user/esims')).json().esims[0].dataUsage).toBe(0);
    t.clock.advance(USAGE_CACHE_SECONDS * SECOND);
    const fresh = (await get(user, '/api/v1/user/esims')).json().esims[0];
    expect(fresh).toMatchObject({ dataUsage: 300, status: 'ACTIVE' });
  });
});

describe('QR codes', () => {
  it('serves a PNG and an SVG of the LPA string without a session; unknown token → 404', async () => {
    const user = await createUser(t.container, { balanceCents: priceCents });
    await buy(user);
    const [esim] = (await get(user, '/api/v1/user/esims')).json().esims;
    const path = new URL(esim.qrCodeUrl).pathname;
    const png = await get(null, path);
    expect(png.statusCode).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.headers['cache-control']).toMatch(/^private, max-age=\d+$/);
    expect(png.rawPayload.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    const svg = await get(null, new URL(esim.qrCodeSvgUrl).pathname);
    expect(svg.statusCode).toBe(200);
    expect(svg.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(svg.body).toContain('<svg');
    const missing = await get(null, '/api/v1/esims/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/qr.png');
    expect(missing.statusCode).toBe(404);
  });
});
