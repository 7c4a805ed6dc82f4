import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContainer } from '../../src/container.js';
import { jobs } from '../../src/db/schema/index.js';
import { ManualClock } from '../../src/lib/clock.js';
import type { Logger } from '../../src/lib/logger.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { testConfig } from '../helpers/config.js';
import { freshDatabase } from '../helpers/database.js';
import { createUser, type TestUser } from '../helpers/factories.js';
import { pushesOf } from '../helpers/push.js';
import {
  apnsToken,
  fcmErrors,
  startFakeApns,
  startFakeFcm,
  startFakeWebPush,
} from '../helpers/push-fakes.js';

/**
 * PUSH_TRANSPORT=live: the real adapters (FCM HTTP v1 with google-auth-library, APNs over HTTP/2
 * with a jose-signed token, Web Push with web-push) against local fakes of each service, over TLS
 * the workers trust through NODE_EXTRA_CA_CERTS.
 */
describe('push: live transport against the push services', () => {
  let fcm: Awaited<ReturnType<typeof startFakeFcm>>;
  let apns: Awaited<ReturnType<typeof startFakeApns>>;
  let web: Awaited<ReturnType<typeof startFakeWebPush>>;
  let env: Record<string, string>;
  let t: TestApp;
  beforeAll(async () => {
    [fcm, apns, web] = await Promise.all([startFakeFcm(), startFakeApns(), startFakeWebPush()]);
    env = {
      PUSH_TRANSPORT: 'live',
      FCM_CREDENTIALS_FILE: fcm.credentialsFile,
      FCM_BASE_URL: fcm.baseUrl,
      FCM_TOKEN_URL: fcm.tokenUrl,
      APNS_KEY_FILE: apns.keyFile,
      APNS_KEY_ID: apns.keyId,
      APNS_TEAM_ID: apns.teamId,
      APNS_TOPIC: apns.topic,
      APNS_BASE_URL: apns.baseUrl,
      VAPID_SUBJECT: 'mailto:ops@example.com',
    };
    t = await buildTestApp({ env });
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([fcm?.close(), apns?.close(), web?.close()]);
  });

  const message = {
    title: 'Data running low',
    body: '80% used',
    data: { url: '/esims/8901', iccid: '8901' },
  };
  let seq = 0;
  const register = async (user: TestUser, body: Record<string, unknown>) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/push-devices',
      headers: user.auth,
      payload: body,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().device as { id: string };
  };
  const send = (user: TestUser) => t.container.push.toAccount(t.container.db, user.id, message, `k-${++seq}`);
  const deviceIds = async (user: TestUser) => (await t.container.devices.list(user.id)).map((d) => d.id);
  const fcmToken = () => `fcm-${Math.random().toString(36).slice(2)}:${'x'.repeat(120)}`;

  it('FCM: sends with an OAuth token from the service account, reused for the next send', async () => {
    const user = await createUser(t.container);
    const token = fcmToken();
    await register(user, { platform: 'ANDROID', pushToken: token });
    await send(user);
    expect(await pushesOf(t.app, user.id)).toMatchObject([{ result: 'pending', attempts: 0 }]);
    await t.container.worker.runDue();
    const [push] = await pushesOf(t.app, user.id);
    expect(push).toMatchObject({
      result: 'sent',
      attempts: 1,
      error: null,
      sentAt: t.clock.now().toISOString(),
    });
    const sent = fcm.sends.filter((s) => s.token === token);
    expect(sent).toEqual([
      {
        token,
        notification: { title: message.title, body: message.body },
        data: message.data,
        accessToken: expect.any(String),
        android: { priority: 'high' },
      },
    ]);
    const requests = fcm.tokenRequests();
    await send(user);
    await t.container.worker.runDue();
    expect(fcm.tokenRequests()).toBe(requests);
    expect(fcm.sends.filter((s) => s.token === token)).toHaveLength(2);
  });

  it('FCM: UNREGISTERED removes the device and records the push as gone', async () => {
    const user = await createUser(t.container);
    const token = fcmToken();
    const keep = fcmToken();
    await register(user, { platform: 'ANDROID', pushToken: token });
    const kept = await register(user, { platform: 'ANDROID', pushToken: keep });
    fcm.respond(token, fcmErrors.unregistered());
    await send(user);
    await t.container.worker.runDue();
    const pushes = await pushesOf(t.app, user.id);
    expect(pushes.map((p) => p.result).sort()).toEqual(['gone', 'sent']);
    expect(pushes.find((p) => p.result === 'gone')!.error).toBe('FCM 404 UNREGISTERED');
    expect(await deviceIds(user)).toEqual([kept.id]);
  });

  it('FCM: 503 and 429 retry with backoff (honouring Retry-After); the other device is sent once', async () => {
    const user = await createUser(t.container);
    const flaky = fcmToken();
    const fine = fcmToken();
    await register(user, { platform: 'ANDROID', pushToken: flaky });
    await register(user, { platform: 'ANDROID', pushToken: fine });
    fcm.respond(flaky, fcmErrors.unavailable(), fcmErrors.quotaExceeded(), fcmErrors.unavailable(120));
    await send(user);
    await t.container.worker.runDue();
    const retrying = (await pushesOf(t.app, user.id)).find((p) => p.result === 'pending')!;
    expect(retrying).toMatchObject({ attempts: 1, error: 'FCM 503 UNAVAILABLE' });
    expect(await t.container.worker.runDue()).toBe(0);
    t.clock.advance(5_000);
    await t.container.worker.runDue();
    expect((await pushesOf(t.app, user.id)).find((p) => p.id === retrying.id)).toMatchObject({
      result: 'pending',
      attempts: 2,
      error: 'FCM 429 QUOTA_EXCEEDED',
    });
    t.clock.advance(10_000);
    await t.container.worker.runDue();
    // The third answer asked for 120 s, longer than the 20 s backoff.
    t.clock.advance(60_000);
    expect(await t.container.worker.runDue()).toBe(0);
    t.clock.advance(60_000);
    await t.container.worker.runDue();
    expect((await pushesOf(t.app, user.id)).find((p) => p.id === retrying.id)).toMatchObject({
      result: 'sent',
      attempts: 4,
    });
    expect(fcm.sends.filter((s) => s.token === flaky)).toHaveLength(4);
    expect(fcm.sends.filter((s) => s.token === fine)).toHaveLength(1);
  });

  it('FCM: out of retries, the push is failed and the job handled (no dead letter)', async () => {
    const user = await createUser(t.container);
    const token = fcmToken();
    await register(user, { platform: 'ANDROID', pushToken: token });
    fcm.respond(token, ...Array.from({ length: 9 }, () => fcmErrors.unavailable()));
    await send(user);
    for (let i = 0; i < 9; i++) {
      await t.container.worker.runDue();
      t.clock.advance(60 * 60 * 1000);
    }
    const [push] = await pushesOf(t.app, user.id);
    expect(push).toMatchObject({ result: 'failed', attempts: 9, error: 'FCM 503 UNAVAILABLE' });
    const [job] = await t.container.db
      .select()
      .from(jobs)
      .where(eq(jobs.dedupeKey, `push:${push!.id}`));
    expect(job!.status).toBe('handled');
    expect(await deviceIds(user)).toHaveLength(1);
  });

  it('APNs: sends over HTTP/2 with the provider token, topic and alert payload', async () => {
    const user = await createUser(t.container);
    const token = apnsToken();
    await register(user, { platform: 'IOS', pushToken: token });
    await send(user);
    await t.container.worker.runDue();
    expect(await pushesOf(t.app, user.id)).toMatchObject([{ platform: 'IOS', result: 'sent', attempts: 1 }]);
    const [sent] = apns.sends.filter((s) => s.token === token);
    expect(sent!.headers).toMatchObject({
      'apns-topic': apns.topic,
      'apns-push-type': 'alert',
      'apns-priority': '10',
    });
    expect(sent!.payload).toEqual({
      aps: { alert: { title: message.title, body: message.body }, sound: 'default' },
      ...message.data,
    });
  });

  it.each([
    [
      '410 Unregistered',
      { status: 410, body: { reason: 'Unregistered', timestamp: 1 } },
      'APNs 410 Unregistered',
    ],
    ['400 BadDeviceToken', { status: 400, body: { reason: 'BadDeviceToken' } }, 'APNs 400 BadDeviceToken'],
  ])('APNs: %s removes the device', async (_name, response, error) => {
    const user = await createUser(t.container);
    const token = apnsToken();
    await register(user, { platform: 'IOS', pushToken: token });
    apns.respond(token, response);
    await send(user);
    await t.container.worker.runDue();
    expect(await pushesOf(t.app, user.id)).toMatchObject([{ result: 'gone', error }]);
    expect(await deviceIds(user)).toEqual([]);
  });

  it('APNs: 503 and 429 retry, then the push is sent', async () => {
    const user = await createUser(t.container);
    const token = apnsToken();
    await register(user, { platform: 'IOS', pushToken: token });
    apns.respond(
      token,
      { status: 503, body: { reason: 'ServiceUnavailable' } },
      { status: 429, body: { reason: 'TooManyRequests' } },
    );
    await send(user);
    await t.container.worker.runDue();
    expect(await pushesOf(t.app, user.id)).toMatchObject([
      { result: 'pending', error: 'APNs 503 ServiceUnavailable' },
    ]);
    t.clock.advance(5_000);
    await t.container.worker.runDue();
    t.clock.advance(10_000);
    await t.container.worker.runDue();
    expect(await pushesOf(t.app, user.id)).toMatchObject([{ result: 'sent', attempts: 3 }]);
    expect(await deviceIds(user)).toHaveLength(1);
  });

  it('an iOS app that registers a Firebase token is sent through FCM', async () => {
    const user = await createUser(t.container);
    const token = fcmToken();
    await register(user, { platform: 'IOS', pushToken: token });
    await send(user);
    await t.container.worker.runDue();
    expect(await pushesOf(t.app, user.id)).toMatchObject([{ platform: 'IOS', result: 'sent' }]);
    expect(fcm.sends.filter((s) => s.token === token)).toHaveLength(1);
    expect(apns.sends.filter((s) => s.token === token)).toHaveLength(0);
  });

  it('Web Push: an encrypted payload with VAPID to the subscription endpoint', async () => {
    const user = await createUser(t.container);
    const sub = web.subscription();
    await register(user, { platform: 'WEB', pushToken: sub.endpoint, subscription: sub });
    await send(user);
    await t.container.worker.runDue();
    expect(await pushesOf(t.app, user.id)).toMatchObject([{ platform: 'WEB', result: 'sent', attempts: 1 }]);
    const [delivery] = web.deliveries.filter((d) => `${web.baseUrl}${d.path}` === sub.endpoint);
    const key = await t.app.inject({ url: '/api/v1/push/vapid-public-key' });
    const { publicKey } = key.json<{ publicKey: string }>();
    expect(delivery!.headers['content-encoding']).toBe('aes128gcm');
    expect(delivery!.headers.authorization).toMatch(
      new RegExp(`^vapid t=[\\w-]+\\.[\\w-]+\\.[\\w-]+, k=${publicKey}$`),
    );
    expect(delivery!.headers.ttl).toBe(String(24 * 60 * 60));
    expect(delivery!.body.length).toBeGreaterThan(JSON.stringify(message).length);
  });

  it.each([404, 410])('Web Push: %i from the push service removes the device', async (status) => {
    const user = await createUser(t.container);
    const sub = web.subscription();
    await register(user, { platform: 'WEB', pushToken: sub.endpoint, subscription: sub });
    web.respond(sub.endpoint, { status });
    await send(user);
    await t.container.worker.runDue();
    expect(await pushesOf(t.app, user.id)).toMatchObject([{ result: 'gone', error: `Web Push ${status}` }]);
    expect(await deviceIds(user)).toEqual([]);
  });

  it('Web Push: 429 and 500 retry, then the push is sent', async () => {
    const user = await createUser(t.container);
    const sub = web.subscription();
    await register(user, { platform: 'WEB', pushToken: sub.endpoint, subscription: sub });
    web.respond(sub.endpoint, { status: 429, headers: { 'retry-after': '30' } }, { status: 500 });
    await send(user);
    await t.container.worker.runDue();
    expect(await pushesOf(t.app, user.id)).toMatchObject([{ result: 'pending', error: 'Web Push 429' }]);
    t.clock.advance(5_000);
    expect(await t.container.worker.runDue()).toBe(0);
    t.clock.advance(25_000);
    await t.container.worker.runDue();
    t.clock.advance(10_000);
    await t.container.worker.runDue();
    expect(await pushesOf(t.app, user.id)).toMatchObject([{ result: 'sent', attempts: 3 }]);
  });

  it('never writes a token, an endpoint or a subscription key to the logs', async () => {
    const lines: string[] = [];
    const capture = (level: string) => (obj: object | string, msg?: string) =>
      void lines.push(`${level} ${JSON.stringify(obj)} ${msg ?? ''}`);
    const log: Logger = {
      debug: capture('debug'),
      info: capture('info'),
      warn: capture('warn'),
      error: capture('error'),
    };
    const fresh = await freshDatabase();
    const clock = new ManualClock();
    const container = createContainer({ config: testConfig(env), database: fresh.database, clock, log });
    try {
      const user = await createUser(container);
      const sub = web.subscription();
      const secrets = [fcmToken(), apnsToken(), fcmToken(), apnsToken(), sub.endpoint];
      const [fcmRetry, apnsRetry, fcmGone, apnsGone] = secrets as [string, string, string, string];
      await container.devices.register(user.id, { platform: 'ANDROID', pushToken: fcmRetry });
      await container.devices.register(user.id, { platform: 'IOS', pushToken: apnsRetry });
      await container.devices.register(user.id, { platform: 'ANDROID', pushToken: fcmGone });
      await container.devices.register(user.id, { platform: 'IOS', pushToken: apnsGone });
      await container.devices.register(user.id, {
        platform: 'WEB',
        pushToken: sub.endpoint,
        subscription: sub,
      });
      fcm.respond(fcmRetry, fcmErrors.unavailable());
      apns.respond(apnsRetry, { status: 500, body: { reason: 'InternalServerError' } });
      fcm.respond(fcmGone, fcmErrors.unregistered());
      apns.respond(apnsGone, { status: 410, body: { reason: 'Unregistered' } });
      web.respond(sub.endpoint, { status: 503 });
      await container.push.toAccount(container.db, user.id, message, 'logs');
      await container.worker.runDue();
      expect(lines.filter((l) => l.startsWith('warn') && l.includes('job failed'))).toHaveLength(3);
      expect(lines.filter((l) => l.includes('device removed'))).toHaveLength(2);
      const text = lines.join('\n');
      for (const secret of [...secrets, sub.keys.p256dh, sub.keys.auth]) expect(text).not.toContain(secret);
    } finally {
      await container.close();
      await fresh.drop();
    }
  });
});
