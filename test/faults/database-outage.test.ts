import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  admin,
  call,
  cheapestPlan,
  createCustomer,
  expectMoneySafe,
  sleep,
  startPrivatePostgres,
  startService,
  survived,
  waitSettled,
  type PrivatePostgres,
  type Reply,
  type ServiceProcess,
} from './support.js';

/**
 * PostgreSQL restarted under load: while it is away every request answers 503 in its surface's
 * error shape within 5 s (no hang, no 500); the service serves again within 10 s of its return,
 * without a restart; no money is lost or duplicated.
 */
const PG_PORT = 25433;
const HTTP_PORT = 3752;
const WARM_UP_MS = 2_000;
const OUTAGE_MS = 8_000;
const AFTER_MS = 14_000;
const LOOPERS = 6;

let pgServer: PrivatePostgres;
let url: string;
let service: ServiceProcess | undefined;

beforeAll(async () => {
  pgServer = await startPrivatePostgres(PG_PORT);
  url = await pgServer.createDatabase('faults_outage');
});

afterAll(async () => {
  await service?.kill('SIGKILL');
  await pgServer?.destroy();
});

type Surface = 'mobile' | 'partner' | 'admin';
interface Sample extends Reply {
  surface: Surface;
  route: string;
  needsDb: boolean;
}

function hasSurfaceErrorShape(surface: Surface, body: unknown, code: string): boolean {
  if (!body || typeof body !== 'object') return false;
  if (surface === 'mobile') {
    const b = body as { error?: unknown; code?: unknown };
    return typeof b.error === 'string' && b.code === code;
  }
  const e = (body as { error?: { code?: unknown; message?: unknown } }).error;
  return !!e && e.code === code && typeof e.message === 'string';
}

describe('database outage', () => {
  it('PostgreSQL restarted under load: 503 in the surface shape within 5 s, serving again within 10 s', async () => {
    service = startService({
      name: 'api',
      port: HTTP_PORT,
      env: {
        DATABASE_URL: url,
        FULFILLMENT_RETRY_BASE_SECONDS: '1',
        WORKER_POLL_MS: '250',
        PARTNER_ORDER_RATE_LIMIT: '100000',
        PARTNER_READ_RATE_LIMIT: '100000',
        AUTH_RATE_LIMIT: '100000',
      },
    });
    await service.waitReady();
    const pid = service.child.pid;
    const c = await createCustomer(service.base, 'outage', 5_000_00);
    const plan = await cheapestPlan(service.base, c.partner);
    const base = service.base;

    let n = 0;
    const routes: Array<() => Promise<Sample>> = [
      async () => ({
        ...(await call(base, 'GET', '/api/v1/auth/me', { headers: c.session })),
        surface: 'mobile',
        route: 'GET /api/v1/auth/me',
        needsDb: true,
      }),
      async () => ({
        ...(await call(base, 'GET', '/api/public/v1/wallet', { headers: c.partner })),
        surface: 'partner',
        route: 'GET /api/public/v1/wallet',
        needsDb: true,
      }),
      async () => ({
        ...(await call(base, 'GET', '/api/public/v1/orders?limit=5', { headers: c.partner })),
        surface: 'partner',
        route: 'GET /api/public/v1/orders',
        needsDb: true,
      }),
      async () => ({
        ...(await call(base, 'POST', '/api/public/v1/orders', {
          headers: { ...c.partner, 'idempotency-key': `outage-${++n}` },
          json: { planId: plan.id, quantity: 1 },
        })),
        surface: 'partner',
        route: 'POST /api/public/v1/orders',
        needsDb: true,
      }),
      async () => ({
        ...(await call(base, 'POST', '/api/v1/checkout', {
          headers: { ...c.session, 'idempotency-key': `outage-m-${++n}` },
          json: { planId: plan.id, quantity: 1, paymentMethod: 'wallet' },
        })),
        surface: 'mobile',
        route: 'POST /api/v1/checkout',
        needsDb: true,
      }),
      async () => ({
        ...(await call(base, 'GET', '/api/admin/v1/accounts?limit=5', { headers: admin })),
        surface: 'admin',
        route: 'GET /api/admin/v1/accounts',
        needsDb: true,
      }),
    ];

    const samples: Sample[] = [];
    let stop = false;
    const loopers = Array.from({ length: LOOPERS }, async (_, i) => {
      for (let k = i; !stop; k++) {
        samples.push(await routes[k % routes.length]!());
        await sleep(40);
      }
    });

    await sleep(WARM_UP_MS);
    const downStartedAt = Date.now();
    await pgServer.stop('fast');
    const downAt = Date.now();
    await sleep(OUTAGE_MS);
    const upStartedAt = Date.now();
    await pgServer.start();
    const upAt = Date.now();
    await sleep(AFTER_MS);
    stop = true;
    await Promise.all(loopers);

    if (service.child.exitCode !== null || service.child.signalCode !== null)
      throw new Error(`the service died (${service.child.exitCode}):\n${service.logs.slice(-30).join('\n')}`);
    // Never a hang, a dropped connection or a 500; the only server errors are 503s in shape.
    expect(samples.filter((s) => s.status === 0).map((s) => `${s.route}: ${s.text}`)).toEqual([]);
    expect(
      samples
        .filter((s) => s.status >= 500 && s.status !== 503)
        .map((s) => `${s.route} ${s.status} ${s.text}`),
    ).toEqual([]);
    const slowest = Math.max(...samples.map((s) => s.ms));
    expect(slowest).toBeLessThan(5_000);
    const unavailable = samples.filter((s) => s.status === 503);
    for (const s of unavailable)
      expect(hasSurfaceErrorShape(s.surface, s.body, 'SERVICE_UNAVAILABLE'), s.text).toBe(true);

    // While the database was away (requests that started and ended inside the outage): all 503.
    const during = samples.filter(
      (s) => s.needsDb && s.startedAt >= downAt && s.startedAt + s.ms <= upStartedAt,
    );
    expect(during.length).toBeGreaterThan(10);
    expect(during.filter((s) => s.status !== 503).map((s) => `${s.route} ${s.status}`)).toEqual([]);

    // Back within 10 s of the database's return, and every request after that succeeds.
    const after = samples
      .filter((s) => s.needsDb && s.startedAt >= upAt)
      .sort((a, b) => a.startedAt - b.startedAt);
    const firstOk = after.find((s) => s.status >= 200 && s.status < 300);
    expect(firstOk).toBeDefined();
    const recoveryMs = firstOk!.startedAt + firstOk!.ms - upAt;
    expect(recoveryMs).toBeLessThan(10_000);
    const late = after.filter((s) => s.startedAt >= upAt + 10_000);
    expect(late.length).toBeGreaterThan(10);
    expect(
      late.filter((s) => s.status < 200 || s.status >= 300).map((s) => `${s.route} ${s.status} ${s.text}`),
    ).toEqual([]);
    expect(service.child.pid).toBe(pid);
    expect(service.child.exitCode).toBeNull();

    const report = await waitSettled(url, 150_000);
    expectMoneySafe(report);
    survived('database outage (PostgreSQL restart under load)', {
      requests: samples.length,
      outageMs: upAt - downStartedAt,
      during503: during.length,
      total503: unavailable.length,
      slowestMs: slowest,
      slowest503Ms: Math.max(...unavailable.map((s) => s.ms)),
      recoveryMs,
      restartsOfService: 0,
      orders: report.orders,
      charged: report.charged,
      completed: report.completed,
      refunded: report.refunded,
    });
  });
});
