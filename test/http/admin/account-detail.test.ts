import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, esims, orders } from '../../../src/db/schema/index.js';
import { membersRepository } from '../../../src/domain/partners/members.repository.js';
import { randomBase62 } from '../../../src/lib/crypto.js';
import { newId } from '../../../src/lib/ids.js';
import { SECOND } from '../../../src/lib/clock.js';
import { registerViaApi } from '../../helpers/accounts.js';
import { ADMIN_TOKEN, buildTestApp, type TestApp } from '../../helpers/app.js';
import { pickPlan } from '../../helpers/catalog.js';
import { fundWallet } from '../../helpers/factories.js';
import { signedInOperator, type SignedInOperator } from '../../helpers/operators.js';

type Customer = Awaited<ReturnType<typeof registerViaApi>>;

let t: TestApp;
let support: SignedInOperator;
let readonly: SignedInOperator;
let planId: string;
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

const detail = (id: string, headers: Record<string, string>) =>
  t.app.inject({ url: `/api/admin/v1/accounts/${id}`, headers });
const endSessions = (id: string, headers: Record<string, string>) =>
  t.app.inject({ method: 'DELETE', url: `/api/admin/v1/accounts/${id}/sessions`, headers });
/** A request that needs a session (GET /auth/me answers 200 with `user: null` without one). */
const orderList = (auth: Record<string, string>) =>
  t.app.inject({ url: '/api/v1/user/orders', headers: auth });
const login = (customer: Customer) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { email: customer.email, password: customer.password },
  });

async function insertOrderWithEsim(accountId: string, livemode: boolean) {
  const now = t.clock.now();
  const orderId = newId('ord');
  await t.container.db.insert(orders).values({
    id: orderId,
    orderNumber: `SVC-261127-${randomBase62(8).toUpperCase()}`,
    accountId,
    channel: livemode ? 'mobile' : 'partner',
    planId,
    quantity: 1,
    amountCents: 450,
    paymentMethod: 'wallet',
    status: 'COMPLETED',
    createdAt: now,
    updatedAt: now,
    completedAt: now,
    livemode,
  });
  const esimId = newId('esim');
  await t.container.db.insert(esims).values({
    id: esimId,
    orderId,
    accountId,
    planId,
    iccid: `89882280666${randomBase62(8).replace(/\D/g, '0').padEnd(8, '0')}`,
    providerRef: randomBase62(16),
    smdpAddress: 'smdp.example',
    matchingId: randomBase62(16),
    activationCode: 'LPA:1$smdp.example$SECRET-MATCHING-ID',
    qrToken: randomBase62(24),
    totalVolumeMb: 1024,
    dataUsageMb: 300,
    usageCheckedAt: now,
    usageUpdatedAt: now,
    status: 'ACTIVE',
    installState: 'ENABLED',
    livemode,
    createdAt: now,
    updatedAt: now,
  });
  return { orderId, esimId };
}

beforeAll(async () => {
  t = await buildTestApp({ env: { AUTH_RATE_LIMIT: '10000' } });
  planId = (await pickPlan(t.container)).id;
  support = await signedInOperator(t, 'support');
  readonly = await signedInOperator(t, 'readonly');
});
afterAll(() => t.close());

describe('GET /api/admin/v1/accounts/{id}', () => {
  it('shows support everything about one customer, and no secret', async () => {
    const customer = await registerViaApi(t.app, { firstName: 'Zeynep', lastName: 'Kaya' });
    await fundWallet(t.container, customer.id, 2500);
    const live = await insertOrderWithEsim(customer.id, true);
    t.clock.advance(SECOND);
    const test = await insertOrderWithEsim(customer.id, false);
    const ticket = await t.app.inject({
      method: 'POST',
      url: '/api/v1/support/tickets',
      headers: customer.auth,
      payload: { subject: 'No data in Rome', category: 'esim', message: 'It does not connect' },
    });
    expect(ticket.statusCode).toBe(201);
    const liveKey = await t.container.accounts.generateApiKey(customer.id, 'live');
    await t.container.pricing.setRule(customer.id, { rule: 'discount', percent: 12.5 });
    // The customer is also a developer on another partner's team.
    const partner = await registerViaApi(t.app, { firstName: 'Acme', lastName: 'Travel' });
    await membersRepository.upsert(t.container.db, {
      partnerId: partner.id,
      accountId: customer.id,
      role: 'developer',
      now: t.clock.now(),
    });

    const res = await detail(customer.id, readonly.headers);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json().account;
    expect(body.account).toEqual({
      id: customer.id,
      email: customer.email,
      emailVerified: false,
      firstName: 'Zeynep',
      lastName: 'Kaya',
      status: 'ACTIVE',
      locale: expect.any(String),
      preferredCurrency: 'USD',
      isPartner: true,
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: expect.any(String),
      deletedAt: null,
    });
    expect(body.wallet).toMatchObject({
      currency: 'USD',
      balance: 25,
      testBalance: null,
      moreTransactions: false,
    });
    expect(body.wallet.transactions).toEqual([
      expect.objectContaining({ kind: 'deposit', amount: 25, currency: 'USD', balanceAfter: 25 }),
    ]);
    // Newest first, test-mode ones included and marked.
    expect(body.orders.items.map((o: { id: string; livemode: boolean }) => [o.id, o.livemode])).toEqual([
      [test.orderId, false],
      [live.orderId, true],
    ]);
    expect(body.orders.items[1]).toMatchObject({ status: 'COMPLETED', amountUsd: 4.5, currency: 'USD' });
    expect(body.orders.items[1].planName).toEqual(expect.any(String));
    expect(body.esims.items.map((e: { id: string }) => e.id)).toEqual([test.esimId, live.esimId]);
    expect(body.esims.items[1]).toMatchObject({
      dataUsageMb: 300,
      totalVolumeMb: 1024,
      status: 'ACTIVE',
      installState: 'ENABLED',
      usageUpdatedAt: expect.any(String),
    });
    expect(body.tickets).toEqual({
      items: [
        expect.objectContaining({
          id: ticket.json().ticket.id,
          subject: 'No data in Rome',
          status: 'OPEN',
          messages: 1,
          lastAuthor: 'customer',
        }),
      ],
      more: false,
    });
    expect(body.sessions.live).toBe(1);
    expect(body.sessions.newest).toEqual([{ createdAt: expect.any(String), expiresAt: expect.any(String) }]);
    expect(body.apiKeys).toEqual({
      live: { prefix: liveKey.apiKeyPrefix, generatedAt: expect.any(String) },
      test: null,
    });
    expect(body.partner).toEqual({
      priceRule: { rule: 'discount', percent: 12.5, minMarginPercent: 5, updatedAt: expect.any(String) },
      memberOf: [{ partnerId: partner.id, email: partner.email, name: 'Acme Travel', role: 'developer' }],
    });
    // Never the key, the session token, the activation code or a hash.
    for (const secret of [liveKey.key, customer.token, 'SECRET-MATCHING-ID', 'argon2', 'Hash'])
      expect(res.body).not.toContain(secret);
  });

  it('shows a plain customer as no partner, with empty lists', async () => {
    const customer = await registerViaApi(t.app);
    const body = (await detail(customer.id, admin)).json().account;
    expect(body.account.isPartner).toBe(false);
    expect(body.orders).toEqual({ items: [], more: false });
    expect(body.esims).toEqual({ items: [], more: false });
    expect(body.tickets).toEqual({ items: [], more: false });
    expect(body.apiKeys).toEqual({ live: null, test: null });
    expect(body.partner).toEqual({ priceRule: null, memberOf: [] });
  });

  it('answers 404 for an unknown id', async () => {
    const res = await detail('acc_doesNotExist000000', support.headers);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: { code: 'ACCOUNT_NOT_FOUND', message: expect.any(String) } });
    const end = await endSessions('acc_doesNotExist000000', support.headers);
    expect(end.statusCode).toBe(404);
  });
});

describe('DELETE /api/admin/v1/accounts/{id}/sessions', () => {
  it('lets Support sign a customer out everywhere, audited with their name', async () => {
    const customer = await registerViaApi(t.app);
    const second = (await login(customer)).json().token as string;
    expect((await detail(customer.id, support.headers)).json().account.sessions.live).toBe(2);

    const res = await endSessions(customer.id, support.headers);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ended: 2 });
    expect((await orderList(customer.auth)).statusCode).toBe(401);
    expect((await orderList({ authorization: `Bearer ${second}` })).statusCode).toBe(401);
    expect((await detail(customer.id, support.headers)).json().account.sessions).toEqual({
      live: 0,
      newest: [],
    });

    const rows = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, customer.id), eq(auditLog.action, 'account.sessions.end')));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      actor: `operator:${support.id}`,
      targetType: 'account',
      before: { liveSessions: 2 },
      after: { liveSessions: 0 },
    });

    // The password still works: a new sign-in is a new session.
    expect((await login(customer)).statusCode).toBe(200);
    // Ending again ends only what is there now.
    expect((await endSessions(customer.id, admin)).json()).toEqual({ ended: 1 });
  });

  it('refuses Read-only (403 ROLE_FORBIDDEN) and leaves the sessions alone', async () => {
    const customer = await registerViaApi(t.app);
    const res = await endSessions(customer.id, readonly.headers);
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('ROLE_FORBIDDEN');
    expect((await orderList(customer.auth)).statusCode).toBe(200);
  });
});
