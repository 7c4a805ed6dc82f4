import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signSandboxPayload } from '../../src/providers/payments/sandbox.js';
import {
  admin,
  call,
  cheapestPlan,
  createCustomer,
  expectMoneySafe,
  startPrivatePostgres,
  startPrivateRedis,
  startService,
  survived,
  waitSettled,
  WORKER_PROCESS,
  type PrivatePostgres,
  type PrivateRedis,
  type ServiceProcess,
} from './support.js';

/**
 * Two API instances (WORKER_ENABLED=false) and one separate worker process on one PostgreSQL and
 * Redis, all started at once on a fresh database: concurrent orders, top-up webhooks delivered to
 * both instances, and rate-limited reads spread over both give one service's results and one
 * rate limit; the background work is done by the worker process alone.
 */
const PG_PORT = 25435;
const REDIS_PORT = 26380;
const API_PORTS = [3760, 3761];
const WORKER_PORT = 3762;
const READ_LIMIT = 30;
const ORDERS = 40;
const TOPUPS = 6;
const SANDBOX_SECRET = 'faults-sandbox-secret';

let pgServer: PrivatePostgres;
let redisServer: PrivateRedis;
let url: string;
const processes: ServiceProcess[] = [];

beforeAll(async () => {
  pgServer = await startPrivatePostgres(PG_PORT);
  redisServer = await startPrivateRedis(REDIS_PORT);
  url = await pgServer.createDatabase('faults_scale');
});

afterAll(async () => {
  await Promise.all(processes.map((p) => p.kill('SIGKILL')));
  await redisServer?.stop();
  await pgServer?.destroy();
});

async function query<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

describe('scale-out', () => {
  it('two API instances + one worker process: one service, one rate limit, no money lost or duplicated', async () => {
    const shared = {
      DATABASE_URL: url,
      REDIS_URL: redisServer.url,
      REDIS_KEY_PREFIX: 'scale:',
      PARTNER_READ_RATE_LIMIT: String(READ_LIMIT),
      PARTNER_ORDER_RATE_LIMIT: '1000',
      FULFILLMENT_RETRY_BASE_SECONDS: '1',
      WORKER_POLL_MS: '200',
      SANDBOX_ESIM_LATENCY_MS: '50',
      SANDBOX_WEBHOOK_SECRET: SANDBOX_SECRET,
    };
    // All three start at once on the empty database: migrations must take turns.
    const apis = API_PORTS.map((port, i) =>
      startService({ name: `api${i + 1}`, port, env: { ...shared, WORKER_ENABLED: 'false' } }),
    );
    const worker = startService({
      name: 'worker',
      port: WORKER_PORT,
      args: WORKER_PROCESS.args,
      env: { ...shared, ...WORKER_PROCESS.env },
    });
    processes.push(...apis, worker);
    await Promise.all([
      ...apis.map((a) => a.waitReady()),
      WORKER_PROCESS.servesHttp ? worker.waitReady() : undefined,
    ]);
    const [api1, api2] = apis as [ServiceProcess, ServiceProcess];
    const at = (i: number) => apis[i % apis.length]!.base;

    const partners = await Promise.all([0, 1, 2, 3].map((i) => createCustomer(at(i), `scale${i}`, 300_00)));
    const plan = await cheapestPlan(api1.base, partners[0]!.partner);

    // 1. Concurrent orders over both instances; the first few provider calls fail, so those
    //    orders (502, charged) must be finished by the worker process.
    await call(api2.base, 'POST', '/api/admin/v1/sandbox/esim-provider/faults', {
      headers: admin,
      json: { failNext: 5 },
    });
    const orderReplies = await Promise.all(
      Array.from({ length: ORDERS }, (_, i) =>
        call(at(i), 'POST', '/api/public/v1/orders', {
          headers: { ...partners[i % partners.length]!.partner, 'idempotency-key': `scale-${i}` },
          json: { planId: plan.id, quantity: 1 },
        }).then((r) => ({ ...r, instance: i % apis.length, partner: i % partners.length })),
      ),
    );
    const statuses = orderReplies.map((r) => r.status);
    expect(
      statuses.filter((s) => s !== 201 && s !== 502),
      JSON.stringify(orderReplies.map((r) => r.text)),
    ).toEqual([]);
    const failedSync = statuses.filter((s) => s === 502).length;
    expect(failedSync).toBeGreaterThan(0);
    // The same key on the other instance replays the first answer: no second order.
    const replays = await Promise.all(
      orderReplies.slice(0, 8).map((r, i) =>
        call(at(i + 1), 'POST', '/api/public/v1/orders', {
          headers: { ...partners[i % partners.length]!.partner, 'idempotency-key': `scale-${i}` },
          json: { planId: plan.id, quantity: 1 },
        }),
      ),
    );
    replays.forEach((r, i) => {
      expect(r.status).toBe(orderReplies[i]!.status);
      expect(r.body).toEqual(orderReplies[i]!.body);
    });

    // 2. Top-ups: the hosted page is paid through instance 1 while the signed webhook is replayed
    //    to both instances at the same time; each top-up is credited exactly once.
    const shopper = await createCustomer(api1.base, 'scale-shopper', 0);
    const sessions = [];
    for (let i = 0; i < TOPUPS; i++) {
      const res = await call(at(i), 'POST', '/api/v1/payments/card/create-session', {
        headers: shopper.session,
        json: { amount: 1000 + i, currency: 'USD' },
      });
      expect(res.status, res.text).toBe(200);
      sessions.push((res.body as { sessionId: string }).sessionId);
    }
    const paymentRows = await query<{ id: string; provider_ref: string; amount_minor: string }>(
      'select id, provider_ref, amount_minor from payments where account_id = $1',
      [shopper.id],
    );
    const deliveries = sessions.flatMap((sessionId, i) => {
      const payment = paymentRows.find((p) => p.provider_ref === sessionId)!;
      const body = JSON.stringify({
        id: `evt_scale_${sessionId}`,
        type: 'card.paid',
        data: {
          object: {
            id: sessionId,
            reference: payment.id,
            amountMinor: 1000 + i,
            currency: 'USD',
            status: 'paid',
          },
        },
      });
      const signature = signSandboxPayload(SANDBOX_SECRET, body, Math.floor(Date.now() / 1000));
      const webhook = (base: string) =>
        call(base, 'POST', '/api/v1/payments/card/webhook', {
          headers: { 'content-type': 'application/json', 'sandbox-signature': signature },
          json: JSON.parse(body),
        });
      return [
        webhook(api1.base),
        webhook(api2.base),
        webhook(api2.base),
        call(api1.base, 'POST', `/sandbox/card/${sessionId}/complete`, { json: { outcome: 'paid' } }),
      ];
    });
    const delivered = await Promise.all(deliveries);
    expect(
      delivered.filter((r) => r.status !== 200 && r.status !== 303).map((r) => `${r.status} ${r.text}`),
    ).toEqual([]);
    const expectedTopUps = Array.from({ length: TOPUPS }, (_, i) => 1000 + i).reduce((a, b) => a + b, 0);
    for (const base of [api1.base, api2.base]) {
      const wallet = await call(base, 'GET', '/api/public/v1/wallet', { headers: shopper.partner });
      expect(wallet.body).toEqual({
        balanceUsd: expectedTopUps / 100,
        currency: 'USD',
        lowBalanceThreshold: 50,
      });
    }
    const [shopperRow] = await query<{ balance: string }>(
      'select wallet_balance_cents as balance from accounts where id = $1',
      [shopper.id],
    );
    expect(Number(shopperRow!.balance)).toBe(expectedTopUps);

    // 3. Rate-limited reads alternating between the instances: one budget.
    const reader = await createCustomer(api1.base, 'scale-reader', 0);
    const reads = await Promise.all(
      Array.from({ length: READ_LIMIT + 10 }, (_, i) =>
        call(at(i), 'GET', '/api/public/v1/wallet', { headers: reader.partner }),
      ),
    );
    const readOk = reads.filter((r) => r.status === 200).length;
    const read429 = reads.filter((r) => r.status === 429).length;
    expect({ readOk, read429 }).toEqual({ readOk: READ_LIMIT, read429: 10 });

    // 4. The worker process finishes what failed; both instances then show the same orders.
    const report = await waitSettled(url, 120_000);
    expectMoneySafe(report);
    const [jobAttempts] = await query<{ n: string }>(
      "select count(*) as n from fulfillment_attempts where source = 'job' and outcome = 'success'",
    );
    expect(Number(jobAttempts!.n)).toBeGreaterThanOrEqual(failedSync);
    for (const partner of partners) {
      const lists = await Promise.all(
        apis.map((a) => call(a.base, 'GET', '/api/public/v1/orders?limit=100', { headers: partner.partner })),
      );
      const summaries = lists.map((l) =>
        (l.body as { orders: Array<{ id: string; status: string }> }).orders.map(
          (o) => `${o.id}:${o.status}`,
        ),
      );
      expect(summaries[0]!.length).toBe(ORDERS / partners.length);
      expect(summaries[1]).toEqual(summaries[0]);
      expect(summaries[0]!.every((s) => s.endsWith(':COMPLETED') || s.endsWith(':REFUNDED'))).toBe(true);
    }
    for (const p of processes) expect(p.child.exitCode).toBeNull();

    survived('scale-out (2 API instances + 1 worker process)', {
      workerCommand: WORKER_PROCESS.args.join(' '),
      orders: ORDERS,
      failedSynchronously: failedSync,
      finishedByWorkerProcess: Number(jobAttempts!.n),
      idempotentReplaysAcrossInstances: replays.length,
      topUps: TOPUPS,
      webhookDeliveries: delivered.length,
      creditedCents: expectedTopUps,
      reads: reads.length,
      readOk,
      read429,
      charged: report.charged,
      completed: report.completed,
      refunded: report.refunded,
    });
  });
});
