import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  auditLog,
  esims,
  jobs,
  orders,
  sandboxEsimProfiles,
  walletTransactions,
} from '../../../src/db/schema/index.js';
import { reconcile } from '../../../src/domain/ops/reconcile.js';
import { DAY, MINUTE, SECOND } from '../../../src/lib/clock.js';
import { createSandboxEsimControls } from '../../../src/providers/esim/sandbox/controls.js';
import { EsimProviderError, type EsimProvider } from '../../../src/providers/esim/types.js';
import { ADMIN_TOKEN, buildTestApp, type TestApp } from '../../helpers/app.js';
import { pickPlan } from '../../helpers/catalog.js';
import { balanceOf, createUser, type TestUser } from '../../helpers/factories.js';
import { expectLedgerInvariant } from '../../helpers/ledger.js';

let t: TestApp;
let planId: string;
let priceCents: number;
let controls: ReturnType<typeof createSandboxEsimControls>;

beforeAll(async () => {
  t = await buildTestApp({ env: { SUPPORT_EMAIL: 'help@example.com' } });
  const plan = await pickPlan(t.container);
  planId = plan.id;
  priceCents = plan.effectivePriceCents;
  controls = createSandboxEsimControls({ db: t.container.db, clock: t.clock });
});
afterAll(() => t.close());
afterEach(async () => {
  await expectLedgerInvariant(t.container);
  const report = await reconcile({ db: t.container.db, clock: t.clock });
  expect(report.problems).toEqual([]);
});

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

/** Sessions last 30 days: a test that moves the clock further signs in again. */
async function signIn(user: TestUser): Promise<TestUser> {
  const { token } = await t.container.sessions.issue(t.container.db, user.id);
  return { ...user, token, auth: { authorization: `Bearer ${token}` } };
}

const cancel = (user: TestUser, orderId: string, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: `/api/v1/user/orders/${orderId}/cancel`,
    headers: { ...user.auth, 'accept-language': 'en', ...headers },
  });

const detail = async (user: TestUser, orderId: string) => {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/v1/user/orders/${orderId}`,
    headers: user.auth,
  });
  expect(res.statusCode).toBe(200);
  return res.json<{ order: { status: string }; cancellable: boolean }>();
};

const orderRow = async (id: string) =>
  (await t.container.db.select().from(orders).where(eq(orders.id, id)))[0]!;
const esimRows = (orderId: string) => t.container.db.select().from(esims).where(eq(esims.orderId, orderId));
const refunds = (orderId: string) =>
  t.container.db
    .select()
    .from(walletTransactions)
    .where(and(eq(walletTransactions.orderId, orderId), eq(walletTransactions.kind, 'refund')));

/** The sandbox, with `cancelProfile` replaced for one test. */
function withCancel(cancelProfile: (inner: EsimProvider, ref: string) => Promise<void>): () => void {
  const inner = t.container.providers.esim;
  t.container.providers.esim = { ...inner, cancelProfile: (ref) => cancelProfile(inner, ref) };
  return () => {
    t.container.providers.esim = inner;
  };
}

describe('POST /user/orders/:id/cancel', () => {
  it('wallet order: eSIMs cancelled at the provider, order REFUNDED, whole amount back once', async () => {
    const user = await createUser(t.container, { balanceCents: priceCents * 2 });
    const { orderId, esimIds } = await buy(user, 2);
    expect(await balanceOf(t.container, user.id)).toBe(0);
    expect((await detail(user, orderId)).cancellable).toBe(true);

    const res = await cancel(user, orderId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().order).toMatchObject({
      id: orderId,
      status: 'REFUNDED',
      esimIds: expect.arrayContaining(esimIds),
    });
    expect(await balanceOf(t.container, user.id)).toBe(priceCents * 2);
    expect(await refunds(orderId)).toHaveLength(1);
    expect((await esimRows(orderId)).map((e) => e.status)).toEqual(['CANCELLED', 'CANCELLED']);
    const profiles = await t.container.db
      .select()
      .from(sandboxEsimProfiles)
      .where(eq(sandboxEsimProfiles.orderRef, orderId));
    expect(profiles.map((p) => p.status)).toEqual(['CANCELLED', 'CANCELLED']);
    const audits = await t.container.db.select().from(auditLog).where(eq(auditLog.targetId, orderId));
    expect(audits.map((a) => a.action)).toEqual(['order.self_refund']);
    // The safety-net job was settled in the refunding transaction.
    const [job] = await t.container.db
      .select()
      .from(jobs)
      .where(eq(jobs.dedupeKey, `cancel:${orderId}`));
    expect(job?.status).toBe('done');
    expect(await detail(user, orderId)).toMatchObject({ order: { status: 'REFUNDED' }, cancellable: false });

    // A repeat answers the refunded order and refunds nothing more.
    const again = await cancel(user, orderId);
    expect(again.statusCode).toBe(200);
    expect(again.json().order.status).toBe('REFUNDED');
    expect(await balanceOf(t.container, user.id)).toBe(priceCents * 2);
  });

  it('card order: the whole price returns to the wallet', async () => {
    const user = await createUser(t.container);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/checkout',
      headers: user.auth,
      payload: { planId, paymentMethod: 'card' },
    });
    const path = new URL(res.json().url).pathname;
    await t.app.inject({ method: 'POST', url: `${path}/complete`, payload: { outcome: 'paid' } });
    await t.container.worker.runDue();
    const orderId = res.json().orderId as string;
    expect((await orderRow(orderId)).status).toBe('COMPLETED');
    expect(await balanceOf(t.container, user.id)).toBe(0);
    const cancelled = await cancel(user, orderId);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(await balanceOf(t.container, user.id)).toBe(priceCents);
  });

  it('an installed eSIM: 409 ESIM_INSTALLED (asked of the provider), nothing changes', async () => {
    const user = await createUser(t.container, { balanceCents: priceCents });
    const { orderId } = await buy(user);
    const [esim] = await esimRows(orderId);
    const installed = await t.app.inject({
      method: 'POST',
      url: '/api/admin/v1/sandbox/esim-provider/status',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      payload: { iccid: esim!.iccid, status: 'INSTALLED' },
    });
    expect(installed.json()).toMatchObject({
      iccid: esim!.iccid,
      status: 'PENDING',
      installState: 'INSTALLED',
    });
    // Our own rows still say PENDING: only the provider knows.
    expect((await detail(user, orderId)).cancellable).toBe(true);
    const res = await cancel(user, orderId);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'ESIM_INSTALLED', supportEmail: 'help@example.com' });
    expect(res.json().error).toMatch(/installed.*support/i);
    expect((await orderRow(orderId)).status).toBe('COMPLETED');
    expect(await balanceOf(t.container, user.id)).toBe(0);
  });

  it('a used eSIM: 409 ESIM_USED, localised', async () => {
    const user = await createUser(t.container, { balanceCents: priceCents });
    const { orderId } = await buy(user);
    const [esim] = await esimRows(orderId);
    await controls.setUsage(esim!.iccid, 5);
    const res = await cancel(user, orderId, { 'accept-language': 'de' });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('ESIM_USED');
    expect(res.json().error).toMatch(/Daten verbraucht/);
  });

  it(`older than REFUND_WINDOW_DAYS: 409 REFUND_WINDOW_PASSED`, async () => {
    const first = await createUser(t.container, { balanceCents: priceCents * 2 });
    const old = await buy(first);
    t.clock.advance(30 * DAY);
    const user = await signIn(first);
    const recent = await buy(user);
    t.clock.advance(SECOND);
    const res = await cancel(user, old.orderId);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('REFUND_WINDOW_PASSED');
    expect((await detail(user, old.orderId)).cancellable).toBe(false);
    expect((await cancel(user, recent.orderId)).statusCode).toBe(200);
  });

  it('SELF_REFUNDS_PER_30_DAYS: the fourth in 30 days is 409 SELF_REFUND_LIMIT, later allowed again', async () => {
    let user = await createUser(t.container, { balanceCents: priceCents * 6 });
    for (let i = 0; i < 3; i++) {
      const { orderId } = await buy(user);
      expect((await cancel(user, orderId)).statusCode).toBe(200);
      t.clock.advance(DAY);
    }
    const fourth = await buy(user);
    expect((await detail(user, fourth.orderId)).cancellable).toBe(false);
    const refused = await cancel(user, fourth.orderId);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('SELF_REFUND_LIMIT');
    // 30 days after the first refund one slot is free again.
    t.clock.advance(28 * DAY);
    user = await signIn(user);
    expect((await cancel(user, fourth.orderId)).statusCode).toBe(200);
  });

  it('not cancellable states: unpaid order 409 ORDER_NOT_CANCELLABLE; another account’s order 404', async () => {
    const user = await createUser(t.container, { balanceCents: priceCents });
    const unpaid = await t.app.inject({
      method: 'POST',
      url: '/api/v1/checkout',
      headers: user.auth,
      payload: { planId, paymentMethod: 'card' },
    });
    const res = await cancel(user, unpaid.json().orderId);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('ORDER_NOT_CANCELLABLE');
    const { orderId } = await buy(user);
    const other = await createUser(t.container);
    expect((await cancel(other, orderId)).statusCode).toBe(404);
    expect((await orderRow(orderId)).status).toBe('COMPLETED');
  });

  it('three concurrent cancels of one order: each answers the refunded order, one refund', async () => {
    const user = await createUser(t.container, { balanceCents: priceCents });
    const { orderId } = await buy(user);
    const answers = await Promise.all([cancel(user, orderId), cancel(user, orderId), cancel(user, orderId)]);
    expect(answers.map((a) => `${a.statusCode} ${a.statusCode === 200 ? '' : a.body}`)).toEqual([
      '200 ',
      '200 ',
      '200 ',
    ]);
    expect(await refunds(orderId)).toHaveLength(1);
    expect(await balanceOf(t.container, user.id)).toBe(priceCents);
  });

  it('Idempotency-Key: a replay answers the first response; the key for another order is REUSED', async () => {
    const user = await createUser(t.container, { balanceCents: priceCents * 2 });
    const first = await buy(user);
    const second = await buy(user);
    const key = { 'idempotency-key': 'cancel-1' };
    const a = await cancel(user, first.orderId, key);
    const b = await cancel(user, first.orderId, key);
    expect(a.statusCode).toBe(200);
    expect(b.statusCode).toBe(200);
    expect(b.json()).toEqual(a.json());
    const reused = await cancel(user, second.orderId, key);
    expect(reused.statusCode).toBe(409);
    expect(reused.json().code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await refunds(first.orderId)).toHaveLength(1);
    expect(await balanceOf(t.container, user.id)).toBe(priceCents);
  });

  it('provider down while cancelling: 503 CANCELLATION_PENDING, the job finishes it once', async () => {
    const user = await createUser(t.container, { balanceCents: priceCents });
    const { orderId } = await buy(user);
    const restore = withCancel(async () => {
      throw new EsimProviderError('unavailable', 'provider down', true);
    });
    try {
      const res = await cancel(user, orderId);
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ code: 'CANCELLATION_PENDING', orderId });
      expect((await orderRow(orderId)).status).toBe('COMPLETED');
      expect((await detail(user, orderId)).cancellable).toBe(false);
      // The job retries while the provider is down.
      t.clock.advance(3 * MINUTE);
      await t.container.worker.runDue();
      expect((await orderRow(orderId)).status).toBe('COMPLETED');
    } finally {
      restore();
    }
    t.clock.advance(MINUTE);
    await t.container.worker.runDue();
    expect((await orderRow(orderId)).status).toBe('REFUNDED');
    expect(await refunds(orderId)).toHaveLength(1);
    expect(await balanceOf(t.container, user.id)).toBe(priceCents);
  });

  it('the provider cancelled but its answer was lost: the job completes the refund, once', async () => {
    const user = await createUser(t.container, { balanceCents: priceCents });
    const { orderId } = await buy(user);
    // The provider cancels, then the connection drops before the refunding transaction.
    const restore = withCancel(async (inner, ref) => {
      await inner.cancelProfile(ref);
      throw new Error('socket hang up');
    });
    try {
      expect((await cancel(user, orderId)).statusCode).toBe(503);
    } finally {
      restore();
    }
    expect((await orderRow(orderId)).status).toBe('COMPLETED');
    // Reconcile stays quiet while the job is due, and reports a dead-lettered one.
    expect((await reconcile({ db: t.container.db, clock: t.clock })).problems).toEqual([]);
    await t.container.db
      .update(jobs)
      .set({ status: 'failed' })
      .where(eq(jobs.dedupeKey, `cancel:${orderId}`));
    const report = await reconcile({ db: t.container.db, clock: t.clock });
    expect(report.problems.map((p) => [p.check, p.orderId])).toEqual([['cancel_unfinished', orderId]]);
    await t.container.db
      .update(jobs)
      .set({ status: 'pending' })
      .where(eq(jobs.dedupeKey, `cancel:${orderId}`));
    t.clock.advance(3 * MINUTE);
    await t.container.worker.runDue();
    expect((await orderRow(orderId)).status).toBe('REFUNDED');
    expect(await refunds(orderId)).toHaveLength(1);
    expect(await balanceOf(t.container, user.id)).toBe(priceCents);
    // The customer's retry after the crash answers the refunded order.
    expect((await cancel(user, orderId)).json().order.status).toBe('REFUNDED');
  });

  it('dies inside the refunding transaction: none of it commits; the job refunds once', async () => {
    const user = await createUser(t.container, { balanceCents: priceCents });
    const { orderId } = await buy(user);
    const audit = t.container.audit;
    const record = audit.record;
    // The last write of step 5 fails, as a process killed before COMMIT would leave it.
    audit.record = async () => {
      throw new Error('killed before commit');
    };
    try {
      expect((await cancel(user, orderId)).statusCode).toBe(500);
    } finally {
      audit.record = record;
    }
    expect((await orderRow(orderId)).status).toBe('COMPLETED');
    expect((await esimRows(orderId)).map((e) => e.status)).toEqual(['PENDING']);
    expect(await refunds(orderId)).toHaveLength(0);
    expect(await balanceOf(t.container, user.id)).toBe(0);
    t.clock.advance(3 * MINUTE);
    await t.container.worker.runDue();
    expect((await orderRow(orderId)).status).toBe('REFUNDED');
    expect((await esimRows(orderId)).map((e) => e.status)).toEqual(['CANCELLED']);
    expect(await refunds(orderId)).toHaveLength(1);
    expect(await balanceOf(t.container, user.id)).toBe(priceCents);
  });

  it('installed between the check and the cancel: claim released, 409, no refund, limit not spent', async () => {
    const user = await createUser(t.container, { balanceCents: priceCents });
    const { orderId } = await buy(user);
    const [esim] = await esimRows(orderId);
    const restore = withCancel(async (inner, ref) => {
      await controls.setInstallState(esim!.iccid, 'INSTALLED');
      await inner.cancelProfile(ref);
    });
    try {
      const res = await cancel(user, orderId);
      expect(res.statusCode).toBe(409);
      expect(res.json().code).toBe('ESIM_INSTALLED');
    } finally {
      restore();
    }
    expect((await orderRow(orderId)).status).toBe('COMPLETED');
    expect(await refunds(orderId)).toHaveLength(0);
    const count = await t.container.orderCancels.cancellations.countRecent(user.id, true, new Date(0));
    expect(count).toBe(0);
  });
});
