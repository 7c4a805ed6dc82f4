import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECOND } from '../../../src/lib/clock.js';
import { ADMIN_TOKEN, buildTestApp, type TestApp } from '../../helpers/app.js';
import { pickPlan } from '../../helpers/catalog.js';
import { BASE_URL } from '../../helpers/config.js';
import { createUser, type TestUser } from '../../helpers/factories.js';
import { createPartner, postOrder } from '../partner/helpers.js';

/**
 * Issue 30 T2 on the Mobile/Web API: every eSIM carries `installUrl`, the hosted install page
 * `/install/<token>`; its data are public at `GET /api/v1/install/{token}`; the owner replaces
 * the link with `POST /user/esims/{iccid}/install-link` and the old one answers 404.
 */

const USAGE_CACHE_SECONDS = 60;
const INSTALL_URL = new RegExp(`^${BASE_URL}/install/([A-Za-z0-9_-]{43})$`);
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

interface Esim {
  id: string;
  iccid: string;
  installUrl: string;
  qrCodeUrl: string;
  [field: string]: unknown;
}

let t: TestApp;
let planId: string;
let priceCents: number;

beforeAll(async () => {
  t = await buildTestApp({ env: { USAGE_CACHE_SECONDS: String(USAGE_CACHE_SECONDS) } });
  const plan = await pickPlan(t.container, { destination: 'TR' });
  planId = plan.id;
  priceCents = plan.effectivePriceCents;
});
afterAll(() => t.close());

async function buy(user: TestUser, quantity = 1): Promise<Esim[]> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/checkout',
    headers: user.auth,
    payload: { planId, quantity, paymentMethod: 'wallet' },
  });
  expect(res.statusCode, res.body).toBe(200);
  const list = await t.app.inject({ url: '/api/v1/user/esims', headers: user.auth });
  const ids = new Set<string>(res.json().esimIds);
  return (list.json().esims as Esim[]).filter((e) => ids.has(e.id));
}

const tokenOf = (installUrl: string) => INSTALL_URL.exec(installUrl)![1]!;
const page = (token: string, headers: Record<string, string> = {}) =>
  t.app.inject({ url: `/api/v1/install/${token}`, headers });
const replace = (user: TestUser | null, iccid: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/v1/user/esims/${iccid}/install-link`,
    headers: user ? user.auth : {},
  });

describe('installUrl on every Mobile eSIM', () => {
  it('list, detail and the operator’s order view carry one distinct link per eSIM', async () => {
    const user = await createUser(t.container, { balanceCents: priceCents * 2 });
    const esims = await buy(user, 2);
    expect(esims).toHaveLength(2);
    for (const esim of esims) {
      expect(esim.installUrl).toMatch(INSTALL_URL);
      // Its own token: the QR image URL does not open the page, nor the reverse.
      expect(esim.qrCodeUrl).not.toContain(tokenOf(esim.installUrl));
      const detail = await t.app.inject({ url: `/api/v1/user/esims/${esim.iccid}`, headers: user.auth });
      expect(detail.statusCode).toBe(200);
      expect(detail.headers['cache-control']).toBe('no-store');
      expect(detail.json().esim).toEqual(esim);
    }
    expect(new Set(esims.map((e) => e.installUrl)).size).toBe(2);
    const orderId = esims[0]!.orderId as string;
    const view = await t.app.inject({ url: `/api/admin/v1/orders/${orderId}`, headers: admin });
    expect(view.statusCode, view.body).toBe(200);
    const adminEsims = view.json().order.esims as Esim[];
    expect(adminEsims.map((e) => e.installUrl).sort()).toEqual(esims.map((e) => e.installUrl).sort());
  });

  it('GET /user/esims/{iccid}: another account’s or an unknown ICCID is 404, no session 401', async () => {
    const owner = await createUser(t.container, { balanceCents: priceCents });
    const other = await createUser(t.container);
    const [esim] = await buy(owner);
    const foreign = await t.app.inject({ url: `/api/v1/user/esims/${esim!.iccid}`, headers: other.auth });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().code).toBe('ESIM_NOT_FOUND');
    const unknown = await t.app.inject({
      url: '/api/v1/user/esims/8990000000000000000',
      headers: owner.auth,
    });
    expect(unknown.statusCode).toBe(404);
    expect((await t.app.inject({ url: `/api/v1/user/esims/${esim!.iccid}` })).statusCode).toBe(401);
  });
});

describe('GET /api/v1/install/{token} (public)', () => {
  it('answers what the page shows, without a session, and nothing of the account', async () => {
    const user = await createUser(t.container, { balanceCents: priceCents });
    const [esim] = await buy(user);
    const res = await page(tokenOf(esim!.installUrl), { 'accept-language': 'en' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(
      [
        'activatedAt',
        'activationCode',
        'dataUsage',
        'expiresAt',
        'iccid',
        'iosInstallUrl',
        'livemode',
        'matchingId',
        'planId',
        'planName',
        'qrCodeSvgUrl',
        'qrCodeUrl',
        'smdpAddress',
        'status',
        'topUpUrl',
        'totalVolume',
      ].sort(),
    );
    const same = [
      'activatedAt',
      'activationCode',
      'dataUsage',
      'expiresAt',
      'iccid',
      'iosInstallUrl',
      'matchingId',
      'planId',
      'qrCodeSvgUrl',
      'qrCodeUrl',
      'smdpAddress',
      'status',
      'totalVolume',
    ];
    for (const field of same) expect(body[field], field).toEqual(esim![field]);
    expect(body).toMatchObject({
      planName: 'Türkiye · 1 GB · 7 days',
      livemode: true,
      topUpUrl: `${BASE_URL}/destinations/TR?iccid=${esim!.iccid}`,
    });
    expect(res.body).not.toContain(user.id);
    expect(res.body).not.toContain(user.email);
    expect(res.body).not.toContain(esim!.id);
    // The plan name follows the caller's language.
    const tr = await page(tokenOf(esim!.installUrl), { 'accept-language': 'tr-TR,tr;q=0.9' });
    expect(tr.json().planName).toBe('Türkiye · 1 GB · 7 gün');
    const query = await page(`${tokenOf(esim!.installUrl)}?locale=tr`);
    expect(query.json().planName).toBe('Türkiye · 1 GB · 7 gün');
  });

  it('shows live usage, read from the provider and reused for USAGE_CACHE_SECONDS', async () => {
    const user = await createUser(t.container, { balanceCents: priceCents });
    const [esim] = await buy(user);
    const token = tokenOf(esim!.installUrl);
    const set = await t.app.inject({
      method: 'POST',
      url: '/api/admin/v1/sandbox/esim-provider/usage',
      headers: admin,
      payload: { iccid: esim!.iccid, usedMb: 300 },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect((await page(token)).json().dataUsage).toBe(0);
    t.clock.advance(USAGE_CACHE_SECONDS * SECOND);
    expect((await page(token)).json()).toMatchObject({ dataUsage: 300, status: 'ACTIVE' });
  });

  it('an unknown token is 404 ESIM_NOT_FOUND; a malformed one 400', async () => {
    const unknown = await page('A'.repeat(43));
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('ESIM_NOT_FOUND');
    expect((await page('short')).statusCode).toBe(400);
  });

  it('a Partner API eSIM’s page has no top-up link (its seller tops it up)', async () => {
    const p = await createPartner(t, priceCents);
    const order = await postOrder(t, p.headers, { planId, quantity: 1 });
    expect(order.statusCode, order.body).toBe(201);
    const res = await page(tokenOf(order.json().esims[0].installUrl));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ topUpUrl: null, livemode: true });
  });
});

describe('POST /user/esims/{iccid}/install-link', () => {
  it('issues a new link; the old one answers 404, the QR code keeps working', async () => {
    const user = await createUser(t.container, { balanceCents: priceCents });
    const [esim] = await buy(user);
    const old = tokenOf(esim!.installUrl);
    const res = await replace(user, esim!.iccid);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const replaced = res.json().esim as Esim;
    expect(replaced.installUrl).toMatch(INSTALL_URL);
    expect(replaced.installUrl).not.toBe(esim!.installUrl);
    expect({ ...replaced, installUrl: null }).toEqual({ ...esim, installUrl: null });

    expect((await page(old)).statusCode).toBe(404);
    expect((await page(tokenOf(replaced.installUrl))).statusCode).toBe(200);
    const list = await t.app.inject({ url: '/api/v1/user/esims', headers: user.auth });
    expect(list.json().esims[0].installUrl).toBe(replaced.installUrl);
    expect((await t.app.inject({ url: new URL(esim!.qrCodeUrl).pathname })).statusCode).toBe(200);
  });

  it('another account’s ICCID is 404 and leaves its link as it was; no session is 401', async () => {
    const owner = await createUser(t.container, { balanceCents: priceCents });
    const other = await createUser(t.container);
    const [esim] = await buy(owner);
    const res = await replace(other, esim!.iccid);
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('ESIM_NOT_FOUND');
    expect((await replace(null, esim!.iccid)).statusCode).toBe(401);
    expect((await page(tokenOf(esim!.installUrl))).statusCode).toBe(200);
  });

  it('also replaces the link of the account’s Partner API eSIMs (the owner holds both)', async () => {
    const p = await createPartner(t, priceCents);
    const order = await postOrder(t, p.headers, { planId, quantity: 1 });
    const esim = order.json().esims[0] as Esim;
    const { token } = await t.container.sessions.issue(t.container.db, p.id);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/user/esims/${esim.iccid}/install-link`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await page(tokenOf(esim.installUrl))).statusCode).toBe(404);
    const detail = await t.app.inject({
      url: `/api/public/v1/orders/${order.json().id}`,
      headers: p.headers,
    });
    expect(detail.json().esims[0].installUrl).toBe(res.json().esim.installUrl);
  });
});
