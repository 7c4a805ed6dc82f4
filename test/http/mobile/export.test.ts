import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { pickPlan } from '../../helpers/catalog.js';
import { createUser, type TestUser } from '../../helpers/factories.js';
import { PARTNER_ROOT } from '../partner/helpers.js';
import { mobileShape } from '../security/shapes.js';

/**
 * GET /api/v1/user/export (issue 30 T10): the caller's profile, orders, eSIMs, wallet history and
 * tickets as one attachment; test-mode Partner rows under `testMode` only; nobody else's rows.
 */

interface ExportBody {
  format: string;
  exportedAt: string;
  profile: { id: string; email: string; walletBalance: number };
  orders: { id: string; orderNumber: string; esimIds: string[] }[];
  esims: { id: string; orderId: string; iccid: string }[];
  walletTransactions: { kind: string; amount: number; orderId: string | null }[];
  supportTickets: { id: string; subject: string; messages: { author: string; message: string }[] }[];
  pushDevices: { id: string; platform: string; pushToken: string }[];
  mails: { subject: string; status: string; createdAt: string }[];
  pushes: { deviceId: string; title: string; body: string; status: string }[];
  testMode: {
    walletBalance: number;
    orders: { id: string; orderNumber: string }[];
    esims: { id: string; orderId: string }[];
    walletTransactions: { kind: string; amount: number }[];
  };
}

describe('GET /api/v1/user/export', () => {
  let t: TestApp;
  let planId: string;
  let price: number;

  beforeAll(async () => {
    t = await buildTestApp();
    const plan = await pickPlan(t.container);
    planId = plan.id;
    price = plan.effectivePriceCents / 100;
  });
  afterAll(() => t.close());

  const exportOf = (user: TestUser) => t.app.inject({ url: '/api/v1/user/export', headers: user.auth });

  async function buy(user: TestUser): Promise<string> {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/checkout',
      headers: user.auth,
      payload: { planId, quantity: 1, paymentMethod: 'wallet' },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().orderId as string;
  }

  async function openTicket(user: TestUser, subject: string): Promise<string> {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/support/tickets',
      headers: user.auth,
      payload: { subject, category: 'esim', message: `${subject}: first message` },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().ticket.id as string;
  }

  /** A test-mode Partner API order: test key, paid from the test wallet. */
  async function testModeOrder(user: TestUser): Promise<string> {
    const key = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/api-key/generate',
      headers: user.auth,
      payload: { mode: 'test' },
    });
    const res = await t.app.inject({
      method: 'POST',
      url: `${PARTNER_ROOT}/orders`,
      headers: { 'x-api-key': key.json().key as string },
      payload: { planId, quantity: 1 },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  }

  it('needs a session', async () => {
    const res = await t.app.inject({ url: '/api/v1/user/export' });
    expect(res.statusCode).toBe(401);
  });

  it('is everything of the caller, as an attachment; test mode apart; nobody else’s rows', async () => {
    const me = await createUser(t.container, { balanceCents: 5000 });
    const other = await createUser(t.container, { balanceCents: 5000 });
    const myOrder = await buy(me);
    const otherOrder = await buy(other);
    const myTicket = await openTicket(me, 'Mine');
    await t.container.support.staffReply(myTicket, 'Staff answer');
    const otherTicket = await openTicket(other, 'Theirs');
    const testOrder = await testModeOrder(me);
    const otherTestOrder = await testModeOrder(other);
    // A device each, a push each, and a mail each whose text holds a one-time link.
    const myToken = `fcm-mine-${'x'.repeat(100)}`;
    for (const [user, token] of [
      [me, myToken],
      [other, `fcm-theirs-${'y'.repeat(100)}`],
    ] as const) {
      const device = await t.app.inject({
        method: 'POST',
        url: '/api/v1/user/push-devices',
        headers: user.auth,
        payload: { platform: 'ANDROID', pushToken: token },
      });
      expect(device.statusCode, device.body).toBe(200);
      const who = user === me ? 'Mine' : 'Theirs';
      await t.container.push.toAccount(
        t.container.db,
        user.id,
        { title: `${who} push`, body: 'Hi', data: {} },
        `t:${who}`,
      );
      await t.container.mailer.send({
        to: user.email,
        subject: `${who} mail`,
        text: `https://x.example/reset#${who}-one-time`,
      });
    }

    const res = await exportOf(me);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="esim-account-data-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json<ExportBody>();

    expect(body.format).toBe('esim-account-export/1');
    expect(body.profile).toMatchObject({ id: me.id, email: me.email, walletBalance: 50 - price });
    expect(body.orders.map((o) => o.id)).toEqual([myOrder]);
    expect(body.orders[0]!.orderNumber).toMatch(/^SVC-(?!API-)/);
    expect(body.esims).toHaveLength(1);
    expect(body.esims[0]!.orderId).toBe(myOrder);
    expect(body.orders[0]!.esimIds).toEqual([body.esims[0]!.id]);
    // Newest first: the purchase after the deposit.
    expect(body.walletTransactions.map((tx) => tx.kind)).toEqual(['purchase', 'deposit']);
    expect(body.walletTransactions[0]).toMatchObject({ amount: -price, orderId: myOrder });
    expect(body.supportTickets.map((x) => x.id)).toEqual([myTicket]);
    expect(body.supportTickets[0]!.messages).toMatchObject([
      { author: 'customer', message: 'Mine: first message' },
      { author: 'staff', message: 'Staff answer' },
    ]);

    expect(body.pushDevices).toMatchObject([{ platform: 'ANDROID', pushToken: myToken }]);
    expect(body.pushes).toMatchObject([
      { deviceId: body.pushDevices[0]!.id, title: 'Mine push', body: 'Hi' },
    ]);
    // Every mail to the address (the purchase's receipt among them, once its job ran), never a text.
    expect(body.mails.map((m) => m.subject)).toContain('Mine mail');
    expect(res.body).not.toContain('Mine-one-time');

    // Test mode: under testMode only, with the test wallet's own money.
    expect(body.testMode.orders.map((o) => o.id)).toEqual([testOrder]);
    expect(body.testMode.esims.map((e) => e.orderId)).toEqual([testOrder]);
    expect(body.testMode.walletBalance).toBeCloseTo(1000 - price, 2);
    expect(body.testMode.walletTransactions.map((tx) => tx.kind)).toEqual(['purchase', 'deposit']);
    expect(body.orders.map((o) => o.id)).not.toContain(testOrder);

    // The other account appears nowhere in the document.
    for (const foreign of [
      other.id,
      other.email,
      otherOrder,
      otherTicket,
      otherTestOrder,
      'Theirs',
      'fcm-theirs',
    ]) {
      expect(res.body, foreign).not.toContain(foreign);
    }
  });

  it('an account with nothing yet exports empty lists', async () => {
    const fresh = await createUser(t.container);
    const body = (await exportOf(fresh)).json<ExportBody>();
    expect(body).toMatchObject({
      orders: [],
      esims: [],
      walletTransactions: [],
      supportTickets: [],
      pushDevices: [],
      mails: [],
      pushes: [],
      testMode: { walletBalance: 0, orders: [], esims: [], walletTransactions: [] },
    });
  });

  it('is documented in the Mobile OpenAPI document as an attachment of the AccountExport schema', async () => {
    const doc = (await t.app.inject({ url: '/api/v1/openapi.json' })).json();
    const op = doc.paths['/api/v1/user/export'].get;
    expect(op.operationId).toBe('exportMyData');
    expect(op.responses['200'].content['application/json'].schema.$ref).toBe(
      '#/components/schemas/AccountExport',
    );
    expect(op.responses['200'].headers['Content-Disposition'].description).toMatch(/attachment/);
    expect(Object.keys(doc.components.schemas.AccountExport.properties)).toEqual([
      'format',
      'exportedAt',
      'profile',
      'orders',
      'esims',
      'walletTransactions',
      'supportTickets',
      'pushDevices',
      'mails',
      'pushes',
      'testMode',
    ]);
  });
});

describe('GET /api/v1/user/export, rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { EXPORT_LIMIT: '2' } });
  });
  afterAll(() => t.close());

  it('allows EXPORT_LIMIT documents per account per hour, then 429 with Retry-After; others unaffected', async () => {
    const [one, other] = [await createUser(t.container), await createUser(t.container)];
    const get = (user: TestUser) => t.app.inject({ url: '/api/v1/user/export', headers: user.auth });
    expect((await get(one)).statusCode).toBe(200);
    expect((await get(one)).statusCode).toBe(200);
    const refused = await get(one);
    expect(refused.statusCode).toBe(429);
    mobileShape(refused.json(), 'RATE_LIMITED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await get(other)).statusCode).toBe(200);
  });
});
