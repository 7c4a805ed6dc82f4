import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  admin,
  call,
  cheapestPlan,
  createCustomer,
  expectMoneySafe,
  moneyReport,
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
 * kill -9 of the service in the middle of a burst of concurrent Partner and wallet-checkout
 * orders, then a restart: every charged order ends COMPLETED or REFUNDED, nothing is charged
 * twice (also when clients retry with their Idempotency-Key), every balance = Σ its ledger.
 */
const PG_PORT = 25432;
const HTTP_PORT = 3750;
const ROUNDS = 2;
const CUSTOMERS = 6;
const ORDERS_PER_CUSTOMER = 8; // half Partner, half wallet checkout

let pgServer: PrivatePostgres;
let url: string;
let service: ServiceProcess | undefined;

const env = () => ({
  DATABASE_URL: url,
  // Slow enough that the kill lands while provider calls are in flight.
  SANDBOX_ESIM_LATENCY_MS: '300',
  FULFILLMENT_RETRY_BASE_SECONDS: '1',
  FULFILLMENT_MAX_ATTEMPTS: '1',
  WORKER_POLL_MS: '200',
  WORKER_CONCURRENCY: '4',
  PARTNER_ORDER_RATE_LIMIT: '10000',
  PARTNER_READ_RATE_LIMIT: '10000',
  // The six customers register at once from one address; past its share (4) the password gate
  // refuses such a burst by design (issue 28 H2), which is not what this test is about.
  PASSWORD_HASH_CLIENT_LIMIT: '100',
});

beforeAll(async () => {
  pgServer = await startPrivatePostgres(PG_PORT);
  url = await pgServer.createDatabase('faults_crash');
});

afterAll(async () => {
  await service?.kill('SIGKILL');
  await pgServer?.destroy();
});

describe('crash safety', () => {
  it('kill -9 during a burst of orders, restart: charged = completed + refunded, no double charge, ledger intact', async () => {
    service = startService({ name: 'api', port: HTTP_PORT, env: env() });
    await service.waitReady();
    const customers = await Promise.all(
      Array.from({ length: CUSTOMERS }, (_, i) => createCustomer(service!.base, `crash${i}`, 200_00)),
    );
    const plan = await cheapestPlan(service.base, customers[0]!.partner);

    let inFlightAtKill = 0;
    let answeredBeforeKill = 0;
    let retried = 0;
    let retryReplays = 0;
    let retryInUse = 0;
    const okOrderIds = new Set<string>();

    for (let round = 1; round <= ROUNDS; round++) {
      const base = service.base;
      // A few provider failures: those orders go to the background retry (and some to refund).
      await call(base, 'POST', '/api/admin/v1/sandbox/esim-provider/faults', {
        headers: admin,
        json: { failNext: 4 },
      });
      const requests = customers.flatMap((c, ci) =>
        Array.from({ length: ORDERS_PER_CUSTOMER }, (_, i) => {
          const key = `crash-r${round}-c${ci}-${i}`;
          return i % 2 === 0
            ? {
                key,
                send: (b: string, timeoutMs = 15_000) =>
                  call(b, 'POST', '/api/public/v1/orders', {
                    headers: { ...c.partner, 'idempotency-key': key },
                    json: { planId: plan.id, quantity: 1 + (i % 3) },
                    timeoutMs,
                  }),
              }
            : {
                key,
                send: (b: string, timeoutMs = 15_000) =>
                  call(b, 'POST', '/api/v1/checkout', {
                    headers: { ...c.session, 'idempotency-key': key },
                    json: { planId: plan.id, quantity: 1, paymentMethod: 'wallet' },
                    timeoutMs,
                  }),
              };
        }),
      );
      let answered = 0;
      const pending = requests.map((r) =>
        r.send(base).then((reply) => {
          answered++;
          return reply;
        }),
      );
      // Kill once a quarter of the burst has been answered (or after 3 s): the rest is in flight.
      const deadline = Date.now() + 3000;
      while (answered < requests.length / 4 && Date.now() < deadline) await sleep(10);
      inFlightAtKill += requests.length - answered;
      answeredBeforeKill += answered;
      await service.kill('SIGKILL');
      const replies: Reply[] = await Promise.all(pending);

      service = startService({ name: 'api', port: HTTP_PORT, env: env() });
      await service.waitReady();
      // The provider is still flaky after the restart: jobs that fail now are out of attempts
      // (FULFILLMENT_MAX_ATTEMPTS=1), so their orders are refunded instead of completed.
      await call(service.base, 'POST', '/api/admin/v1/sandbox/esim-provider/faults', {
        headers: admin,
        json: { failNext: 6 },
      });

      // Clients whose request died with the process retry with the same Idempotency-Key.
      const retries: Array<Promise<void>> = [];
      for (const [i, reply] of replies.entries()) {
        if (reply.status !== 0) {
          expect([200, 201, 400, 402, 409, 502], reply.text).toContain(reply.status);
          const body = reply.body as { id?: string; orderId?: string };
          const id = body.id ?? body.orderId;
          if ((reply.status === 200 || reply.status === 201) && id) okOrderIds.add(id);
          continue;
        }
        retried++;
        retries.push(
          // The server waits up to 30 s for a key in use before answering 409.
          requests[i]!.send(service.base, 45_000).then((again) => {
            expect([200, 201, 400, 402, 409, 502], again.text).toContain(again.status);
            if (again.status === 409) {
              // The crashed request still holds the key: refusing is the safe answer (no second charge).
              expect(again.text).toContain('IDEMPOTENCY_KEY_IN_USE');
              retryInUse++;
            } else retryReplays++;
          }),
        );
      }
      await Promise.all(retries);
    }

    const report = await waitSettled(url, 150_000);
    expectMoneySafe(report);
    for (const id of okOrderIds) {
      const stuck = report.stuck.find((s) => s.id === id);
      expect(stuck).toBeUndefined();
    }
    expect(report.charged).toBeGreaterThan(0);
    const final = await moneyReport(url);
    expect(final).toEqual(report);
    survived('crash safety (kill -9)', {
      restarts: ROUNDS,
      requests: ROUNDS * CUSTOMERS * ORDERS_PER_CUSTOMER,
      answeredBeforeKill,
      inFlightAtKill,
      retriedWithSameKey: retried,
      retryAnswered: retryReplays,
      retryKeyStillInUse: retryInUse,
      orders: report.orders,
      charged: report.charged,
      completed: report.completed,
      refunded: report.refunded,
    });
  });
});
