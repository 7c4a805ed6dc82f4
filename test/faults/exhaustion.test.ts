import { spawnSync } from 'node:child_process';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  admin,
  call,
  cheapestPlan,
  createCustomer,
  expectMoneySafe,
  ROOT,
  sleep,
  startPrivatePostgres,
  startService,
  survived,
  waitSettled,
  type PrivatePostgres,
  type ServiceProcess,
} from './support.js';

/**
 * Issue 28 H21: kill -9 of the worker between "the last fulfillment attempt failed" and "its
 * refund committed". The account row is held locked so the refund waits, deterministically; the
 * process is killed while it waits, the lock released, the service restarted. The order must end
 * REFUNDED once (the job stayed claimable), the job `handled` (not a dead letter), reconcile OK.
 *
 * Ports: this file reuses crash.test.ts's PostgreSQL port (files run one at a time, each destroys
 * its server in afterAll) and HTTP port 3751.
 */
const PG_PORT = 25432;
const HTTP_PORT = 3751;

let pgServer: PrivatePostgres;
let url: string;
let service: ServiceProcess | undefined;
let locker: pg.Client | undefined;

const env = () => ({
  DATABASE_URL: url,
  // The job runs 3 s after the request's failed attempt: time to take the lock first.
  FULFILLMENT_RETRY_BASE_SECONDS: '3',
  FULFILLMENT_MAX_ATTEMPTS: '1',
  WORKER_POLL_MS: '200',
});

beforeAll(async () => {
  pgServer = await startPrivatePostgres(PG_PORT);
  url = await pgServer.createDatabase('faults_exhaustion');
});

afterAll(async () => {
  await locker?.end().catch(() => undefined);
  await service?.kill('SIGKILL');
  await pgServer?.destroy();
});

async function jobOf(client: pg.Client, orderId: string) {
  const { rows } = await client.query<{ status: string; attempts: number }>(
    `select status, attempts from jobs where dedupe_key = $1 order by id desc limit 1`,
    [`fulfill:${orderId}`],
  );
  return rows[0];
}

/** The service's session blocked on a row lock (the refund's balance update), within a deadline. */
async function waitForLockWaiter(client: pg.Client, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const { rows } = await client.query(
      `select 1 from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and wait_event_type = 'Lock'`,
    );
    if (rows.length > 0) return true;
    await sleep(100);
  }
  return false;
}

describe('exhausted fulfillment under kill -9', () => {
  it('the worker dies while the refund waits: after restart the order is refunded once, reconcile OK', async () => {
    service = startService({ name: 'api', port: HTTP_PORT, env: env() });
    await service.waitReady();
    const customer = await createCustomer(service.base, 'exhaust', 100_00);
    const plan = await cheapestPlan(service.base, customer.partner);
    // The request's attempt and the job's only attempt both fail.
    await call(service.base, 'POST', '/api/admin/v1/sandbox/esim-provider/faults', {
      headers: admin,
      json: { failNext: 2 },
    });
    const placed = await call(service.base, 'POST', '/api/public/v1/orders', {
      headers: customer.partner,
      json: { planId: plan.id, quantity: 1 },
    });
    expect(placed.status, placed.text).toBe(502);
    const orderId = (placed.body as { error: { details: { orderId: string } } }).error.details.orderId;
    expect(orderId).toMatch(/^ord_/);

    // Hold the account row (no key update: the support ticket's foreign key check still passes).
    locker = new pg.Client({ connectionString: url });
    await locker.connect();
    await locker.query('begin');
    await locker.query('select 1 from accounts where id = $1 for no key update', [customer.id]);
    const blockedAt = Date.now();
    expect(await waitForLockWaiter(locker, 30_000)).toBe(true);
    const blockedAfterMs = Date.now() - blockedAt;
    // Inside the window: the attempt failed, the refund waits. The job is not dead-lettered yet.
    const inWindow = await jobOf(locker, orderId);
    expect(inWindow?.status).toBe('running');

    await service.kill('SIGKILL');
    await locker.query('rollback');
    await locker.end();
    locker = undefined;

    service = startService({ name: 'api', port: HTTP_PORT, env: env() });
    await service.waitReady();
    // Still failing after the restart: the re-run's attempt fails too and the order is refunded.
    await call(service.base, 'POST', '/api/admin/v1/sandbox/esim-provider/faults', {
      headers: admin,
      json: { failNext: 5 },
    });
    const settledAt = Date.now();
    // The dead worker's lease runs out after 60 s; then the job is claimed again.
    const report = await waitSettled(url, 150_000);
    const settleMs = Date.now() - settledAt;
    expectMoneySafe(report);
    // Settled once: refunded (the re-run failed too) or completed (it succeeded), never left open.
    expect(report.charged).toBe(1);
    expect(report.refunded + report.completed).toBe(1);

    let finalJob: string | undefined;
    const check = new pg.Client({ connectionString: url });
    await check.connect();
    try {
      const job = await jobOf(check, orderId);
      finalJob = job?.status;
      expect(job?.status).toBe(report.refunded === 1 ? 'handled' : 'done');
    } finally {
      await check.end();
    }
    const deadLetters = await call(service.base, 'GET', '/api/admin/v1/jobs/failed?kind=order.fulfill', {
      headers: admin,
    });
    expect((deadLetters.body as { jobs: unknown[] }).jobs).toEqual([]);
    const wallet = await call(service.base, 'GET', '/api/public/v1/wallet', { headers: customer.partner });
    expect((wallet.body as { balanceUsd: number }).balanceUsd).toBe(
      report.refunded === 1 ? 100 : 100 - plan.cents / 100,
    );

    // The books check the operator runs (`npm run reconcile`, here from source).
    const reconcile = spawnSync(process.execPath, ['--import', 'tsx', 'src/reconcile.ts'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: url, LOG_LEVEL: 'silent' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(reconcile.status, reconcile.stdout + reconcile.stderr).toBe(0);
    expect(reconcile.stdout).toContain('reconcile OK');

    survived('exhausted fulfillment (kill -9 inside the refund)', {
      refundBlockedAfterMs: blockedAfterMs,
      jobInWindow: inWindow?.status,
      settledAfterRestartMs: settleMs,
      charged: report.charged,
      refunded: report.refunded,
      completed: report.completed,
      finalJob,
      deadLetters: 0,
    });
  });
});
