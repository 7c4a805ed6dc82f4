import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { esims, orders, payments, walletTransactions } from '../../src/db/schema/index.js';
import { signSandboxPayload } from '../../src/providers/payments/sandbox.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { balanceOf, createPlan, createUser, type TestUser } from '../helpers/factories.js';
import { GB, startFakeEsimAccess } from '../helpers/fake-esimaccess-profiles.js';
import { expectLedgerInvariant } from '../helpers/ledger.js';

/**
 * Provider faults (issue 14): eSIM Access timeouts, 5xx and malformed bodies on order, usage and
 * top-up; payment webhooks delayed, repeated and reordered. Whatever happens, no money is lost
 * or duplicated: a charged order ends COMPLETED (vendor charged once) or REFUNDED, every credit
 * is posted once, and every balance equals the sum of its ledger.
 */
const SECOND = 1000;
const RETRY_BASE_SECONDS = 30;
const credentials = { accessCode: 'ACCESS-F', secretKey: 'secret-key-f' };
const packages = {
  CKH002: { price: 18_000, volume: 3 * GB, duration: 30 },
  TOPUP_CKH002: { price: 9_000, volume: GB, duration: 30 },
};

type Fault = 'timeout' | 'lost' | 'http500' | 'http503' | 'malformed' | 'badshape';

/**
 * A proxy in front of the eSIM Access fake that applies the next queued fault of a path:
 * `timeout` never answers; `lost` forwards (the vendor acts) and then never answers; `http5xx`
 * answers an HTML error page; `malformed` is 200 with a body that is not JSON; `badshape` is a
 * successful envelope whose `obj` lacks every expected field.
 */
async function startFaultProxy(upstream: string) {
  const faults = new Map<string, Fault[]>();
  const seen: string[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '').replace('/api/v1/open/', '');
      const fault = faults.get(path)?.shift();
      seen.push(`${path}:${fault ?? 'ok'}`);
      const forward = (reply: boolean) => {
        const up = httpRequest(`${upstream}${req.url}`, { method: req.method, headers: req.headers }, (r) => {
          const body: Buffer[] = [];
          r.on('data', (c: Buffer) => body.push(c));
          r.on('end', () => {
            if (!reply) return; // the vendor acted; the answer is lost on the way back
            res.writeHead(r.statusCode ?? 502, { 'content-type': 'application/json' });
            res.end(Buffer.concat(body));
          });
        });
        up.end(Buffer.concat(chunks));
      };
      switch (fault) {
        case undefined:
          return forward(true);
        case 'lost':
          return forward(false);
        case 'timeout':
          return; // hold the request until the client gives up
        case 'http500':
        case 'http503':
          res.writeHead(fault === 'http500' ? 500 : 503, { 'content-type': 'text/html' });
          return res.end('<html><body>upstream error</body></html>');
        case 'malformed':
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end('{"success":true,"obj":{"orderNo":');
        case 'badshape':
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end(
            JSON.stringify({
              success: true,
              errorCode: '0',
              obj: { esimList: [{ surprise: true }], nothing: 1 },
            }),
          );
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    seen,
    inject(path: string, ...list: Fault[]) {
      faults.set(path, [...(faults.get(path) ?? []), ...list]);
    },
    clear: () => faults.clear(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let fake: Awaited<ReturnType<typeof startFakeEsimAccess>>;
let proxy: Awaited<ReturnType<typeof startFaultProxy>>;
let t: TestApp;
let planId: string;
let topUpPlanId: string;
let sandboxSecret: string;
const PRICE = 299;
const TOPUP_PRICE = 149;

beforeAll(async () => {
  fake = await startFakeEsimAccess({ ...credentials, balance: 100_000_000, packages });
  proxy = await startFaultProxy(fake.baseUrl);
  t = await buildTestApp({
    env: {
      ESIM_PROVIDER: 'esimaccess',
      ESIMACCESS_ACCESS_CODE: credentials.accessCode,
      ESIMACCESS_SECRET_KEY: credentials.secretKey,
      ESIMACCESS_BASE_URL: proxy.baseUrl,
      ESIMACCESS_ALLOCATION_WAIT_MS: '300',
      ESIMACCESS_TIMEOUT_MS: '300',
      FULFILLMENT_RETRY_BASE_SECONDS: String(RETRY_BASE_SECONDS),
      FULFILLMENT_MAX_ATTEMPTS: '4',
    },
  });
  sandboxSecret = await t.container.paymentProviders.sandboxSecret();
  planId = (
    await createPlan(t.container, { providerPackageCode: 'CKH002', wholesaleCents: 180, priceCents: PRICE })
  ).id;
  topUpPlanId = (
    await createPlan(t.container, {
      providerPackageCode: 'TOPUP_CKH002',
      wholesaleCents: 90,
      priceCents: TOPUP_PRICE,
      isTopUp: true,
    })
  ).id;
});
afterAll(async () => {
  await t.close();
  await proxy.close();
  await fake.close();
});
afterEach(async () => {
  proxy.clear();
  await expectLedgerInvariant(t.container);
});

function checkout(user: TestUser, body: Record<string, unknown>) {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/checkout',
    headers: user.auth,
    payload: { paymentMethod: 'wallet', ...body },
  });
}

async function orderRow(id: string) {
  const [row] = await t.container.db.select().from(orders).where(eq(orders.id, id));
  return row!;
}

async function ledgerOf(orderId: string) {
  return t.container.db.select().from(walletTransactions).where(eq(walletTransactions.orderId, orderId));
}

/** Lets the background retries run until the order leaves PROCESSING (bounded). */
async function runRetries(orderId: string) {
  for (let i = 0; i < 8 && (await orderRow(orderId)).status === 'PROCESSING'; i++) {
    t.clock.advance(RETRY_BASE_SECONDS * SECOND * 2 ** i + SECOND);
    await t.container.worker.runDue();
  }
  return orderRow(orderId);
}

/** The vendor sold exactly one order for our order id (its transactionId). */
function vendorOrdersFor(orderId: string) {
  return [...fake.state.orders.values()].filter((o) => o.transactionId === orderId);
}

describe('eSIM provider faults on order', () => {
  const cases: Array<[string, string, Fault[]]> = [
    ['times out', 'esim/order', ['timeout']],
    ['acts but the answer is lost (timeout after the vendor charged)', 'esim/order', ['lost']],
    ['answers HTTP 500', 'esim/order', ['http500']],
    ['answers HTTP 503 twice', 'esim/order', ['http503', 'http503']],
    ['answers a body that is not JSON', 'esim/order', ['malformed']],
    ['answers a success without an order number', 'esim/order', ['badshape']],
    ['times out while the profiles are queried', 'esim/query', ['timeout']],
    ['answers profiles without any field', 'esim/query', ['badshape']],
  ];
  it.each(cases)(
    'vendor %s: 502 FULFILLMENT_FAILED, charged once, then completed by the retry, vendor paid once',
    async (_, path, faults) => {
      const user = await createUser(t.container, { balanceCents: PRICE });
      proxy.inject(path, ...faults);
      const res = await checkout(user, { planId });
      expect(res.statusCode, res.body).toBe(502);
      expect(res.json()).toMatchObject({ code: 'FULFILLMENT_FAILED' });
      expect(res.body).not.toMatch(/esimaccess|127\.0\.0\.1|at .*\.ts|Error:/);
      const orderId = res.json().orderId as string;
      expect((await orderRow(orderId)).status).toBe('PROCESSING');
      expect(await balanceOf(t.container, user.id)).toBe(0);

      const done = await runRetries(orderId);
      expect(done.status).toBe('COMPLETED');
      expect(await t.container.db.select().from(esims).where(eq(esims.orderId, orderId))).toHaveLength(1);
      expect(vendorOrdersFor(orderId)).toHaveLength(1);
      expect((await ledgerOf(orderId)).map((w) => w.kind)).toEqual(['purchase']);
      expect(await balanceOf(t.container, user.id)).toBe(0);
    },
  );

  it('a vendor that keeps failing: the order is refunded once and nothing stays charged', async () => {
    const user = await createUser(t.container, { balanceCents: PRICE });
    proxy.inject('esim/order', 'http500', 'malformed', 'timeout', 'http503', 'http500', 'http500');
    const res = await checkout(user, { planId });
    expect(res.statusCode).toBe(502);
    const orderId = res.json().orderId as string;
    const done = await runRetries(orderId);
    expect(done.status).toBe('REFUNDED');
    expect((await ledgerOf(orderId)).map((w) => w.kind).sort()).toEqual(['purchase', 'refund']);
    expect(await balanceOf(t.container, user.id)).toBe(PRICE);
    expect(vendorOrdersFor(orderId)).toHaveLength(0);
  });
});

describe('eSIM provider faults on usage', () => {
  it.each<Fault>(['timeout', 'http500', 'malformed', 'badshape'])(
    'usage query %s: the eSIM list still answers 200 with the cached usage',
    async (fault) => {
      const user = await createUser(t.container, { balanceCents: PRICE });
      const res = await checkout(user, { planId });
      expect(res.statusCode, res.body).toBe(200);
      t.clock.advance(10 * 60 * SECOND); // past USAGE_CACHE_SECONDS: the next read asks the vendor
      proxy.inject('esim/usage/query', fault);
      const list = await t.app.inject({ method: 'GET', url: '/api/v1/user/esims', headers: user.auth });
      expect(list.statusCode, list.body).toBe(200);
      expect(list.body).not.toMatch(/esimaccess|127\.0\.0\.1|Error:/);
      expect(proxy.seen.at(-1)).toBe(`esim/usage/query:${fault}`);
      expect(await balanceOf(t.container, user.id)).toBe(0);
    },
  );
});

describe('eSIM provider faults on top-up', () => {
  it.each<[string, Fault[]]>([
    ['times out', ['timeout']],
    ['acts but the answer is lost', ['lost']],
    ['answers HTTP 500', ['http500']],
    ['answers a body that is not JSON', ['malformed']],
  ])('top-up call %s: charged once, the volume is added once', async (_, faults) => {
    const user = await createUser(t.container, { balanceCents: PRICE + TOPUP_PRICE });
    const first = await checkout(user, { planId });
    expect(first.statusCode, first.body).toBe(200);
    const [esim] = await t.container.db.select().from(esims).where(eq(esims.orderId, first.json().orderId));
    const profile = fake.state.profiles.get(esim!.providerRef)!;
    const volumeBefore = profile.totalVolume;

    proxy.inject('esim/topup', ...faults);
    const res = await checkout(user, { planId: topUpPlanId, iccid: esim!.iccid });
    expect(res.statusCode, res.body).toBe(502);
    const orderId = res.json().orderId as string;
    const done = await runRetries(orderId);
    expect(done.status).toBe('COMPLETED');
    expect(profile.topUps.filter((tx) => tx === orderId)).toHaveLength(1);
    expect(profile.totalVolume).toBe(volumeBefore + GB);
    expect((await ledgerOf(orderId)).map((w) => w.kind)).toEqual(['purchase']);
    expect(await balanceOf(t.container, user.id)).toBe(0);
  });
});

describe('payment webhooks delayed, repeated and reordered (card order through the sandbox provider)', () => {
  async function cardOrder(user: TestUser) {
    const res = await checkout(user, { planId, paymentMethod: 'card' });
    expect(res.statusCode, res.body).toBe(200);
    const orderId = res.json().orderId as string;
    const [payment] = await t.container.db.select().from(payments).where(eq(payments.orderId, orderId));
    return { orderId, payment: payment! };
  }

  function signedEvent(
    payment: { id: string; providerRef: string | null; amountMinor: number },
    type: string,
  ) {
    const status = type.endsWith('paid') ? 'paid' : 'cancelled';
    const body = JSON.stringify({
      id: `evt_${payment.providerRef}_${status}`,
      type,
      data: {
        object: {
          id: payment.providerRef,
          reference: payment.id,
          amountMinor: payment.amountMinor,
          currency: 'USD',
          status,
        },
      },
    });
    const signature = signSandboxPayload(sandboxSecret, body, Math.floor(t.clock.now().getTime() / 1000));
    return () =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/payments/card/webhook',
        headers: { 'content-type': 'application/json', 'sandbox-signature': signature },
        payload: body,
      });
  }

  it('repeated: the paid event delivered 20 times at once charges and fulfils once', async () => {
    const user = await createUser(t.container);
    const { orderId, payment } = await cardOrder(user);
    const deliver = signedEvent(payment, 'card.paid');
    const replies = await Promise.all(Array.from({ length: 20 }, () => deliver()));
    expect(replies.map((r) => r.statusCode).every((s) => s === 200)).toBe(true);
    await t.container.worker.runDue();
    expect((await orderRow(orderId)).status).toBe('COMPLETED');
    // The card payment was credited once and spent once on the order.
    expect((await ledgerOf(orderId)).map((w) => w.kind).sort()).toEqual(['deposit', 'purchase']);
    expect(vendorOrdersFor(orderId)).toHaveLength(1);
    expect(await balanceOf(t.container, user.id)).toBe(0);
  });

  it('reordered: "cancelled" after "paid" changes nothing; "paid" after "cancelled" is credited to the wallet once', async () => {
    const a = await createUser(t.container);
    const first = await cardOrder(a);
    expect((await signedEvent(first.payment, 'card.paid')()).statusCode).toBe(200);
    expect((await signedEvent(first.payment, 'card.cancelled')()).statusCode).toBe(200);
    await t.container.worker.runDue();
    expect((await orderRow(first.orderId)).status).toBe('COMPLETED');
    expect(await balanceOf(t.container, a.id)).toBe(0);

    const b = await createUser(t.container);
    const second = await cardOrder(b);
    expect((await signedEvent(second.payment, 'card.cancelled')()).statusCode).toBe(200);
    expect((await orderRow(second.orderId)).status).toBe('CANCELLED');
    const late = await signedEvent(second.payment, 'card.paid')();
    expect(late.statusCode).toBe(200);
    await t.container.worker.runDue();
    // Paid after all: the order stays cancelled and the money is credited to the wallet, once.
    expect((await orderRow(second.orderId)).status).toBe('CANCELLED');
    expect(await balanceOf(t.container, b.id)).toBe(PRICE);
    expect((await signedEvent(second.payment, 'card.paid')()).statusCode).toBe(200);
    expect(await balanceOf(t.container, b.id)).toBe(PRICE);
    expect(vendorOrdersFor(second.orderId)).toHaveLength(0);
  });

  it('delayed: a paid event arriving after the unpaid order expired is credited to the wallet once', async () => {
    const user = await createUser(t.container);
    const { orderId, payment } = await cardOrder(user);
    t.clock.advance(25 * 60 * 60 * SECOND); // past the 24 h unpaid window
    await t.container.worker.runDue();
    expect((await orderRow(orderId)).status).toBe('CANCELLED');
    // The provider retried for a day; each delivery is signed when it is sent.
    const deliver = signedEvent(payment, 'card.paid');
    const replies = [await deliver(), await deliver()];
    expect(replies.map((r) => r.statusCode)).toEqual([200, 200]);
    expect((await orderRow(orderId)).status).toBe('CANCELLED');
    const balance = await balanceOf(t.container, user.id);
    const deposits = (
      await t.container.db.select().from(walletTransactions).where(eq(walletTransactions.accountId, user.id))
    ).filter((w) => w.kind === 'deposit');
    expect(deposits).toHaveLength(1);
    expect(balance).toBe(PRICE);
    expect(vendorOrdersFor(orderId)).toHaveLength(0);
  });
});
