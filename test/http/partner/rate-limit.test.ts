import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders } from '../../../src/db/schema/index.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { pickPlan } from '../../helpers/catalog.js';
import { balanceOf, createUser } from '../../helpers/factories.js';
import { expectLedgerInvariant } from '../../helpers/ledger.js';

const WALLET = '/api/public/v1/wallet';
const ORDERS = '/api/public/v1/orders';

async function partnerKey(t: TestApp, balanceCents = 0): Promise<{ id: string; key: string }> {
  const user = await createUser(t.container, { balanceCents });
  const { key } = await t.container.apiKeys.generate(user.id);
  return { id: user.id, key };
}

function get(t: TestApp, key: string, url = WALLET) {
  return t.app.inject({ url, headers: { 'x-api-key': key } });
}

describe('Partner read budget (in-process or Redis, whichever the run uses)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('sends the rate-limit headers on every authenticated response', async () => {
    const { key } = await partnerKey(t);
    const first = await get(t, key);
    expect(first.statusCode).toBe(200);
    expect(first.headers['x-ratelimit-limit']).toBe('120');
    expect(first.headers['x-ratelimit-remaining']).toBe('119');
    const reset = Number(first.headers['x-ratelimit-reset']);
    expect(reset).toBeGreaterThan(0);
    expect(reset).toBeLessThanOrEqual(60);
    // Error responses of an authenticated partner carry them too.
    const missing = await get(t, key, '/api/public/v1/orders/ord_doesnotexist');
    expect(missing.headers['x-ratelimit-remaining']).toBe('118');
    // The catalog routes share the read budget.
    const catalog = await get(t, key, '/api/public/v1/destinations');
    expect(catalog.statusCode).toBe(200);
    expect(catalog.headers['x-ratelimit-remaining']).toBe('117');
    expect((await t.app.inject({ url: '/api/public/v1/destinations' })).statusCode).toBe(401);
  });

  it('refuses the 121st GET in a minute with 429 RATE_LIMITED and Retry-After', async () => {
    const { key } = await partnerKey(t);
    for (let i = 1; i <= 120; i++) {
      const res = await get(t, key);
      expect(res.statusCode, `request ${i}`).toBe(200);
    }
    const refused = await get(t, key);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ error: { code: 'RATE_LIMITED', message: expect.any(String) } });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers['x-ratelimit-limit']).toBe('120');
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    expect(refused.headers['x-ratelimit-reset']).toBe(refused.headers['retry-after']);
  });

  it('keeps the budget per account: a regenerated key continues it, another account is unaffected', async () => {
    const a = await partnerKey(t);
    const b = await partnerKey(t);
    for (let i = 0; i < 5; i++) await get(t, a.key);
    const { key: regenerated } = await t.container.apiKeys.generate(a.id);
    expect((await get(t, regenerated)).headers['x-ratelimit-remaining']).toBe('114');
    expect((await get(t, b.key)).headers['x-ratelimit-remaining']).toBe('119');
  });
});

describe('Partner order budget', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('allows 30 POST /orders a minute; the 31st is refused before the order core, reads go on', async () => {
    const plan = await pickPlan(t.container);
    const partner = await partnerKey(t, plan.effectivePriceCents * 40);
    const place = () =>
      t.app.inject({
        method: 'POST',
        url: ORDERS,
        headers: { 'x-api-key': partner.key },
        payload: { planId: plan.id, quantity: 1 },
      });
    for (let i = 1; i <= 30; i++) {
      const res = await place();
      expect(res.statusCode, `order ${i}`).toBe(201);
      expect(res.headers['x-ratelimit-limit']).toBe('30');
      expect(res.headers['x-ratelimit-remaining']).toBe(String(30 - i));
    }
    const refused = await place();
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe('RATE_LIMITED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await balanceOf(t.container, partner.id)).toBe(plan.effectivePriceCents * 10);
    const placed = await t.container.db.select().from(orders).where(eq(orders.accountId, partner.id));
    expect(placed).toHaveLength(30);
    // The read budget is separate.
    const read = await get(t, partner.key);
    expect(read.statusCode).toBe(200);
    expect(read.headers['x-ratelimit-limit']).toBe('120');
    await expectLedgerInvariant(t.container);
  });
});

describe.skipIf(!process.env.TEST_REDIS_URL)('two instances on one Redis', () => {
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    first = await buildTestApp();
    second = await buildTestApp({ shareWith: first });
  });
  afterAll(async () => {
    await second.close();
    await first.close();
  });

  it('share one order budget: 30 orders spread over both, the 31st refused', async () => {
    const plan = await pickPlan(first.container);
    const partner = await partnerKey(first, plan.effectivePriceCents * 40);
    const place = (instance: TestApp) =>
      instance.app.inject({
        method: 'POST',
        url: ORDERS,
        headers: { 'x-api-key': partner.key },
        payload: { planId: plan.id, quantity: 1 },
      });
    for (let i = 0; i < 30; i++) {
      const res = await place(i % 2 === 0 ? first : second);
      expect(res.statusCode, `order ${i + 1}`).toBe(201);
    }
    for (const instance of [first, second]) {
      const refused = await place(instance);
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBeDefined();
    }
    expect(await balanceOf(first.container, partner.id)).toBe(plan.effectivePriceCents * 10);
  });
});

describe.skipIf(Boolean(process.env.TEST_REDIS_URL))('two instances without Redis', () => {
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    first = await buildTestApp({ env: { PARTNER_READ_RATE_LIMIT: '2' } });
    second = await buildTestApp({ shareWith: first, env: { PARTNER_READ_RATE_LIMIT: '2' } });
  });
  afterAll(async () => {
    await second.close();
    await first.close();
  });

  it('count in-process, each instance on its own budget', async () => {
    const { key } = await partnerKey(first);
    expect([(await get(first, key)).statusCode, (await get(first, key)).statusCode]).toEqual([200, 200]);
    expect((await get(first, key)).statusCode).toBe(429);
    expect((await get(second, key)).statusCode).toBe(200);
  });
});

describe('Partner limits from the environment', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { PARTNER_READ_RATE_LIMIT: '3' } });
  });
  afterAll(() => t.close());

  it('applies PARTNER_READ_RATE_LIMIT', async () => {
    const { key } = await partnerKey(t);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await get(t, key)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});

describe('Redis unreachable', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Nothing listens on port 1: every limiter call fails at once.
    t = await buildTestApp({ env: { REDIS_URL: 'redis://127.0.0.1:1', PARTNER_READ_RATE_LIMIT: '2' } });
  });
  afterAll(() => t.close());

  it('falls back to in-process counters: still served within the limit, limited beyond it; /ready says 503', async () => {
    const { key } = await partnerKey(t, 500);
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      const res = await get(t, key);
      statuses.push(res.statusCode);
      if (res.statusCode === 200)
        expect(res.json()).toEqual({ balanceUsd: 5, currency: 'USD', lowBalanceThreshold: 50 });
    }
    expect(statuses).toEqual([200, 200, 429]);
    expect((await t.app.inject({ url: '/ready' })).statusCode).toBe(503);
  });
});
