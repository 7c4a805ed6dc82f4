import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, walletTransactions } from '../../../src/db/schema/index.js';
import { ADMIN_TOKEN, buildTestApp, type TestApp } from '../../helpers/app.js';
import { pickPlan } from '../../helpers/catalog.js';
import { balanceOf, createUser, type TestUser } from '../../helpers/factories.js';
import { expectLedgerInvariant } from '../../helpers/ledger.js';

let t: TestApp;
let planId: string;
let priceCents: number;
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

beforeAll(async () => {
  t = await buildTestApp();
  const plan = await pickPlan(t.container);
  planId = plan.id;
  priceCents = plan.effectivePriceCents;
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST', url: string, payload?: object, headers = admin) =>
  t.app.inject({ method, url: `/api/admin/v1${url}`, headers, ...(payload ? { payload } : {}) });

async function failedOrder(user: TestUser): Promise<string> {
  await call('POST', '/sandbox/esim-provider/faults', { failNext: 1 });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/checkout',
    headers: user.auth,
    payload: { planId, paymentMethod: 'wallet' },
  });
  expect(res.statusCode).toBe(502);
  return res.json().orderId;
}

describe('admin orders', () => {
  it('GET /orders/:id shows the order with eSIMs and fulfillment attempts; unknown → 404; no token → 401', async () => {
    const user = await createUser(t.container, { balanceCents: priceCents });
    const orderId = await failedOrder(user);
    const res = await call('GET', `/orders/${orderId}`);
    expect(res.statusCode).toBe(200);
    const { order } = res.json();
    expect(order).toMatchObject({
      id: orderId,
      accountId: user.id,
      status: 'PROCESSING',
      amountUsd: priceCents / 100,
      fulfillmentAttempts: 1,
      esims: [],
    });
    expect(order.attempts).toEqual([
      expect.objectContaining({ attempt: 1, outcome: 'failure', source: 'request' }),
    ]);
    expect(order.lastError).toMatch(/fault/);
    expect((await call('GET', '/orders/ord_nope')).statusCode).toBe(404);
    expect(
      (await call('GET', `/orders/${orderId}`, undefined, { authorization: 'Bearer wrong-token-xxxxxxxx' }))
        .statusCode,
    ).toBe(401);
  });

  it('POST /orders/:id/retry runs an attempt now; a completed order → 409', async () => {
    const user = await createUser(t.container, { balanceCents: priceCents });
    const orderId = await failedOrder(user);
    const res = await call('POST', `/orders/${orderId}/retry`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().outcome).toBe('success');
    expect(res.json().order).toMatchObject({ status: 'COMPLETED' });
    expect(res.json().order.esims).toHaveLength(1);
    expect(res.json().order.attempts.map((a: { source: string }) => a.source)).toEqual(['request', 'admin']);
    const again = await call('POST', `/orders/${orderId}/retry`);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('INVALID_STATE');
    const audit = await t.container.db.select().from(auditLog).where(eq(auditLog.targetId, orderId));
    expect(audit.map((a) => a.action)).toContain('order.retry');
  });

  it('POST /orders/:id/refund refunds once (parallel calls too), with an audit row', async () => {
    const user = await createUser(t.container, { balanceCents: priceCents + 3 });
    const orderId = await failedOrder(user);
    expect(await balanceOf(t.container, user.id)).toBe(3);
    const results = await Promise.all([1, 2, 3].map(() => call('POST', `/orders/${orderId}/refund`)));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
    const ok = results.find((r) => r.statusCode === 200)!;
    expect(ok.json().order.status).toBe('REFUNDED');
    expect(await balanceOf(t.container, user.id)).toBe(priceCents + 3);
    const refunds = await t.container.db
      .select()
      .from(walletTransactions)
      .where(eq(walletTransactions.reference, `order:${orderId}:refund`));
    expect(refunds).toHaveLength(1);
    const audit = await t.container.db.select().from(auditLog).where(eq(auditLog.targetId, orderId));
    expect(audit.filter((a) => a.action === 'order.refund')).toHaveLength(1);
    // A refunded order is not retried by the background job.
    t.clock.advance(3_600_000);
    await t.container.worker.runDue();
    expect((await call('GET', `/orders/${orderId}`)).json().order.status).toBe('REFUNDED');
    await expectLedgerInvariant(t.container);
  });

  it('a completed order cannot be refunded here', async () => {
    const user = await createUser(t.container, { balanceCents: priceCents });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/checkout',
      headers: user.auth,
      payload: { planId, paymentMethod: 'wallet' },
    });
    const refund = await call('POST', `/orders/${res.json().orderId}/refund`);
    expect(refund.statusCode).toBe(409);
    expect(await balanceOf(t.container, user.id)).toBe(0);
  });

  it('sandbox controls validate input; unknown ICCID → 404', async () => {
    expect((await call('POST', '/sandbox/esim-provider/faults', { failNext: -1 })).statusCode).toBe(400);
    expect((await call('POST', '/sandbox/esim-provider/faults', { failNext: 0 })).json()).toEqual({
      failNext: 0,
    });
    const missing = await call('POST', '/sandbox/esim-provider/usage', {
      iccid: '8990000000000000000',
      usedMb: 1,
    });
    expect(missing.statusCode).toBe(404);
  });
});

describe('sandbox controls with another eSIM provider', () => {
  it('answer 409 INVALID_STATE', async () => {
    const other = await buildTestApp({
      env: {
        ESIM_PROVIDER: 'esimaccess',
        ESIMACCESS_ACCESS_CODE: 'x',
        ESIMACCESS_SECRET_KEY: 'y',
        ESIMACCESS_BASE_URL: 'http://127.0.0.1:9',
      },
    });
    try {
      const res = await other.app.inject({
        method: 'POST',
        url: '/api/admin/v1/sandbox/esim-provider/faults',
        headers: admin,
        payload: { failNext: 1 },
      });
      expect(res.statusCode).toBe(409);
      expect(res.json().error.code).toBe('INVALID_STATE');
    } finally {
      await other.close();
    }
  });
});
