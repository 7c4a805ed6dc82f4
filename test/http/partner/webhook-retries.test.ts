import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { jobs, webhookDeliveries, webhookEndpoints } from '../../../src/db/schema/index.js';
import type { WebhookResponse } from '../../../src/domain/webhooks/transport.js';
import { HOUR, MINUTE, SECOND } from '../../../src/lib/clock.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { createPartner, PARTNER_ROOT } from './helpers.js';

/** H18: delivery per Standard Webhooks' recommendations (410, Retry-After, jitter, 15 s). */
const ENDPOINTS = `${PARTNER_ROOT}/webhook-endpoints`;

let t: TestApp;
const sent: Array<{ url: string; timeoutMs: number }> = [];
const answer: { next: WebhookResponse } = { next: { status: 200 } };
let randomValue = 0;

beforeAll(async () => {
  t = await buildTestApp({
    webhookResolve: async () => [{ address: '93.184.216.34', family: 4 }],
    webhookTransport: async (target, request) => {
      sent.push({ url: target.url.pathname, timeoutMs: request.timeoutMs });
      return answer.next;
    },
    webhookRandom: () => randomValue,
  });
});
afterAll(() => t.close());
beforeEach(() => {
  sent.length = 0;
  answer.next = { status: 200 };
  randomValue = 0;
});

async function endpointWithPing(path: string) {
  const p = await createPartner(t);
  const endpoint = (
    await t.app.inject({
      method: 'POST',
      url: ENDPOINTS,
      headers: p.headers,
      payload: { url: `https://hooks.example.com${path}` },
    })
  ).json();
  const ping = async () =>
    (
      await t.app.inject({ method: 'POST', url: `${ENDPOINTS}/${endpoint.id}/test`, headers: p.headers })
    ).json();
  const event = await ping();
  const [delivery] = await t.container.db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.eventId, event.id));
  return { p, endpoint, delivery: delivery!, ping };
}

async function jobOf(deliveryId: string) {
  const [job] = await t.container.db
    .select()
    .from(jobs)
    .where(and(eq(jobs.kind, 'webhook.deliver'), eq(jobs.dedupeKey, `deliver:${deliveryId}`)));
  return job!;
}

async function deliveryRow(id: string) {
  return (await t.container.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)))[0]!;
}

describe('webhook delivery policy', () => {
  it('gives every attempt 15 s to answer', async () => {
    await endpointWithPing('/timeout');
    await t.container.worker.runDue();
    expect(sent).toEqual([{ url: '/timeout', timeoutMs: 15 * SECOND }]);
  });

  it('410 Gone fails the delivery without retries and disables the endpoint', async () => {
    const { endpoint, delivery, p } = await endpointWithPing('/gone');
    answer.next = { status: 410 };
    await t.container.worker.runDue();
    expect(await deliveryRow(delivery.id)).toMatchObject({
      status: 'failed',
      attempts: 1,
      responseStatus: 410,
      nextAttemptAt: null,
    });
    expect((await jobOf(delivery.id)).status).toBe('done');
    const [row] = await t.container.db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, endpoint.id));
    expect(row!.status).toBe('disabled');
    const listed = (await t.app.inject({ url: ENDPOINTS, headers: p.headers })).json().data;
    expect(listed[0].status).toBe('disabled');
    // Nothing more is sent: not the retry, and no later event.
    t.clock.advance(11 * HOUR);
    await t.container.worker.runDue();
    expect(sent).toHaveLength(1);
  });

  it.each([
    [429, '3600', HOUR],
    [503, '3600', HOUR],
    // Up to the schedule's cap (10 h), however long the receiver asks for.
    [429, String(7 * 24 * 3600), 10 * HOUR],
    // Never earlier than the schedule either.
    [503, '1', 5 * SECOND],
  ])('honours Retry-After on %i (%s s) → next attempt in %i ms', async (status, retryAfter, expected) => {
    const { delivery } = await endpointWithPing(`/busy-${status}-${retryAfter}`);
    answer.next = { status, retryAfter };
    const before = t.clock.now().getTime();
    await t.container.worker.runDue();
    const job = await jobOf(delivery.id);
    expect(job.runAt.getTime() - before).toBe(expected);
    expect((await deliveryRow(delivery.id)).nextAttemptAt!.getTime()).toBe(job.runAt.getTime());
  });

  it('reads Retry-After as an HTTP-date too, and ignores it on other statuses', async () => {
    const dated = await endpointWithPing('/dated');
    answer.next = { status: 503, retryAfter: new Date(t.clock.now().getTime() + 2 * HOUR).toUTCString() };
    const before = t.clock.now().getTime();
    await t.container.worker.runDue();
    // An HTTP-date has whole seconds.
    const waited = (await jobOf(dated.delivery.id)).runAt.getTime() - before;
    expect(waited).toBeGreaterThan(2 * HOUR - SECOND);
    expect(waited).toBeLessThanOrEqual(2 * HOUR);

    const ignored = await endpointWithPing('/ignored');
    answer.next = { status: 500, retryAfter: '3600' };
    await t.container.worker.runDue();
    expect((await jobOf(ignored.delivery.id)).runAt.getTime() - t.clock.now().getTime()).toBe(5 * SECOND);
  });

  it('adds jitter (up to a quarter of the step) from the injected random source', async () => {
    const { delivery } = await endpointWithPing('/jitter');
    answer.next = { status: 500 };
    randomValue = 0.5;
    let before = t.clock.now().getTime();
    await t.container.worker.runDue();
    expect((await jobOf(delivery.id)).runAt.getTime() - before).toBe(5 * SECOND * 1.125);
    randomValue = 0.999;
    t.clock.advance(5 * SECOND * 1.125);
    before = t.clock.now().getTime();
    await t.container.worker.runDue();
    const job = await jobOf(delivery.id);
    expect(job.runAt.getTime() - before).toBe(Math.round(5 * MINUTE * (1 + 0.25 * 0.999)));
    expect((await deliveryRow(delivery.id)).nextAttemptAt!.getTime()).toBe(job.runAt.getTime());
  });
});
