import { and, eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { events, jobs, webhookDeliveries, webhookEndpoints } from '../../../src/db/schema/index.js';
import { DAY, HOUR, MINUTE, SECOND } from '../../../src/lib/clock.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { pickPlan } from '../../helpers/catalog.js';
import { eventsSettled } from '../../helpers/events.js';
import { startReceiver, type Receiver } from '../../helpers/webhook-receiver.js';
import { createPartner, PARTNER_ROOT, postOrder } from './helpers.js';

const ENDPOINTS = `${PARTNER_ROOT}/webhook-endpoints`;

let t: TestApp;
let receiver: Receiver;

beforeAll(async () => {
  t = await buildTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
  receiver = await startReceiver(3401);
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});
beforeEach(() => {
  receiver.received.length = 0;
  receiver.state.status = 200;
});

function createEndpoint(headers: Record<string, string>, payload: object) {
  return t.app.inject({ method: 'POST', url: ENDPOINTS, headers, payload });
}

async function orderOnePlan(p: { headers: Record<string, string> }) {
  const plan = await pickPlan(t.container);
  const res = await postOrder(t, p.headers, { planId: plan.id, quantity: 1 });
  expect(res.statusCode).toBe(201);
  return res.json();
}

async function deliveryJobsOf(deliveryId: string) {
  return t.container.db
    .select()
    .from(jobs)
    .where(and(eq(jobs.kind, 'webhook.deliver'), eq(jobs.dedupeKey, `deliver:${deliveryId}`)));
}

describe('webhook endpoints', () => {
  it('creates an endpoint with a whsec_ secret shown once, lists it without, deletes it', async () => {
    const p = await createPartner(t);
    const created = await createEndpoint(p.headers, {
      url: receiver.url,
      events: ['order.completed', 'wallet.low_balance'],
      description: 'orders',
    });
    expect(created.statusCode).toBe(201);
    const body = created.json();
    expect(body).toMatchObject({
      url: receiver.url,
      events: ['order.completed', 'wallet.low_balance'],
      description: 'orders',
      status: 'enabled',
    });
    expect(body.id).toMatch(/^we_/);
    expect(body.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(body.secret.slice(6), 'base64').length).toBeGreaterThanOrEqual(24);
    expect(new Date(body.createdAt).toISOString()).toBe(body.createdAt);

    const listed = await t.app.inject({ url: ENDPOINTS, headers: p.headers });
    expect(listed.statusCode).toBe(200);
    expect(listed.json().data).toHaveLength(1);
    expect(listed.json().data[0]).not.toHaveProperty('secret');
    expect(listed.body).not.toContain(body.secret.slice(6));

    // Another account neither sees nor deletes it.
    const other = await createPartner(t);
    expect((await t.app.inject({ url: ENDPOINTS, headers: other.headers })).json().data).toEqual([]);
    const foreign = await t.app.inject({
      method: 'DELETE',
      url: `${ENDPOINTS}/${body.id}`,
      headers: other.headers,
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error.code).toBe('NOT_FOUND');

    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `${ENDPOINTS}/${body.id}`,
      headers: p.headers,
    });
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expect((await t.app.inject({ url: ENDPOINTS, headers: p.headers })).json().data).toEqual([]);
    const again = await t.app.inject({
      method: 'DELETE',
      url: `${ENDPOINTS}/${body.id}`,
      headers: p.headers,
    });
    expect(again.statusCode).toBe(404);
  });

  it('omitting events subscribes to all; invalid input is a 400 in the partner error shape', async () => {
    const p = await createPartner(t);
    const all = await createEndpoint(p.headers, { url: receiver.url });
    expect(all.statusCode).toBe(201);
    expect(all.json().events).toBeNull();
    for (const payload of [
      { url: receiver.url, events: ['order.unknown'] },
      { url: receiver.url, events: [] },
      { url: receiver.url, events: ['ping'] },
      { url: 'not a url' },
      { url: 'ftp://127.0.0.1/x' },
      {},
    ]) {
      const res = await createEndpoint(p.headers, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
    expect((await t.app.inject({ url: ENDPOINTS, headers: p.headers })).json().data).toHaveLength(1);
  });

  it('an unknown event type gets one message naming it and listing the allowed types (H17)', async () => {
    const p = await createPartner(t);
    for (const bad of ['order.unknown', 'ping']) {
      const res = await createEndpoint(p.headers, { url: receiver.url, events: ['order.completed', bad] });
      expect(res.statusCode).toBe(400);
      const { error } = res.json();
      expect(error.code).toBe('VALIDATION_ERROR');
      expect(error.message).toBe(
        `body.events.1 "${bad}" is not an event type you can subscribe to; allowed: order.completed, ` +
          'order.fulfillment_failed, order.refunded, esim.usage_threshold, esim.expiring, ' +
          'esim.status_changed, esim.auto_topup_succeeded, esim.auto_topup_failed, ' +
          'wallet.topup_succeeded, wallet.low_balance',
      );
      expect(error.details).toEqual({
        field: 'events.1',
        value: bad,
        allowed: [
          'order.completed',
          'order.fulfillment_failed',
          'order.refunded',
          'esim.usage_threshold',
          'esim.expiring',
          'esim.status_changed',
          'esim.auto_topup_succeeded',
          'esim.auto_topup_failed',
          'wallet.topup_succeeded',
          'wallet.low_balance',
        ],
      });
    }
  });

  it('allows at most 10 endpoints per account (409 CONFLICT), also under concurrent creation', async () => {
    const p = await createPartner(t);
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => createEndpoint(p.headers, { url: `${receiver.url}/${i}` })),
    );
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(10);
    const refused = results.filter((r) => r.statusCode === 409);
    expect(refused).toHaveLength(2);
    expect(refused[0]!.json().error.code).toBe('CONFLICT');
    expect((await t.app.inject({ url: ENDPOINTS, headers: p.headers })).json().data).toHaveLength(10);
  });

  it('counts the 10-endpoint limit per mode: test endpoints leave the live ones alone (H5)', async () => {
    const p = await createPartner(t);
    const { key: testKey } = await t.container.apiKeys.generate(p.id, 'test');
    const test = { 'x-api-key': testKey };
    for (let i = 0; i < 10; i++)
      expect((await createEndpoint(test, { url: `${receiver.url}/t${i}` })).statusCode).toBe(201);
    expect((await createEndpoint(test, { url: `${receiver.url}/t10` })).statusCode).toBe(409);
    expect((await createEndpoint(p.headers, { url: `${receiver.url}/live` })).statusCode).toBe(201);
  });

  it('requires an API key', async () => {
    expect((await t.app.inject({ url: ENDPOINTS })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'POST', url: ENDPOINTS, payload: { url: receiver.url } })).statusCode,
    ).toBe(401);
  });
});

describe('delivery', () => {
  it('POSTs order.completed with Standard Webhooks headers the standardwebhooks library verifies', async () => {
    const p = await createPartner(t, 100_000);
    const endpoint = (await createEndpoint(p.headers, { url: receiver.url })).json();
    const order = await orderOnePlan(p);
    await t.container.worker.runDue();

    const hits = receiver.received.filter((r) => JSON.parse(r.body).type === 'order.completed');
    expect(hits).toHaveLength(1);
    const hit = hits[0]!;
    // Interoperability: the reference library accepts our signature with the secret we handed out.
    const verified = new Webhook(endpoint.secret).verify(hit.body, hit.headers as Record<string, string>) as {
      id: string;
      type: string;
      livemode: boolean;
      data: { id: string; status: string; esims: Array<{ id: string }> };
      createdAt: string;
    };
    expect(verified.type).toBe('order.completed');
    expect(verified.id).toMatch(/^evt_/);
    expect(hit.headers['webhook-id']).toBe(verified.id);
    expect(Number(hit.headers['webhook-timestamp'])).toBe(Math.floor(t.clock.now().getTime() / 1000));
    expect(hit.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(hit.headers['content-type']).toBe('application/json');
    expect(verified.livemode).toBe(true);
    expect(new Date(verified.createdAt).toISOString()).toBe(verified.createdAt);
    // data is the order as the Partner API returns it.
    const detail = (
      await t.app.inject({ url: `${PARTNER_ROOT}/orders/${order.id}`, headers: p.headers })
    ).json();
    expect(verified.data).toEqual(detail);

    // A tampered body or another secret fails verification.
    expect(() =>
      new Webhook(endpoint.secret).verify(
        hit.body.replace('COMPLETED', 'REFUNDED'),
        hit.headers as Record<string, string>,
      ),
    ).toThrow();
    expect(() =>
      new Webhook('whsec_' + Buffer.alloc(32, 1).toString('base64')).verify(
        hit.body,
        hit.headers as Record<string, string>,
      ),
    ).toThrow();

    // The same event is in GET /events, byte for byte the same object.
    await eventsSettled(t.container);
    const listed = (await t.app.inject({ url: `${PARTNER_ROOT}/events`, headers: p.headers })).json();
    expect(listed.data.find((e: { id: string }) => e.id === verified.id)).toEqual(JSON.parse(hit.body));
    const [delivery] = await t.container.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.eventId, verified.id));
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 1, responseStatus: 200 });
  });

  it('delivers only the subscribed types, and only to the account’s own endpoints', async () => {
    const p = await createPartner(t, 100_000);
    await createEndpoint(p.headers, { url: `${receiver.url}/refunds-only`, events: ['order.refunded'] });
    const other = await createPartner(t, 100_000);
    await createEndpoint(other.headers, { url: `${receiver.url}/other` });
    await orderOnePlan(p);
    await t.container.worker.runDue();
    expect(receiver.received.filter((r) => r.url.endsWith('/refunds-only'))).toHaveLength(0);
    expect(receiver.received.filter((r) => r.url.endsWith('/other'))).toHaveLength(0);
  });

  it('test ping goes to that endpoint only, signed, and is not listed in GET /events', async () => {
    const p = await createPartner(t);
    const a = (await createEndpoint(p.headers, { url: `${receiver.url}/a` })).json();
    await createEndpoint(p.headers, { url: `${receiver.url}/b` });
    const ping = await t.app.inject({ method: 'POST', url: `${ENDPOINTS}/${a.id}/test`, headers: p.headers });
    expect(ping.statusCode).toBe(202);
    expect(ping.json()).toMatchObject({ type: 'ping', livemode: true, data: { endpointId: a.id } });
    await t.container.worker.runDue();
    const toAorB = receiver.received.filter((r) => r.url === '/hooks/a' || r.url === '/hooks/b');
    expect(toAorB.map((r) => r.url)).toEqual(['/hooks/a']);
    const verified = new Webhook(a.secret).verify(
      toAorB[0]!.body,
      toAorB[0]!.headers as Record<string, string>,
    );
    expect(verified).toMatchObject({ id: ping.json().id, type: 'ping' });
    await eventsSettled(t.container);
    expect((await t.app.inject({ url: `${PARTNER_ROOT}/events`, headers: p.headers })).json().data).toEqual(
      [],
    );
    const missing = await t.app.inject({
      method: 'POST',
      url: `${ENDPOINTS}/we_nope/test`,
      headers: p.headers,
    });
    expect(missing.statusCode).toBe(404);
  });

  it('retries a failing endpoint after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then marks the delivery failed', async () => {
    const p = await createPartner(t);
    const endpoint = (await createEndpoint(p.headers, { url: `${receiver.url}/flaky` })).json();
    receiver.state.status = 500;
    const event = (
      await t.app.inject({ method: 'POST', url: `${ENDPOINTS}/${endpoint.id}/test`, headers: p.headers })
    ).json();
    const [delivery] = await t.container.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.eventId, event.id));
    const hits = () => receiver.received.filter((r) => r.url === '/hooks/flaky').length;

    await t.container.worker.runDue();
    expect(hits()).toBe(1);
    const schedule = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR];
    const webhookIds = new Set<string>();
    for (const [i, delay] of schedule.entries()) {
      const [job] = await deliveryJobsOf(delivery!.id);
      expect(job!.status).toBe('pending');
      expect(job!.runAt.getTime() - t.clock.now().getTime()).toBe(delay);
      // Not a moment early…
      t.clock.advance(delay - 1);
      await t.container.worker.runDue();
      expect(hits()).toBe(i + 1);
      // …and on time.
      t.clock.advance(1);
      await t.container.worker.runDue();
      expect(hits()).toBe(i + 2);
      const last = receiver.received.at(-1)!;
      webhookIds.add(last.headers['webhook-id'] as string);
      // Each retry is signed afresh for its own timestamp (checked with the library's signer).
      const ts = Number(last.headers['webhook-timestamp']);
      expect(ts).toBe(Math.floor(t.clock.now().getTime() / 1000));
      expect(last.headers['webhook-signature']).toBe(
        new Webhook(endpoint.secret).sign(event.id, new Date(ts * 1000), last.body),
      );
    }
    // One event id across all attempts, so a receiver can deduplicate.
    expect([...webhookIds]).toEqual([event.id]);
    const [finalDelivery] = await t.container.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.id, delivery!.id));
    expect(finalDelivery).toMatchObject({ status: 'failed', attempts: 8, responseStatus: 500 });
    expect((await deliveryJobsOf(delivery!.id))[0]!.status).toBe('failed');
    t.clock.advance(DAY);
    await t.container.worker.runDue();
    expect(hits()).toBe(8);
  });

  it('any 2xx after failures is a success', async () => {
    const p = await createPartner(t);
    const endpoint = (await createEndpoint(p.headers, { url: `${receiver.url}/recovering` })).json();
    receiver.state.status = 503;
    const event = (
      await t.app.inject({ method: 'POST', url: `${ENDPOINTS}/${endpoint.id}/test`, headers: p.headers })
    ).json();
    await t.container.worker.runDue();
    receiver.state.status = 204;
    t.clock.advance(5 * SECOND);
    await t.container.worker.runDue();
    const [delivery] = await t.container.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.eventId, event.id));
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 2, responseStatus: 204 });
  });

  it('disables an endpoint failing for 5 days straight; a successful ping enables it again', async () => {
    const p = await createPartner(t, 1_000_000);
    const endpoint = (await createEndpoint(p.headers, { url: `${receiver.url}/down` })).json();
    receiver.state.status = 500;
    const statusOf = async () =>
      (await t.container.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id)))[0]!
        .status;

    await orderOnePlan(p);
    await t.container.worker.runDue();
    t.clock.advance(4 * DAY);
    await orderOnePlan(p);
    await t.container.worker.runDue();
    expect(await statusOf()).toBe('enabled');
    t.clock.advance(DAY);
    await orderOnePlan(p);
    await t.container.worker.runDue();
    expect(await statusOf()).toBe('disabled');
    const listed = (await t.app.inject({ url: ENDPOINTS, headers: p.headers })).json().data;
    expect(listed[0].status).toBe('disabled');

    // No new deliveries to a disabled endpoint.
    const before = receiver.received.length;
    await orderOnePlan(p);
    await t.container.worker.runDue();
    expect(receiver.received.length).toBe(before);

    receiver.state.status = 200;
    await t.app.inject({ method: 'POST', url: `${ENDPOINTS}/${endpoint.id}/test`, headers: p.headers });
    await t.container.worker.runDue();
    expect(await statusOf()).toBe('enabled');
  });

  it('deleting an endpoint drops its pending retries', async () => {
    const p = await createPartner(t);
    const endpoint = (await createEndpoint(p.headers, { url: `${receiver.url}/gone` })).json();
    receiver.state.status = 500;
    const event = (
      await t.app.inject({ method: 'POST', url: `${ENDPOINTS}/${endpoint.id}/test`, headers: p.headers })
    ).json();
    await t.container.worker.runDue();
    await t.app.inject({ method: 'DELETE', url: `${ENDPOINTS}/${endpoint.id}`, headers: p.headers });
    t.clock.advance(5 * SECOND);
    await t.container.worker.runDue();
    expect(receiver.received.filter((r) => r.url === '/hooks/gone')).toHaveLength(1);
    const left = await t.container.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.eventId, event.id));
    expect(left).toEqual([]);
    expect((await t.container.db.select().from(events).where(eq(events.id, event.id))).length).toBe(1);
  });
});
