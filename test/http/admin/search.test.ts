import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, esims, orders, payments } from '../../../src/db/schema/index.js';
import { newId } from '../../../src/lib/ids.js';
import { randomBase62 } from '../../../src/lib/crypto.js';
import { ADMIN_TOKEN, buildTestApp, type TestApp } from '../../helpers/app.js';
import { pickPlan } from '../../helpers/catalog.js';
import { createUser, type TestUser } from '../../helpers/factories.js';

let t: TestApp;
let planId: string;
let alice: TestUser;
let bob: TestUser;
let order: { id: string; orderNumber: string };
let esimId: string;
let paymentId: string;
const ICCID = '8988228066612345678';
const PROVIDER_REF = 'cs_test_a1B2c3D4e5F6';
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

const search = (q: string, headers: Record<string, string> = admin) =>
  t.app.inject({ method: 'GET', url: `/api/admin/v1/search?q=${encodeURIComponent(q)}`, headers });

async function named(user: TestUser, firstName: string, lastName: string): Promise<void> {
  await t.container.db.update(accounts).set({ firstName, lastName }).where(eq(accounts.id, user.id));
}

async function insertOrder(accountId: string) {
  const now = t.clock.now();
  const row = {
    id: newId('ord'),
    orderNumber: `SVC-261127-${randomBase62(8).toUpperCase()}`,
    accountId,
    channel: 'mobile' as const,
    planId,
    quantity: 1,
    amountCents: 450,
    paymentMethod: 'card' as const,
    status: 'COMPLETED' as const,
    createdAt: now,
    updatedAt: now,
    completedAt: now,
  };
  await t.container.db.insert(orders).values(row);
  return row;
}

async function insertEsim(accountId: string, orderId: string, iccid: string): Promise<string> {
  const id = newId('esim');
  const now = t.clock.now();
  await t.container.db.insert(esims).values({
    id,
    orderId,
    accountId,
    planId,
    iccid,
    providerRef: randomBase62(16),
    smdpAddress: 'smdp.example',
    matchingId: randomBase62(16),
    activationCode: 'LPA:1$smdp.example$x',
    qrToken: randomBase62(24),
    totalVolumeMb: 1024,
    status: 'ACTIVE',
    createdAt: now,
    updatedAt: now,
  });
  return id;
}

async function insertPayment(accountId: string, orderId: string, providerRef: string): Promise<string> {
  const id = newId('pay');
  const now = t.clock.now();
  await t.container.db.insert(payments).values({
    id,
    accountId,
    purpose: 'order',
    orderId,
    method: 'card',
    provider: 'stripe',
    providerRef,
    amountMinor: 450,
    currency: 'USD',
    usdCents: 450,
    exchangeRate: '1',
    status: 'paid',
    createdAt: now,
    updatedAt: now,
    paidAt: now,
  });
  return id;
}

beforeAll(async () => {
  t = await buildTestApp();
  planId = (await pickPlan(t.container)).id;
  alice = await createUser(t.container, { email: `zeynep-${randomBase62(6).toLowerCase()}@example.com` });
  await named(alice, 'Zeynep', 'Kaplanoğlu');
  bob = await createUser(t.container, { email: `bob-${randomBase62(6).toLowerCase()}@example.org` });
  await named(bob, 'Bob', 'Builder');
  order = await insertOrder(alice.id);
  esimId = await insertEsim(alice.id, order.id, ICCID);
  paymentId = await insertPayment(alice.id, order.id, PROVIDER_REF);
  // Bob's records: none of them may show up in a search for Alice's.
  const bobOrder = await insertOrder(bob.id);
  await insertEsim(bob.id, bobOrder.id, '8988228066699999999');
  await insertPayment(bob.id, bobOrder.id, 'cs_test_zzzzzzzzzzzz');
});
afterAll(() => t.close());

const empty = { accounts: [], orders: [], esims: [], payments: [] };

describe('GET /api/admin/v1/search', () => {
  it('an account id finds that account only', async () => {
    const res = await search(alice.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      ...empty,
      accounts: [
        {
          id: alice.id,
          email: alice.email,
          firstName: 'Zeynep',
          lastName: 'Kaplanoğlu',
          status: 'ACTIVE',
          createdAt: expect.any(String),
        },
      ],
    });
    expect((await search('acc_doesNotExist000000')).json()).toEqual(empty);
  });

  it('an e-mail finds the account exactly or by its beginning, in any case', async () => {
    const exact = (await search(`  ${alice.email.toUpperCase()} `)).json();
    expect(exact.accounts.map((a: { id: string }) => a.id)).toEqual([alice.id]);
    expect(exact.orders).toEqual([]);
    const prefix = (await search(alice.email.slice(0, alice.email.indexOf('@') + 3))).json();
    expect(prefix.accounts.map((a: { id: string }) => a.id)).toEqual([alice.id]);
    // Without '@' the beginning of an address still finds it.
    const start = (await search('bob-')).json();
    expect(start.accounts.map((a: { id: string }) => a.id)).toEqual([bob.id]);
    // '%' and '_' are literal characters, not wildcards.
    expect((await search('%@example.com')).json()).toEqual(empty);
  });

  it('a name finds accounts whose first, last or full name contains it', async () => {
    for (const q of ['kaplan', 'ZEYNEP', 'zeynep kap']) {
      const { accounts: hits } = (await search(q)).json();
      expect(
        hits.map((a: { id: string }) => a.id),
        q,
      ).toEqual([alice.id]);
    }
    expect((await search('nobody-by-this-name')).json()).toEqual(empty);
  });

  it('an order id or order number finds the order with its account', async () => {
    for (const q of [order.id, order.orderNumber, order.orderNumber.toLowerCase()]) {
      const body = (await search(q)).json();
      expect(body, q).toEqual({
        ...empty,
        orders: [
          {
            id: order.id,
            orderNumber: order.orderNumber,
            accountId: alice.id,
            accountEmail: alice.email,
            channel: 'mobile',
            status: 'COMPLETED',
            amountCents: 450,
            currency: 'USD',
            livemode: true,
            createdAt: expect.any(String),
          },
        ],
      });
    }
  });

  it('an ICCID or eSIM id finds the eSIM with its account', async () => {
    for (const q of [ICCID, esimId]) {
      const body = (await search(q)).json();
      expect(body, q).toEqual({
        ...empty,
        esims: [
          {
            id: esimId,
            iccid: ICCID,
            status: 'ACTIVE',
            accountId: alice.id,
            accountEmail: alice.email,
            orderId: order.id,
            livemode: true,
            createdAt: expect.any(String),
          },
        ],
      });
    }
    expect((await search('8988228066600000000')).json()).toEqual(empty);
  });

  it('a payment id or provider reference finds the payment', async () => {
    for (const q of [paymentId, PROVIDER_REF]) {
      const body = (await search(q)).json();
      expect(body, q).toEqual({
        ...empty,
        payments: [
          {
            id: paymentId,
            provider: 'stripe',
            providerRef: PROVIDER_REF,
            status: 'paid',
            amountMinor: 450,
            currency: 'USD',
            accountId: alice.id,
            orderId: order.id,
            createdAt: expect.any(String),
          },
        ],
      });
    }
    // A reference is matched exactly, never by its beginning.
    expect((await search('cs_test_a1B2')).json().payments).toEqual([]);
  });

  it('caps each kind at 10', async () => {
    for (let i = 0; i < 12; i++) {
      const user = await createUser(t.container);
      await named(user, 'Capella', `Many${i}`);
    }
    const { accounts: hits } = (await search('capella')).json();
    expect(hits).toHaveLength(10);
  });

  it('400 on an empty or too long q; 401 without the token', async () => {
    for (const q of ['', '   ', 'x'.repeat(201)]) {
      const res = await search(q);
      expect(res.statusCode, JSON.stringify(q)).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
    const missing = await t.app.inject({ method: 'GET', url: '/api/admin/v1/search', headers: admin });
    expect(missing.statusCode).toBe(400);
    expect((await search(alice.email, {})).statusCode).toBe(401);
    expect((await search(alice.email, { authorization: 'Bearer wrong-token-xxxxxxxx' })).statusCode).toBe(
      401,
    );
  });
});
