import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookDeliveries } from '../../../src/db/schema/index.js';
import { HOUR } from '../../../src/lib/clock.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { pickPlan } from '../../helpers/catalog.js';
import { eventsSettled } from '../../helpers/events.js';
import { startReceiver, type Receiver } from '../../helpers/webhook-receiver.js';
import { PARTNER_ROOT, postOrder } from '../partner/helpers.js';
import { partnerTeam } from './helpers.js';

interface ListedEvent {
  id: string;
  type: string;
  createdAt: string;
  livemode: boolean;
  data: { id?: string };
}

/** Issue 32 C3: the events browser (dashboard) and the type/date filters of GET /events. */
describe('the events browser', () => {
  let t: TestApp;
  let receiver: Receiver;
  let team: Awaited<ReturnType<typeof partnerTeam>>;
  let testKey: string;
  let firstOrderId: string;
  let secondOrderId: string;
  let testOrderId: string;
  let between: string;
  beforeAll(async () => {
    t = await buildTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
    receiver = await startReceiver(3419);
    receiver.state.status = 500;
    team = await partnerTeam(t);
    testKey = (await t.container.apiKeys.generate(team.owner.id, 'test')).key;
    const live = { 'x-api-key': team.key };
    const endpoint = await t.app.inject({
      method: 'POST',
      url: `${PARTNER_ROOT}/webhook-endpoints`,
      headers: live,
      payload: { url: receiver.url, events: ['order.completed'] },
    });
    expect(endpoint.statusCode).toBe(201);
    const plan = await pickPlan(t.container);
    const order = async (headers: Record<string, string>) => {
      const res = await postOrder(t, headers, { planId: plan.id, quantity: 1 });
      expect(res.statusCode).toBe(201);
      return res.json().id as string;
    };
    firstOrderId = await order(live);
    t.clock.advance(2 * HOUR);
    between = new Date(t.clock.now().getTime() - HOUR).toISOString();
    secondOrderId = await order(live);
    testOrderId = await order({ 'x-api-key': testKey });
    await eventsSettled(t.container);
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  const list = async (path: string, headers = team.developer.auth) => {
    const res = await t.app.inject({ url: team.url(path), headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: ListedEvent[]; hasMore: boolean }>();
  };

  it('lists the events of the mode newest first, filtered by type and date', async () => {
    const all = await list('/events');
    const completed = all.data.filter((e) => e.type === 'order.completed');
    expect(completed.map((e) => e.data.id)).toEqual([secondOrderId, firstOrderId]);
    expect(all.data.every((e) => e.livemode)).toBe(true);

    const byType = await list('/events?type=order.completed');
    expect(byType.data.map((e) => e.type)).toEqual(['order.completed', 'order.completed']);
    expect((await list('/events?type=order.refunded,esim.expiring')).data).toEqual([]);

    const later = await list(`/events?type=order.completed&from=${encodeURIComponent(between)}`);
    expect(later.data.map((e) => e.data.id)).toEqual([secondOrderId]);
    const earlier = await list(`/events?type=order.completed&to=${encodeURIComponent(between)}`);
    expect(earlier.data.map((e) => e.data.id)).toEqual([firstOrderId]);

    const page = await list('/events?type=order.completed&limit=1');
    expect(page.hasMore).toBe(true);
    const next = await list(`/events?type=order.completed&limit=1&after=${page.data[0]!.id}`);
    expect(next.data.map((e) => e.data.id)).toEqual([firstOrderId]);
    expect(next.hasMore).toBe(false);

    const test = await list('/events?mode=test&type=order.completed');
    expect(test.data.map((e) => [e.data.id, e.livemode])).toEqual([[testOrderId, false]]);
    const bad = await t.app.inject({ url: team.url('/events?type=DROP TABLE'), headers: team.owner.auth });
    expect(bad.statusCode).toBe(400);
  });

  it('filters GET /api/public/v1/events by type and date too (oldest first)', async () => {
    const res = await t.app.inject({
      url: `${PARTNER_ROOT}/events?type=order.completed&from=${encodeURIComponent(between)}`,
      headers: { 'x-api-key': team.key },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((e: ListedEvent) => e.data.id)).toEqual([secondOrderId]);
    const both = await t.app.inject({
      url: `${PARTNER_ROOT}/events?type=order.completed`,
      headers: { 'x-api-key': team.key },
    });
    expect(both.json().data.map((e: ListedEvent) => e.data.id)).toEqual([firstOrderId, secondOrderId]);
  });

  it('shows one event with its payload and the deliveries it caused', async () => {
    const [event] = (await list('/events?type=order.completed&limit=1')).data;
    const [delivery] = await t.container.db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.eventId, event!.id));
    // The receiver answers 500: the attempt is recorded and the job told to retry.
    await expect(t.container.webhooks.attempt(delivery!.id)).rejects.toThrow(/HTTP 500/);
    const res = await t.app.inject({ url: team.url(`/events/${event!.id}`), headers: team.viewer.auth });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.event).toMatchObject({ id: event!.id, type: 'order.completed', data: { id: secondOrderId } });
    expect(body.deliveries).toHaveLength(1);
    expect(body.deliveries[0]).toMatchObject({
      id: delivery!.id,
      endpointUrl: receiver.url,
      status: 'pending',
      attempts: 1,
      responseStatus: 500,
      lastError: 'endpoint answered HTTP 500',
      nextAttemptAt: expect.any(String),
    });

    // Another mode's or an unknown event is not found.
    const otherMode = await t.app.inject({
      url: team.url(`/events/${event!.id}?mode=test`),
      headers: team.owner.auth,
    });
    expect(otherMode.statusCode).toBe(404);
    const unknown = await t.app.inject({ url: team.url('/events/evt_nope'), headers: team.owner.auth });
    expect(unknown.statusCode).toBe(404);
  });

  it('refuses Finance and strangers, lets the roles with events.read in', async () => {
    const [event] = (await list('/events?limit=1')).data;
    for (const who of ['owner', 'admin', 'developer', 'viewer'] as const) {
      expect(
        (await t.app.inject({ url: team.url('/events'), headers: team[who].auth })).statusCode,
        who,
      ).toBe(200);
      const one = await t.app.inject({ url: team.url(`/events/${event!.id}`), headers: team[who].auth });
      expect(one.statusCode, who).toBe(200);
    }
    for (const path of ['/events', `/events/${event!.id}`]) {
      const finance = await t.app.inject({ url: team.url(path), headers: team.finance.auth });
      expect(finance.statusCode, path).toBe(403);
      expect(finance.json().code).toBe('ROLE_FORBIDDEN');
      const stranger = await t.app.inject({ url: team.url(path), headers: team.stranger.auth });
      expect(stranger.statusCode, path).toBe(404);
    }
  });
});
