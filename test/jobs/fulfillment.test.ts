import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  esims,
  fulfillmentAttempts,
  jobs,
  orders,
  supportTickets,
  walletTransactions,
} from '../../src/db/schema/index.js';
import { SECOND } from '../../src/lib/clock.js';
import type { EsimProvider } from '../../src/providers/esim/types.js';
import { ADMIN_TOKEN, buildTestApp, type TestApp } from '../helpers/app.js';
import { pickPlan } from '../helpers/catalog.js';
import { balanceOf, createUser, type TestUser } from '../helpers/factories.js';
import { expectLedgerInvariant } from '../helpers/ledger.js';

/** A test that builds an app of its own spends what is otherwise hook time. */
const PER_APP_TEST_TIMEOUT_MS = 60_000;

const RETRY_BASE_SECONDS = 10;
const MAX_ATTEMPTS = 3;
const SUPPORT_EMAIL = 'ops@example.com';
const env = {
  FULFILLMENT_RETRY_BASE_SECONDS: String(RETRY_BASE_SECONDS),
  FULFILLMENT_MAX_ATTEMPTS: String(MAX_ATTEMPTS),
  SUPPORT_EMAIL,
};

let t: TestApp;
let planId: string;
let priceCents: number;

beforeAll(async () => {
  t = await buildTestApp({ env });
  const plan = await pickPlan(t.container);
  planId = plan.id;
  priceCents = plan.effectivePriceCents;
});
afterAll(() => t.close());

const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

function failNext(app: TestApp, n: number) {
  return app.app.inject({
    method: 'POST',
    url: '/api/admin/v1/sandbox/esim-provider/faults',
    headers: admin,
    payload: { failNext: n },
  });
}

function checkout(app: TestApp, user: TestUser) {
  return app.app.inject({
    method: 'POST',
    url: '/api/v1/checkout',
    headers: user.auth,
    payload: { planId, paymentMethod: 'wallet' },
  });
}

async function orderOf(app: TestApp, id: string) {
  const [row] = await app.container.db.select().from(orders).where(eq(orders.id, id));
  return row!;
}

async function attemptsOf(app: TestApp, orderId: string) {
  return app.container.db
    .select()
    .from(fulfillmentAttempts)
    .where(eq(fulfillmentAttempts.orderId, orderId))
    .orderBy(fulfillmentAttempts.attempt);
}

async function supportMailsAbout(app: TestApp, orderNumber: string) {
  const mails = await app.container.mailer.list({ to: SUPPORT_EMAIL });
  return mails.filter((m) => `${m.subject}\n${m.text}`.includes(orderNumber));
}

/** Moves the clock past the next retry and runs due jobs. */
async function nextRetry(app: TestApp, afterFailures: number) {
  app.clock.advance(RETRY_BASE_SECONDS * SECOND * 2 ** Math.max(0, afterFailures - 1) + SECOND);
  await app.container.worker.runDue();
}

describe('fulfillment failure, background retry and refund', () => {
  it('provider failure: 502 FULFILLMENT_FAILED with orderId, charged once, support told once; retry completes it', async () => {
    const user = await createUser(t.container, { balanceCents: priceCents });
    expect((await failNext(t, 2)).statusCode).toBe(200);

    const res = await checkout(t, user);
    expect(res.statusCode).toBe(502);
    const body = res.json();
    expect(body.code).toBe('FULFILLMENT_FAILED');
    expect(body.orderId).toMatch(/^ord_/);
    const order = await orderOf(t, body.orderId);
    expect(order.status).toBe('PROCESSING');
    expect(await balanceOf(t.container, user.id)).toBe(0);

    const tickets = await t.container.db
      .select()
      .from(supportTickets)
      .where(eq(supportTickets.accountId, user.id));
    expect(tickets).toHaveLength(1);
    expect(tickets[0]!.orderId).toBe(order.id);
    expect(await supportMailsAbout(t, order.orderNumber)).toHaveLength(1);

    // Not due yet: nothing runs before the first backoff.
    expect(await t.container.worker.runDue()).toBe(0);
    await nextRetry(t, 0); // second fault consumed: still failing
    expect((await orderOf(t, order.id)).status).toBe('PROCESSING');
    await nextRetry(t, 1);
    const done = await orderOf(t, order.id);
    expect(done.status).toBe('COMPLETED');
    expect(await t.container.db.select().from(esims).where(eq(esims.orderId, order.id))).toHaveLength(1);

    const attempts = await attemptsOf(t, order.id);
    expect(attempts.map((a) => [a.attempt, a.outcome, a.source])).toEqual([
      [1, 'failure', 'request'],
      [2, 'failure', 'job'],
      [3, 'success', 'job'],
    ]);
    // Support heard about it once, not on every retry.
    expect(await supportMailsAbout(t, order.orderNumber)).toHaveLength(1);
    expect(
      await t.container.db.select().from(supportTickets).where(eq(supportTickets.accountId, user.id)),
    ).toHaveLength(1);
    expect(await balanceOf(t.container, user.id)).toBe(0);
    await expectLedgerInvariant(t.container);
  });

  it('retries exhausted: refunded to the wallet once, REFUNDED, invariant holds', async () => {
    const user = await createUser(t.container, { balanceCents: priceCents + 5 });
    await failNext(t, 100);
    const res = await checkout(t, user);
    expect(res.statusCode).toBe(502);
    const orderId = res.json().orderId;
    for (let i = 0; i < MAX_ATTEMPTS; i++) await nextRetry(t, i);
    await failNext(t, 0);

    const order = await orderOf(t, orderId);
    expect(order.status).toBe('REFUNDED');
    expect(await balanceOf(t.container, user.id)).toBe(priceCents + 5);
    const refunds = await t.container.db
      .select()
      .from(walletTransactions)
      .where(eq(walletTransactions.reference, `order:${orderId}:refund`));
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ kind: 'refund', amountCents: priceCents, orderId });
    expect(await attemptsOf(t, orderId)).toHaveLength(1 + MAX_ATTEMPTS);
    const [job] = await t.container.db
      .select()
      .from(jobs)
      .where(eq(jobs.dedupeKey, `fulfill:${orderId}`));
    expect(job).toMatchObject({ status: 'handled', attempts: MAX_ATTEMPTS });

    // Nothing left to run, and an operator refund now is refused.
    t.clock.advance(3600 * SECOND);
    await t.container.worker.runDue();
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/admin/v1/orders/${orderId}/refund`,
      headers: admin,
    });
    expect(again.statusCode).toBe(409);
    expect(await balanceOf(t.container, user.id)).toBe(priceCents + 5);
    await expectLedgerInvariant(t.container);
  });

  it('an order the request completed settles its background job: it never runs', async () => {
    const user = await createUser(t.container, { balanceCents: priceCents });
    const res = await checkout(t, user);
    expect(res.statusCode).toBe(200);
    const jobOf = async () =>
      (
        await t.container.db
          .select()
          .from(jobs)
          .where(eq(jobs.dedupeKey, `fulfill:${res.json().orderId}`))
      )[0]!;
    // Settled in the completing transaction, before it was due: done, never attempted.
    expect(await jobOf()).toMatchObject({ status: 'done', attempts: 0, lockedBy: null });
    await nextRetry(t, 0);
    expect(await jobOf()).toMatchObject({ status: 'done', attempts: 0 });
    expect(await attemptsOf(t, res.json().orderId)).toHaveLength(1);
  });

  it('an order whose request attempt failed keeps its job, which completes it', async () => {
    const user = await createUser(t.container, { balanceCents: priceCents });
    await failNext(t, 1);
    const res = await checkout(t, user);
    const orderId = res.json().orderId as string;
    const [pending] = await t.container.db
      .select()
      .from(jobs)
      .where(eq(jobs.dedupeKey, `fulfill:${orderId}`));
    expect(pending).toMatchObject({ status: 'pending', attempts: 0 });
    await nextRetry(t, 0);
    expect((await orderOf(t, orderId)).status).toBe('COMPLETED');
    const [ran] = await t.container.db
      .select()
      .from(jobs)
      .where(eq(jobs.dedupeKey, `fulfill:${orderId}`));
    expect(ran).toMatchObject({ status: 'done', attempts: 1 });
  });

  it('a request attempt and a job attempt racing for one order issue the eSIMs once', async () => {
    const user = await createUser(t.container, { balanceCents: priceCents });
    await failNext(t, 1);
    const res = await checkout(t, user);
    const orderId = res.json().orderId;
    const { fulfillment } = t.container.orders;
    const results = await Promise.all([
      fulfillment.attempt(orderId, 'job'),
      fulfillment.attempt(orderId, 'admin'),
      fulfillment.attempt(orderId, 'job'),
    ]);
    expect(results.every((r) => r.ok)).toBe(true);
    expect(await t.container.db.select().from(esims).where(eq(esims.orderId, orderId))).toHaveLength(1);
    expect((await orderOf(t, orderId)).status).toBe('COMPLETED');
    expect((await attemptsOf(t, orderId)).filter((a) => a.outcome === 'success')).toHaveLength(1);
  });
  it(
    'profiles that arrive after an operator refund are handed back to the provider',
    async () => {
      // Its own app, whose provider holds issued profiles back while the test holds the gate.
      let original!: EsimProvider;
      let gate: Promise<void> | undefined;
      let release!: () => void;
      const own = await buildTestApp({
        env,
        esimProvider: (configured) => {
          original = configured;
          return {
            ...configured,
            issueProfiles: async (request) => {
              await gate;
              return configured.issueProfiles(request);
            },
          };
        },
      });
      try {
        expect((await pickPlan(own.container)).id).toBe(planId);
        const user = await createUser(own.container, { balanceCents: priceCents });
        await failNext(own, 1);
        const orderId = (await checkout(own, user)).json().orderId;
        gate = new Promise<void>((resolve) => (release = resolve));
        const attempt = own.container.orders.fulfillment.attempt(orderId, 'job');
        await new Promise((r) => setTimeout(r, 50));
        const refund = await own.app.inject({
          method: 'POST',
          url: `/api/admin/v1/orders/${orderId}/refund`,
          headers: admin,
        });
        expect(refund.statusCode).toBe(200);
        release();
        expect((await attempt).ok).toBe(false);
        const upstream = await original.queryProfiles({ orderId });
        expect(upstream).toHaveLength(1);
        expect(upstream[0]!.status).toBe('CANCELLED');
        expect(await own.container.db.select().from(esims).where(eq(esims.orderId, orderId))).toHaveLength(0);
        expect((await orderOf(own, orderId)).status).toBe('REFUNDED');
        expect(await balanceOf(own.container, user.id)).toBe(priceCents);
        await expectLedgerInvariant(own.container);
      } finally {
        await own.close();
      }
    },
    PER_APP_TEST_TIMEOUT_MS,
  );
});

describe('crash recovery', () => {
  it('an order left PROCESSING by a stopped app is completed by a new app on the same database', async () => {
    // App A dies between charging and the provider call: its provider never answers.
    const a = await buildTestApp({
      env,
      shareWith: t,
      esimProvider: (configured) => ({ ...configured, issueProfiles: () => new Promise(() => undefined) }),
    });
    const user = await createUser(a.container, { balanceCents: priceCents });
    const pending = checkout(a, user);
    let orderId: string | undefined;
    for (let i = 0; i < 100 && !orderId; i++) {
      await new Promise((r) => setTimeout(r, 20));
      const [row] = await t.container.db.select().from(orders).where(eq(orders.accountId, user.id));
      orderId = row?.id;
    }
    expect(orderId).toBeDefined();
    void pending;
    await a.app.close();

    const b = await buildTestApp({ env, shareWith: t });
    expect((await orderOf(b, orderId!)).status).toBe('PROCESSING');
    b.clock.advance(RETRY_BASE_SECONDS * SECOND + SECOND);
    await b.container.worker.runDue();
    expect((await orderOf(b, orderId!)).status).toBe('COMPLETED');
    expect(await b.container.db.select().from(esims).where(eq(esims.orderId, orderId!))).toHaveLength(1);
    expect(await balanceOf(b.container, user.id)).toBe(0);
    await expectLedgerInvariant(b.container);
    await b.app.close();
  });
});
