import { spawnSync } from 'node:child_process';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  accounts,
  esims,
  idempotencyKeys,
  jobs,
  orders,
  passwordResetTokens,
  payments,
  sessions,
} from '../../src/db/schema/index.js';
import { OPS_JOBS } from '../../src/domain/ops/maintenance.js';
import { DAY, HOUR, MINUTE } from '../../src/lib/clock.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { pickPlan } from '../helpers/catalog.js';
import { balanceOf, createUser, type TestUser } from '../helpers/factories.js';

let t: TestApp;
let planId: string;

beforeAll(async () => {
  t = await buildTestApp();
  planId = (await pickPlan(t.container)).id;
});
afterAll(() => t.close());

const checkout = (user: TestUser, paymentMethod: 'wallet' | 'card' | 'crypto') =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/checkout',
    headers: user.auth,
    payload: { planId, paymentMethod },
  });

async function statusOf(orderId: string) {
  const [o] = await t.container.db.select().from(orders).where(eq(orders.id, orderId));
  const [p] = o?.paymentId
    ? await t.container.db.select().from(payments).where(eq(payments.id, o.paymentId))
    : [];
  return { order: o!.status, payment: p?.status };
}

describe('reconcile', () => {
  test('a clean history of wallet orders, refunds and top-ups reconciles', async () => {
    const user = await createUser(t.container, { balanceCents: 50_00 });
    expect((await checkout(user, 'wallet')).statusCode).toBe(200);
    const report = await t.container.maintenance.runReconcile();
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.orders).toBeGreaterThanOrEqual(1);
  });

  test('each kind of broken book is listed, and the report names account and order', async () => {
    const db = t.container.db;
    // 1. balance changed without a ledger row
    const drifted = await createUser(t.container, { balanceCents: 10_00 });
    await db
      .update(accounts)
      .set({ walletBalanceCents: sql`${accounts.walletBalanceCents} + 5` })
      .where(eq(accounts.id, drifted.id));
    // 2. a COMPLETED order whose eSIM row is gone
    const buyer = await createUser(t.container, { balanceCents: 50_00 });
    const completed = (await checkout(buyer, 'wallet')).json().orderId as string;
    await db.delete(esims).where(eq(esims.orderId, completed));
    // 3. a charged order stuck in PROCESSING for a day
    const stuckBuyer = await createUser(t.container, { balanceCents: 50_00 });
    const stuck = (await checkout(stuckBuyer, 'wallet')).json().orderId as string;
    await db.delete(esims).where(eq(esims.orderId, stuck));
    await db
      .update(orders)
      .set({ status: 'PROCESSING', updatedAt: new Date(t.clock.now().getTime() - DAY) })
      .where(eq(orders.id, stuck));
    // 4. a negative balance (only possible with the CHECK constraint gone)
    const negative = await createUser(t.container);
    await db.execute(sql`alter table accounts drop constraint accounts_wallet_balance_nonnegative`);
    await db.update(accounts).set({ walletBalanceCents: -1 }).where(eq(accounts.id, negative.id));

    const report = await t.container.maintenance.runReconcile();
    expect(report.ok).toBe(false);
    const found = report.problems.map((p) => [p.check, p.accountId, p.orderId ?? null]);
    expect(found).toEqual(
      expect.arrayContaining([
        ['balance_mismatch', drifted.id, null],
        ['completed_without_esims', buyer.id, completed],
        ['stuck_processing', stuckBuyer.id, stuck],
        ['negative_balance', negative.id, null],
        ['balance_mismatch', negative.id, null],
      ]),
    );
    expect(report.problems).toHaveLength(5);

    // The command line tool prints the same and exits non-zero (run from source here; `npm run
    // reconcile` runs the build of the same file). Only on PostgreSQL: in-memory PGlite is private.
    if (process.env.TEST_DATABASE_URL) {
      const url = await currentDatabaseUrl();
      const cli = spawnSync(process.execPath, ['--import', 'tsx', 'src/reconcile.ts'], {
        cwd: new URL('../..', import.meta.url).pathname,
        env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'silent' },
        encoding: 'utf8',
      });
      expect(cli.status, cli.stderr).toBe(1);
      expect(cli.stdout).toContain(`balance_mismatch [live] account ${drifted.id}`);
      expect(cli.stdout).toContain(`stuck_processing [live] account ${stuckBuyer.id} order ${stuck}`);
      expect(cli.stdout).toMatch(/reconcile FAILED: 5 problem/);
    }

    // Repair, so later tests start from clean books.
    await db.update(accounts).set({ walletBalanceCents: 0 }).where(eq(accounts.id, negative.id));
    await db.execute(
      sql`alter table accounts add constraint accounts_wallet_balance_nonnegative check (wallet_balance_cents >= 0)`,
    );
    await db
      .update(accounts)
      .set({ walletBalanceCents: sql`${accounts.walletBalanceCents} - 5` })
      .where(eq(accounts.id, drifted.id));
    await t.container.orders.fulfillment.refund(stuck, 'test repair');
    await db.update(orders).set({ status: 'REFUNDED' }).where(eq(orders.id, completed));
    const after = await t.container.maintenance.runReconcile();
    // The "completed" order now claims a refund it never got: still reported, as it should be.
    expect(after.problems.map((p) => [p.check, p.orderId])).toEqual([['refund_mismatch', completed]]);
    await db.update(orders).set({ status: 'PROCESSING' }).where(eq(orders.id, completed));
    await t.container.orders.fulfillment.refund(completed, 'test repair');
    expect((await t.container.maintenance.runReconcile()).problems).toEqual([]);
  });

  async function currentDatabaseUrl(): Promise<string> {
    const rows = (await t.container.db.execute<Record<string, unknown>>(
      sql`select current_database() as name`,
    )) as {
      rows: Array<{ name: string }>;
    };
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${rows.rows[0]!.name}`;
    return url.toString();
  }
});

describe('retention', () => {
  test('purges finished jobs, expired sessions, used or expired reset tokens and old idempotency keys; keeps the rest', async () => {
    const db = t.container.db;
    const now = t.clock.now();
    const user = await createUser(t.container);
    const ago = (ms: number) => new Date(now.getTime() - ms);
    await db.insert(jobs).values([
      {
        kind: 'ops.test',
        payload: { n: 'old-done' },
        status: 'done',
        runAt: ago(8 * DAY),
        createdAt: ago(8 * DAY),
        updatedAt: ago(8 * DAY),
      },
      {
        kind: 'ops.test',
        payload: { n: 'new-done' },
        status: 'done',
        runAt: ago(DAY),
        createdAt: ago(DAY),
        updatedAt: ago(DAY),
      },
      {
        kind: 'ops.test',
        payload: { n: 'old-failed' },
        status: 'failed',
        runAt: ago(30 * DAY),
        createdAt: ago(30 * DAY),
        updatedAt: ago(30 * DAY),
      },
    ]);
    await db.insert(sessions).values([
      {
        id: 'ses_old',
        accountId: user.id,
        tokenHash: 'h-old',
        createdAt: ago(31 * DAY),
        expiresAt: ago(DAY),
      },
      {
        id: 'ses_live',
        accountId: user.id,
        tokenHash: 'h-live',
        createdAt: ago(DAY),
        expiresAt: new Date(now.getTime() + DAY),
      },
    ]);
    await db.insert(passwordResetTokens).values([
      {
        tokenHash: 'r-used',
        accountId: user.id,
        createdAt: ago(10 * MINUTE),
        expiresAt: new Date(now.getTime() + HOUR),
        usedAt: ago(MINUTE),
      },
      { tokenHash: 'r-expired', accountId: user.id, createdAt: ago(2 * HOUR), expiresAt: ago(HOUR) },
      {
        tokenHash: 'r-live',
        accountId: user.id,
        createdAt: ago(MINUTE),
        expiresAt: new Date(now.getTime() + HOUR),
      },
    ]);
    const key = (k: string, createdAt: Date) => ({
      accountId: user.id,
      scope: 'ops.test',
      key: k,
      requestHash: 'x',
      status: 'done' as const,
      createdAt,
    });
    await db.insert(idempotencyKeys).values([key('old', ago(25 * HOUR)), key('new', ago(23 * HOUR))]);

    const result = await t.container.maintenance.runRetention();
    expect(result).toMatchObject({ jobs: 1, sessions: 1, resetTokens: 2, idempotencyKeys: 1 });

    const left = await db.select({ payload: jobs.payload }).from(jobs).where(eq(jobs.kind, 'ops.test'));
    expect(left.map((j) => j.payload.n).sort()).toEqual(['new-done', 'old-failed']);
    const ses = await db.select({ id: sessions.id }).from(sessions).where(eq(sessions.accountId, user.id));
    // The live session and the user's own (random id) remain, in any order.
    expect(ses).toHaveLength(2);
    expect(ses.map((s) => s.id)).toContain('ses_live');
    expect(ses.map((s) => s.id)).not.toContain('ses_old');
    const tokens = await db
      .select()
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.accountId, user.id));
    expect(tokens.map((r) => r.tokenHash)).toEqual(['r-live']);
    const keys = await db.select().from(idempotencyKeys).where(eq(idempotencyKeys.accountId, user.id));
    expect(keys.map((k) => k.key)).toEqual(['new']);
    // The user's own session (issued now) still works.
    expect((await t.app.inject({ url: '/api/v1/auth/me', headers: user.auth })).statusCode).toBe(200);
  });

  test('the files do not grow with history: PGlite vacuums at the end of retention, PostgreSQL vacuums the queue on its own thresholds', async () => {
    const { db } = t.container;
    const ago = (ms: number) => new Date(t.clock.now().getTime() - ms);
    const oldDoneJobs = () =>
      db.insert(jobs).values(
        Array.from({ length: 1500 }, (_, i) => ({
          kind: 'ops.vacuum-test',
          payload: { n: i, padding: 'x'.repeat(200) },
          status: 'done' as const,
          runAt: ago(30 * DAY),
          createdAt: ago(30 * DAY),
          updatedAt: ago(30 * DAY),
        })),
      );
    const jobsBytes = async () => {
      const { rows } = (await db.execute<Record<string, unknown>>(
        sql`select pg_relation_size('jobs')::int as n`,
      )) as {
        rows: { n: number }[];
      };
      return rows[0]!.n;
    };
    const [options] = (
      (await db.execute<Record<string, unknown>>(
        sql`select reloptions from pg_class where relname = 'jobs'`,
      )) as {
        rows: { reloptions: string[] }[];
      }
    ).rows;
    expect(options!.reloptions).toEqual(
      expect.arrayContaining(['autovacuum_vacuum_scale_factor=0', 'autovacuum_vacuum_threshold=5000']),
    );

    await oldDoneJobs();
    const withHistory = await jobsBytes();
    const first = await t.container.maintenance.runRetention();
    expect(first.jobs).toBe(1500);
    if (t.database.kind === 'postgres') {
      // Autovacuum's business there: retention does not vacuum.
      expect(first.vacuumMs).toBeUndefined();
      return;
    }
    expect(first.vacuumMs).toBeGreaterThanOrEqual(0);
    // The same history again fits in the space the first one left: without the vacuum, the
    // deleted rows' pages are never reclaimed and the table grows by their size each time.
    await oldDoneJobs();
    expect(await jobsBytes()).toBeLessThanOrEqual(withHistory + 2 * 8192);
    expect((await t.container.maintenance.runRetention()).jobs).toBe(1500);
    await oldDoneJobs();
    expect(await jobsBytes()).toBeLessThanOrEqual(withHistory + 2 * 8192);
  });

  test('abandoned card checkouts expire after 24 h and crypto invoices after their lifetime; their orders are cancelled; paid ones stay', async () => {
    const user = await createUser(t.container, { balanceCents: 0 });
    const card = (await checkout(user, 'card')).json().orderId as string;
    const crypto = (await checkout(user, 'crypto')).json().orderId as string;
    const topup = await t.app.inject({
      method: 'POST',
      url: '/api/v1/payments/card/create-session',
      headers: user.auth,
      payload: { amount: 1000 },
    });
    expect(topup.statusCode).toBe(200);
    const cryptoTopup = await t.app.inject({
      method: 'POST',
      url: '/api/v1/payments/crypto/create-invoice',
      headers: user.auth,
      payload: { amount: '5' },
    });
    expect(cryptoTopup.statusCode).toBe(200);
    const paidTopup = await t.app.inject({
      method: 'POST',
      url: '/api/v1/payments/card/create-session',
      headers: user.auth,
      payload: { amount: 700 },
    });
    const paidSession = paidTopup.json().sessionId as string;
    const settle = await t.app.inject({
      method: 'POST',
      url: `/sandbox/card/${paidSession}/complete`,
      payload: { outcome: 'paid' },
    });
    expect(settle.statusCode).toBeLessThan(400);

    const paymentsOf = async () =>
      Object.fromEntries(
        (await t.container.db.select().from(payments).where(eq(payments.accountId, user.id))).map((p) => [
          `${p.purpose}:${p.method}:${p.amountMinor}`,
          p.status,
        ]),
      );
    const runRetention = () => t.container.maintenance.runRetention();

    // Within the crypto invoice's hour (plus the margin), nothing expires.
    t.clock.advance(HOUR + 5 * MINUTE);
    expect((await runRetention()).expiredPayments).toBe(0);

    t.clock.advance(10 * MINUTE);
    expect((await runRetention()).expiredPayments).toBe(2);
    expect(await statusOf(crypto)).toEqual({ order: 'CANCELLED', payment: 'expired' });
    expect(await statusOf(card)).toMatchObject({ order: 'AWAITING_PAYMENT', payment: 'pending' });

    t.clock.advance(23 * HOUR);
    expect((await runRetention()).expiredPayments).toBe(2);
    expect(await statusOf(card)).toEqual({ order: 'CANCELLED', payment: 'expired' });
    const byKind = await paymentsOf();
    expect(byKind).toMatchObject({
      'topup:card:1000': 'expired',
      'topup:crypto:500': 'expired',
      'topup:card:700': 'paid',
    });
    expect(await balanceOf(t.container, user.id)).toBe(700);

    // A payment that still arrives after expiry is credited, never lost.
    const late = await t.container.db
      .select()
      .from(payments)
      .where(and(eq(payments.accountId, user.id), eq(payments.amountMinor, 1000)));
    const lateSession = late[0]!.providerRef!;
    await t.app.inject({
      method: 'POST',
      url: `/sandbox/card/${lateSession}/complete`,
      payload: { outcome: 'paid' },
    });
    expect(await balanceOf(t.container, user.id)).toBe(1700);
    expect((await t.container.maintenance.runReconcile()).problems).toEqual([]);
  });

  test('the worker schedules retention at start-up and reconciliation daily, each re-enqueued for its next slot', async () => {
    await t.container.startup();
    const pending = async (kind: string) =>
      t.container.db
        .select()
        .from(jobs)
        .where(and(eq(jobs.kind, kind), eq(jobs.status, 'pending')));
    expect(await pending(OPS_JOBS.retention)).toHaveLength(1);
    const [daily] = await pending(OPS_JOBS.reconcile);
    expect(daily!.runAt.getTime() % DAY).toBe(0);
    expect(daily!.runAt.getTime()).toBeGreaterThan(t.clock.now().getTime());
    t.clock.set(new Date(daily!.runAt.getTime() + MINUTE));
    await t.container.worker.runDue();
    const [next] = await pending(OPS_JOBS.reconcile);
    expect(next!.runAt.getTime()).toBe(daily!.runAt.getTime() + DAY);
    const done = await t.container.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, OPS_JOBS.reconcile), eq(jobs.status, 'done')));
    expect(done).toHaveLength(1);
  });
});
