import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MINUTE } from '../../src/lib/clock.js';
import { ADMIN_TOKEN, buildTestApp, type TestApp } from '../helpers/app.js';
import { pickPlan } from '../helpers/catalog.js';
import { createUser } from '../helpers/factories.js';
import { createPartner, PARTNER_ROOT } from '../http/partner/helpers.js';

const METRICS_TOKEN = 'metrics-token-0123456789abcdef';
let t: TestApp;
let off: TestApp;
let planId: string;

beforeAll(async () => {
  t = await buildTestApp({ env: { METRICS_TOKEN, WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
  off = await buildTestApp();
  planId = (await pickPlan(t.container)).id;
});
afterAll(async () => {
  await t?.close();
  await off?.close();
});

const scrape = async (app = t) => {
  const res = await app.app.inject({
    url: '/metrics',
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  expect(res.statusCode).toBe(200);
  return res.body;
};

/** The value of one sample line, e.g. sample(body, 'esim_orders{state="COMPLETED"}'). */
function sample(body: string, series: string): number | undefined {
  const line = body.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics', () => {
  test('does not exist without METRICS_TOKEN', async () => {
    const res = await off.app.inject({
      url: '/metrics',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('http_request_duration_seconds');
  });

  test('needs the bearer token', async () => {
    for (const authorization of [
      undefined,
      'Bearer wrong-token-0123456789abcdef',
      METRICS_TOKEN,
      `Bearer ${ADMIN_TOKEN}`,
    ]) {
      const res = await t.app.inject({ url: '/metrics', headers: authorization ? { authorization } : {} });
      expect(res.statusCode).toBe(401);
      expect(res.body).not.toContain('process_cpu');
    }
  });

  test('Prometheus text with process metrics, by-route request durations (pattern, not raw URL)', async () => {
    await t.app.inject({ url: '/api/v1/destinations/tr' });
    await t.app.inject({ url: '/api/v1/destinations/de?currency=EUR' });
    await t.app.inject({ url: '/no/such/path-1234' });
    const res = await t.app.inject({
      url: '/metrics',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const body = res.body;
    expect(body).toContain('# TYPE http_request_duration_seconds histogram');
    expect(
      sample(
        body,
        'http_request_duration_seconds_count{method="GET",route="/api/v1/destinations/:code",status_code="200"}',
      ),
    ).toBe(2);
    expect(
      sample(body, 'http_request_duration_seconds_count{method="GET",route="unmatched",status_code="404"}'),
    ).toBe(1);
    expect(body).not.toContain('path-1234');
    expect(body).not.toMatch(/route="\/api\/v1\/destinations\/(tr|de)/);
    expect(body).toContain('process_cpu_user_seconds_total');
    expect(body).toContain('nodejs_heap_size_used_bytes');
  });

  test('orders by state, fulfillment failures, job queue depth and age', async () => {
    const user = await createUser(t.container, { balanceCents: 100_00 });
    const buy = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/checkout',
        headers: user.auth,
        payload: { planId, paymentMethod: 'wallet' },
      });
    const before = await scrape();
    expect(sample(before, 'esim_orders{state="PROCESSING"}')).toBe(0);
    expect(sample(before, 'esim_orders{state="AWAITING_PAYMENT"}')).toBe(0);
    expect((await buy()).statusCode).toBe(200);

    const failNext = await t.app.inject({
      method: 'POST',
      url: '/api/admin/v1/sandbox/esim-provider/faults',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      payload: { failNext: 1 },
    });
    expect(failNext.statusCode).toBe(200);
    expect((await buy()).statusCode).toBe(502); // charged, PROCESSING, retried by a job

    const body = await scrape();
    // Open orders only: a final state's count would grow with the history, read at every scrape.
    expect(body).not.toContain('esim_orders{state="COMPLETED"}');
    expect(sample(body, 'esim_orders{state="PROCESSING"}')).toBe(1);
    expect(sample(body, 'esim_fulfillment_failures_total{source="request",retryable="true"}')).toBe(1);
    expect(sample(body, 'esim_jobs{state="failed"}')).toBe(0);
    const scheduled = sample(body, 'esim_jobs{state="scheduled"}')!;
    expect(scheduled).toBeGreaterThanOrEqual(1); // the fulfillment retry, among periodic jobs

    // Time passes with no worker running: the retry is due and ageing.
    t.clock.advance(10 * MINUTE);
    const later = await scrape();
    expect(sample(later, 'esim_jobs{state="due"}')).toBeGreaterThanOrEqual(1);
    expect(sample(later, 'esim_jobs_oldest_due_age_seconds')).toBeGreaterThanOrEqual(9 * 60);

    await t.container.worker.runDue();
    const drained = await scrape();
    expect(sample(drained, 'esim_jobs{state="due"}')).toBe(0);
    expect(sample(drained, 'esim_jobs_oldest_due_age_seconds')).toBe(0);
    expect(sample(drained, 'esim_orders{state="PROCESSING"}')).toBe(0);
  });

  test('DB pool use on PostgreSQL', async () => {
    const body = await scrape();
    if (t.database.kind === 'postgres') {
      expect(sample(body, 'esim_db_pool_connections{state="max"}')).toBe(10);
      expect(sample(body, 'esim_db_pool_connections{state="total"}')).toBeGreaterThanOrEqual(1);
      expect(sample(body, 'esim_db_pool_waiting_requests')).toBe(0);
    } else {
      expect(body).not.toContain('esim_db_pool_connections');
    }
  });

  test('partner webhook deliveries by state and the oldest pending one', async () => {
    const before = sample(await scrape(), 'esim_webhook_deliveries{state="pending"}') ?? 0;
    const partner = await createPartner(t);
    // Port 9 (discard) on loopback: nothing answers, so the ping stays pending with retries.
    const created = await t.app.inject({
      method: 'POST',
      url: `${PARTNER_ROOT}/webhook-endpoints`,
      headers: partner.headers,
      payload: { url: 'http://127.0.0.1:9/hook' },
    });
    expect(created.statusCode).toBe(201);
    const ping = await t.app.inject({
      method: 'POST',
      url: `${PARTNER_ROOT}/webhook-endpoints/${created.json().id}/test`,
      headers: partner.headers,
    });
    expect(ping.statusCode).toBe(202);
    t.clock.advance(2 * MINUTE);
    const body = await scrape();
    expect(sample(body, 'esim_webhook_deliveries{state="pending"}')).toBe(before + 1);
    expect(sample(body, 'esim_webhook_oldest_pending_age_seconds')).toBeGreaterThanOrEqual(120);
    // Deliveries that are not done: succeeded ones are history (30 days of it), not counted per scrape.
    expect(sample(body, 'esim_webhook_deliveries{state="failed"}')).toBe(0);
    expect(body).not.toContain('esim_webhook_deliveries{state="succeeded"}');
  });
});
