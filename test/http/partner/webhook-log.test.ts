import { and, count, like, sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { jobs, webhookDeliveryAttempts } from '../../../src/db/schema/index.js';
import { signWebhook } from '../../../src/domain/webhooks/signature.js';
import { DAY, SECOND } from '../../../src/lib/clock.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { startReceiver, type Receiver } from '../../helpers/webhook-receiver.js';
import { createPartner, PARTNER_ROOT, partnerWithBothKeys } from './helpers.js';

/** Issue 32 C2 on the Partner API: delivery log, resend, secret rotation, PATCH, test mode. */

const ENDPOINTS = `${PARTNER_ROOT}/webhook-endpoints`;
type Headers = Record<string, string>;

let t: TestApp;
let receiver: Receiver;

beforeAll(async () => {
  // Jitter 0: retries run exactly on the schedule (5 s after the first failure).
  t = await buildTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }, webhookRandom: () => 0 });
  receiver = await startReceiver(3404);
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});
beforeEach(() => {
  receiver.received.length = 0;
  Object.assign(receiver.state, { status: 200, delayMs: 0, body: 'ok' });
});

async function endpoint(headers: Headers, url = receiver.url) {
  const res = await t.app.inject({ method: 'POST', url: ENDPOINTS, headers, payload: { url } });
  expect(res.statusCode).toBe(201);
  return res.json<{ id: string; secret: string }>();
}

async function ping(headers: Headers, id: string) {
  const res = await t.app.inject({ method: 'POST', url: `${ENDPOINTS}/${id}/test`, headers });
  expect(res.statusCode).toBe(202);
  await t.container.worker.runDue();
  return res.json().id as string;
}

async function log(headers: Headers, id: string, query = '') {
  const res = await t.app.inject({ url: `${ENDPOINTS}/${id}/deliveries${query}`, headers });
  expect(res.statusCode).toBe(200);
  return res.json();
}

function resend(headers: Headers, id: string, deliveryId: string) {
  return t.app.inject({ method: 'POST', url: `${ENDPOINTS}/${id}/deliveries/${deliveryId}/resend`, headers });
}

describe('the delivery log', () => {
  it('records each attempt: status, error, duration, the first 1 KB of the body, next retry', async () => {
    const p = await createPartner(t);
    const { id } = await endpoint(p.headers);
    Object.assign(receiver.state, { status: 500, delayMs: 60, body: `${'é'.repeat(600)}tail` });
    const eventId = await ping(p.headers, id);

    let page = await log(p.headers, id);
    expect(page).toMatchObject({ hasMore: false, nextCursor: null });
    const [first] = page.data;
    expect(first).toMatchObject({ eventId, eventType: 'ping', status: 'pending' });
    expect(first.attempts).toHaveLength(1);
    const attempt = first.attempts[0];
    expect(attempt).toMatchObject({
      attempt: 1,
      responseStatus: 500,
      error: 'endpoint answered HTTP 500',
      manual: false,
      startedAt: t.clock.now().toISOString(),
    });
    expect(attempt.durationMs).toBeGreaterThanOrEqual(50);
    // 600 two-byte characters = 1200 bytes: cut at 1024 bytes, i.e. 512 characters, no tail.
    expect(attempt.responseBody).toBe('é'.repeat(512));
    expect(attempt.nextRetryAt).toBe(new Date(t.clock.now().getTime() + 5 * SECOND).toISOString());
    expect(first.nextRetryAt).toBe(attempt.nextRetryAt);

    // The retry succeeds: a second attempt, and no next retry.
    Object.assign(receiver.state, { status: 204, delayMs: 0, body: '' });
    t.clock.advance(5 * SECOND);
    await t.container.worker.runDue();
    page = await log(p.headers, id);
    expect(page.data[0]).toMatchObject({ status: 'succeeded', nextRetryAt: null });
    expect(page.data[0].attempts.map((a: { responseStatus: number }) => a.responseStatus)).toEqual([
      500, 204,
    ]);
    expect(page.data[0].attempts[1]).toMatchObject({ error: null, responseBody: '', nextRetryAt: null });
  });

  it('records a network error without a status, and strips control characters from bodies', async () => {
    const p = await createPartner(t);
    // Nothing listens on port 1 of the loopback.
    const dead = await endpoint(p.headers, 'http://127.0.0.1:1/hooks');
    await ping(p.headers, dead.id);
    const [attempt] = (await log(p.headers, dead.id)).data[0].attempts;
    expect(attempt.responseStatus).toBeNull();
    expect(attempt.error).toMatch(/^request failed: .*ECONNREFUSED/);
    expect(attempt.responseBody).toBeNull();

    const { id } = await endpoint(p.headers);
    receiver.state.body = 'ok\u0000\u001b[31mred\r\n';
    await ping(p.headers, id);
    expect((await log(p.headers, id)).data[0].attempts[0].responseBody).toBe('ok[31mred\r\n');
  });

  it('pages newest first with a cursor bound to the endpoint', async () => {
    const p = await createPartner(t);
    const { id } = await endpoint(p.headers);
    const events: string[] = [];
    for (let i = 0; i < 3; i++) {
      events.push(await ping(p.headers, id));
      t.clock.advance(SECOND);
    }
    const one = await log(p.headers, id, '?limit=2');
    expect(one.data.map((d: { eventId: string }) => d.eventId)).toEqual([events[2], events[1]]);
    expect(one.hasMore).toBe(true);
    const two = await log(p.headers, id, `?limit=2&cursor=${one.nextCursor}`);
    expect(two.data.map((d: { eventId: string }) => d.eventId)).toEqual([events[0]]);
    expect(two).toMatchObject({ hasMore: false, nextCursor: null });

    const other = await endpoint(p.headers);
    const foreign = await t.app.inject({
      url: `${ENDPOINTS}/${other.id}/deliveries?cursor=${one.nextCursor}`,
      headers: p.headers,
    });
    expect(foreign.statusCode).toBe(400);
  });
});

describe('resend', () => {
  it('sends the same webhook-id again; a double click queues one attempt', async () => {
    const p = await createPartner(t);
    const { id } = await endpoint(p.headers);
    const eventId = await ping(p.headers, id);
    const [delivery] = (await log(p.headers, id)).data;
    expect(delivery.status).toBe('succeeded');

    receiver.state.status = 500;
    const [a, b] = await Promise.all([
      resend(p.headers, id, delivery.id),
      resend(p.headers, id, delivery.id),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([202, 202]);
    expect(a.json()).toMatchObject({ id: delivery.id, status: 'pending' });
    const queued = await t.container.db
      .select()
      .from(jobs)
      .where(and(like(jobs.dedupeKey, `%${delivery.id}%`), sql`${jobs.status} = 'pending'`));
    expect(queued).toHaveLength(1);

    await t.container.worker.runDue();
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([eventId, eventId]);
    // A failed resend gets no automatic retry: the partner decides what next.
    const after = (await log(p.headers, id)).data[0];
    expect(after).toMatchObject({ status: 'failed', nextRetryAt: null });
    expect(after.attempts[1]).toMatchObject({
      attempt: 2,
      manual: true,
      responseStatus: 500,
      nextRetryAt: null,
    });

    // Once fixed, a second resend succeeds.
    receiver.state.status = 200;
    expect((await resend(p.headers, id, delivery.id)).statusCode).toBe(202);
    await t.container.worker.runDue();
    expect((await log(p.headers, id)).data[0]).toMatchObject({ status: 'succeeded' });
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([eventId, eventId, eventId]);
  });

  it('brings a scheduled retry forward instead of queueing a second attempt', async () => {
    const p = await createPartner(t);
    const { id } = await endpoint(p.headers);
    receiver.state.status = 503;
    await ping(p.headers, id);
    const [delivery] = (await log(p.headers, id)).data;
    expect(delivery.status).toBe('pending');
    receiver.state.status = 200;
    expect((await resend(p.headers, id, delivery.id)).statusCode).toBe(202);
    await t.container.worker.runDue();
    const after = (await log(p.headers, id)).data[0];
    expect(after.status).toBe('succeeded');
    expect(after.attempts).toHaveLength(2);
    expect(receiver.received).toHaveLength(2);
  });

  it('answers 404 for another endpoint’s delivery and 409 on a disabled endpoint', async () => {
    const p = await createPartner(t);
    const one = await endpoint(p.headers);
    const two = await endpoint(p.headers);
    await ping(p.headers, one.id);
    const [delivery] = (await log(p.headers, one.id)).data;
    expect((await resend(p.headers, two.id, delivery.id)).statusCode).toBe(404);
    await t.app.inject({
      method: 'PATCH',
      url: `${ENDPOINTS}/${one.id}`,
      headers: p.headers,
      payload: { enabled: false },
    });
    const refused = await resend(p.headers, one.id, delivery.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('INVALID_STATE');
  });
});

describe('secret rotation', () => {
  it('signs with both secrets for 24 h, then with the new one only', async () => {
    const p = await createPartner(t);
    const { id, secret: old } = await endpoint(p.headers);
    const rotated = await t.app.inject({
      method: 'POST',
      url: `${ENDPOINTS}/${id}/rotate-secret`,
      headers: p.headers,
    });
    expect(rotated.statusCode).toBe(200);
    const { secret, previousSecretExpiresAt } = rotated.json();
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(old);
    expect(previousSecretExpiresAt).toBe(new Date(t.clock.now().getTime() + DAY).toISOString());
    const got = await t.app.inject({ url: `${ENDPOINTS}/${id}`, headers: p.headers });
    expect(got.json()).not.toHaveProperty('secret');
    expect(got.body).not.toContain(secret.slice(6));

    // Right after the rotation, the reference library verifies with either secret.
    await ping(p.headers, id);
    const hit = receiver.received.at(-1)!;
    const headers = hit.headers as Record<string, string>;
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(() => new Webhook(secret).verify(hit.body, headers)).not.toThrow();
    expect(() => new Webhook(old).verify(hit.body, headers)).not.toThrow();

    /** The v1 signatures of the last delivery, and the one `key` would make. */
    const signed = (key: string) => {
      const last = receiver.received.at(-1)!;
      const h = last.headers as Record<string, string>;
      return {
        sent: h['webhook-signature']!.split(' '),
        expected: signWebhook(key, h['webhook-id']!, Number(h['webhook-timestamp']), last.body),
      };
    };
    t.clock.advance(DAY - 2 * SECOND);
    await ping(p.headers, id);
    expect(signed(secret).sent).toEqual([signed(secret).expected, signed(old).expected]);

    t.clock.advance(2 * SECOND);
    await ping(p.headers, id);
    expect(signed(secret).sent).toEqual([signed(secret).expected]);
  });
});

describe('PATCH /webhook-endpoints/{id}', () => {
  it('changes url, events, description and enabled; validates like creation', async () => {
    const p = await createPartner(t);
    const { id } = await endpoint(p.headers);
    const patch = (payload: unknown) =>
      t.app.inject({
        method: 'PATCH',
        url: `${ENDPOINTS}/${id}`,
        headers: p.headers,
        payload: payload as object,
      });

    const changed = await patch({
      events: ['order.completed'],
      description: 'orders',
      url: `${receiver.url}/v2`,
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({
      events: ['order.completed'],
      description: 'orders',
      url: `${receiver.url}/v2`,
    });
    expect((await patch({ events: null, description: null })).json()).toMatchObject({
      events: null,
      description: null,
    });

    for (const [payload, field] of [
      [{}, undefined],
      [{ url: 'ftp://example.com/hook' }, 'url'],
      [{ url: 'https://user:pw@example.com/hook' }, 'url'],
      [{ events: [] }, undefined],
      [{ enabled: 'yes' }, undefined],
    ] as const) {
      const res = await patch(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
      if (field) expect(res.json().error.details.field).toBe(field);
    }
    const unknown = await patch({ events: ['order.shipped'] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.message).toMatch(/"order.shipped" is not an event type/);

    // Disabled: nothing is delivered (but a test ping still goes, to check the receiver).
    receiver.state.status = 500;
    await ping(p.headers, id);
    expect((await patch({ enabled: false })).json().status).toBe('disabled');
    const failing = (await t.app.inject({ url: `${ENDPOINTS}/${id}`, headers: p.headers })).json();
    expect(failing.failingSince).not.toBeNull();
    // Enabling gives it a fresh start.
    expect((await patch({ enabled: true })).json()).toMatchObject({ status: 'enabled', failingSince: null });
    expect((await t.app.inject({ url: `${ENDPOINTS}/nope`, headers: p.headers })).statusCode).toBe(404);
  });
});

describe('test mode', () => {
  it('a test key sees and changes only test endpoints, and the reverse', async () => {
    const p = await partnerWithBothKeys(t);
    const live = await endpoint(p.live);
    const test = await endpoint(p.test);
    await ping(p.live, live.id);
    const [delivery] = (await log(p.live, live.id)).data;
    const list = (await t.app.inject({ url: ENDPOINTS, headers: p.test })).json().data;
    expect(list.map((e: { id: string }) => e.id)).toEqual([test.id]);
    for (const [method, path] of [
      ['GET', ''],
      ['PATCH', ''],
      ['POST', '/rotate-secret'],
      ['GET', '/deliveries'],
      ['POST', `/deliveries/${delivery.id}/resend`],
    ] as const) {
      const res = await t.app.inject({
        method,
        url: `${ENDPOINTS}/${live.id}${path}`,
        headers: p.test,
        ...(method === 'PATCH' ? { payload: { enabled: false } } : {}),
      });
      expect(res.statusCode, `${method} ${path}`).toBe(404);
      const other = await t.app.inject({
        method,
        url: `${ENDPOINTS}/${test.id}${path.replace(delivery.id, 'whd_x')}`,
        headers: p.live,
        ...(method === 'PATCH' ? { payload: { enabled: false } } : {}),
      });
      expect(other.statusCode, `live ${method} ${path}`).toBe(404);
    }
    expect((await t.app.inject({ url: `${ENDPOINTS}/${live.id}`, headers: p.live })).json().status).toBe(
      'enabled',
    );
  });
});

describe('retention', () => {
  it('purges attempts with their deliveries after 30 days', async () => {
    const p = await createPartner(t);
    const { id } = await endpoint(p.headers);
    await ping(p.headers, id);
    expect((await log(p.headers, id)).data).toHaveLength(1);
    t.clock.advance(31 * DAY);
    const purged = await t.container.outbox.purge();
    expect(purged).toBeGreaterThan(0);
    expect((await log(p.headers, id)).data).toEqual([]);
    const [left] = await t.container.db.select({ n: count() }).from(webhookDeliveryAttempts);
    expect(left!.n).toBe(0);
  });
});
