import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../../src/db/schema/index.js';
import { EVENT_TYPES } from '../../../src/domain/events/outbox.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { startReceiver, type Receiver } from '../../helpers/webhook-receiver.js';
import { partnerTeam } from './helpers.js';

/** Issue 32 C2: webhooks in the partner dashboard, per role. */

let t: TestApp;
let receiver: Receiver;
let team: Awaited<ReturnType<typeof partnerTeam>>;

beforeAll(async () => {
  t = await buildTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
  receiver = await startReceiver(3405);
  team = await partnerTeam(t);
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

type Member = { id: string; auth: Record<string, string> };
const WRITERS = ['owner', 'admin', 'developer'] as const;

function call(who: Member, method: string, path: string, payload?: object) {
  return t.app.inject({
    method: method as 'GET',
    url: team.url(path),
    headers: who.auth,
    ...(payload ? { payload } : {}),
  });
}

async function createAs(who: Member, path = '/webhook-endpoints') {
  const res = await call(who, 'POST', path, { url: receiver.url, events: ['order.completed'] });
  expect(res.statusCode).toBe(201);
  return res.json<{ id: string; secret: string }>();
}

describe('webhooks in the partner dashboard', () => {
  it('owner, admin and developer manage endpoints; each change is audited without the secret', async () => {
    for (const role of WRITERS) {
      const who = team[role];
      const created = await createAs(who);
      expect(created.secret).toMatch(/^whsec_/);
      const base = `/webhook-endpoints/${created.id}`;
      const patched = await call(who, 'PATCH', base, { enabled: false });
      expect(patched.statusCode).toBe(200);
      expect(patched.json().status).toBe('disabled');
      expect((await call(who, 'PATCH', base, { enabled: true, url: `${receiver.url}/x` })).statusCode).toBe(
        200,
      );
      const rotated = await call(who, 'POST', `${base}/rotate-secret`);
      expect(rotated.statusCode).toBe(200);
      expect((await call(who, 'POST', `${base}/test`)).statusCode).toBe(202);
      await t.container.worker.runDue();
      const log = await call(who, 'GET', `${base}/deliveries`);
      expect(log.statusCode).toBe(200);
      const [delivery] = log.json().data;
      expect(delivery).toMatchObject({ eventType: 'ping', status: 'succeeded' });
      expect((await call(who, 'POST', `${base}/deliveries/${delivery.id}/resend`)).statusCode).toBe(202);
      expect((await call(who, 'DELETE', base)).statusCode).toBe(200);

      const rows = await t.container.db.select().from(auditLog).where(eq(auditLog.targetId, created.id));
      expect(rows.map((r) => r.action).sort()).toEqual(
        [
          'webhook_endpoint.create',
          'webhook_endpoint.delete',
          'webhook_endpoint.disable',
          'webhook_endpoint.secret.rotate',
          'webhook_endpoint.update',
        ].sort(),
      );
      for (const row of rows) {
        expect(row).toMatchObject({ actor: `account:${who.id}`, partnerId: team.owner.id });
        const text = JSON.stringify(row);
        expect(text).not.toContain(created.secret.slice(6));
        expect(text).not.toContain(rotated.json().secret.slice(6));
      }
    }
  });

  it('a viewer reads endpoints and deliveries, never a secret, and changes nothing', async () => {
    const { id } = await createAs(team.developer);
    const base = `/webhook-endpoints/${id}`;
    for (const path of ['/webhook-endpoints', base, `${base}/deliveries`, '/webhook-event-types']) {
      const res = await call(team.viewer, 'GET', path);
      expect(res.statusCode, path).toBe(200);
      expect(res.body).not.toContain('whsec_');
    }
    const writes: Array<[string, string, object?]> = [
      ['POST', '/webhook-endpoints', { url: receiver.url }],
      ['PATCH', base, { enabled: false }],
      ['DELETE', base],
      ['POST', `${base}/rotate-secret`],
      ['POST', `${base}/test`],
      ['POST', `${base}/deliveries/whd_x/resend`],
    ];
    for (const [method, path, payload] of writes) {
      const res = await call(team.viewer, method, path, payload);
      expect(res.statusCode, `${method} ${path}`).toBe(403);
      expect(res.json().code).toBe('ROLE_FORBIDDEN');
    }
    expect((await call(team.viewer, 'GET', base)).json().status).toBe('enabled');
  });

  it('finance is refused every webhook route (403 ROLE_FORBIDDEN); a stranger gets 404', async () => {
    const { id } = await createAs(team.admin);
    const base = `/webhook-endpoints/${id}`;
    const all: Array<[string, string, object?]> = [
      ['GET', '/webhook-event-types'],
      ['GET', '/webhook-endpoints'],
      ['GET', base],
      ['GET', `${base}/deliveries`],
      ['POST', '/webhook-endpoints', { url: receiver.url }],
      ['PATCH', base, { enabled: false }],
      ['DELETE', base],
      ['POST', `${base}/rotate-secret`],
      ['POST', `${base}/test`],
      ['POST', `${base}/deliveries/whd_x/resend`],
    ];
    for (const [method, path, payload] of all) {
      const res = await call(team.finance, method, path, payload);
      expect(res.statusCode, `${method} ${path}`).toBe(403);
      expect(res.json().code).toBe('ROLE_FORBIDDEN');
      expect(res.body).not.toContain('whsec_');
      expect((await call(team.stranger, method, path, payload)).statusCode).toBe(404);
    }
  });

  it('keeps test and live endpoints apart (?mode=test), as the Partner API keys do', async () => {
    const live = await createAs(team.developer);
    const test = await createAs(team.developer, '/webhook-endpoints?mode=test');
    const ids = async (query: string) =>
      (await call(team.viewer, 'GET', `/webhook-endpoints${query}`))
        .json()
        .data.map((e: { id: string }) => e.id);
    expect(await ids('?mode=test')).toEqual([test.id]);
    expect(await ids('')).toContain(live.id);
    expect(await ids('')).not.toContain(test.id);
    expect((await call(team.viewer, 'GET', `/webhook-endpoints/${live.id}?mode=test`)).statusCode).toBe(404);
    expect(
      (await call(team.developer, 'PATCH', `/webhook-endpoints/${test.id}`, { enabled: false })).statusCode,
    ).toBe(404);
    const api = await t.app.inject({
      url: '/api/public/v1/webhook-endpoints',
      headers: { 'x-api-key': team.key },
    });
    expect(api.json().data.map((e: { id: string }) => e.id)).not.toContain(test.id);
  });

  it('lists the event type catalogue with a one-line description each (no ping)', async () => {
    const res = await call(team.viewer, 'GET', '/webhook-event-types');
    const data = res.json().data as Array<{ type: string; description: string }>;
    expect(data.map((d) => d.type)).toEqual([...EVENT_TYPES]);
    for (const d of data) {
      expect(d.description.length).toBeGreaterThan(10);
      expect(d.description).not.toMatch(/\n| data:/);
    }
  });

  it('answers validation errors in the dashboard’s error shape', async () => {
    const bad = await call(team.developer, 'POST', '/webhook-endpoints', {
      url: receiver.url,
      events: ['nope'],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
  });
});
