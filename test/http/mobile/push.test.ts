import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appSecrets, pushDevices, pushMessages } from '../../../src/db/schema/index.js';
import { DAY, MINUTE } from '../../../src/lib/clock.js';
import { ADMIN_TOKEN, buildTestApp, type TestApp } from '../../helpers/app.js';
import { createUser, type TestUser } from '../../helpers/factories.js';
import { pushesOf } from '../../helpers/push.js';

/** PUSH_TRANSPORT=outbox (the default): Web Push registration, the VAPID key, the push outbox. */
describe('push: outbox, Web Push devices, VAPID key', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const subscription = (tag = Math.random().toString(36).slice(2)) => ({
    endpoint: `https://push.example.com/send/${tag}`,
    keys: { p256dh: `B${'A'.repeat(86)}`, auth: 'A'.repeat(22) },
  });
  const register = (user: TestUser, body: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/api/v1/user/push-devices', headers: user.auth, payload: body });
  const message = {
    title: 'Data running low',
    body: '80% used',
    data: { url: '/esims/8901', iccid: '8901' },
  };

  it('registers a browser with its subscription (endpoint as the token) and keeps the keys', async () => {
    const user = await createUser(t.container);
    const sub = subscription();
    const res = await register(user, {
      platform: 'WEB',
      pushToken: sub.endpoint,
      subscription: sub,
      appVersion: 'web',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().device).toMatchObject({ platform: 'WEB', pushToken: sub.endpoint, appVersion: 'web' });
    const [row] = await t.container.db
      .select()
      .from(pushDevices)
      .where(eq(pushDevices.pushToken, sub.endpoint));
    expect(row!.subscription).toEqual(sub);
  });

  it.each([
    [
      'no subscription for WEB',
      (s: ReturnType<typeof subscription>) => ({ platform: 'WEB', pushToken: s.endpoint }),
    ],
    [
      'an http endpoint',
      (s: ReturnType<typeof subscription>) => {
        const endpoint = s.endpoint.replace('https:', 'http:');
        return { platform: 'WEB', pushToken: endpoint, subscription: { ...s, endpoint } };
      },
    ],
    [
      'a token that is not the endpoint',
      (s: ReturnType<typeof subscription>) => ({ platform: 'WEB', pushToken: 'other', subscription: s }),
    ],
    [
      'p256dh not base64url',
      (s: ReturnType<typeof subscription>) => ({
        platform: 'WEB',
        pushToken: s.endpoint,
        subscription: { ...s, keys: { ...s.keys, p256dh: 'not/base64+url' } },
      }),
    ],
    [
      'p256dh not a P-256 key',
      (s: ReturnType<typeof subscription>) => ({
        platform: 'WEB',
        pushToken: s.endpoint,
        subscription: { ...s, keys: { ...s.keys, p256dh: 'AAAA' } },
      }),
    ],
    [
      'auth of the wrong length',
      (s: ReturnType<typeof subscription>) => ({
        platform: 'WEB',
        pushToken: s.endpoint,
        subscription: { ...s, keys: { ...s.keys, auth: 'AAAA' } },
      }),
    ],
    [
      'a subscription for IOS',
      (s: ReturnType<typeof subscription>) => ({ platform: 'IOS', pushToken: 'apns-token', subscription: s }),
    ],
  ])('refuses %s with 400 and stores nothing', async (_name, body) => {
    const user = await createUser(t.container);
    const res = await register(user, body(subscription()));
    expect(res.statusCode, res.body).toBe(400);
    expect(await t.container.db.select().from(pushDevices).where(eq(pushDevices.accountId, user.id))).toEqual(
      [],
    );
  });

  it('serves one VAPID public key, generated once and kept in the database for every instance', async () => {
    const first = await t.app.inject({ url: '/api/v1/push/vapid-public-key' });
    expect(first.statusCode).toBe(200);
    const { publicKey } = first.json<{ publicKey: string }>();
    expect(Buffer.from(publicKey, 'base64url')).toHaveLength(65);
    expect((await t.app.inject({ url: '/api/v1/push/vapid-public-key' })).json()).toEqual({ publicKey });
    const [stored] = await t.container.db.select().from(appSecrets).where(eq(appSecrets.name, 'vapid_keys'));
    expect(JSON.parse(stored!.value).publicKey).toBe(publicKey);
    const second = await buildTestApp({ shareWith: t });
    try {
      expect((await second.app.inject({ url: '/api/v1/push/vapid-public-key' })).json()).toEqual({
        publicKey,
      });
    } finally {
      await second.close();
    }
  });

  it('serves VAPID_PUBLIC_KEY when the keys are configured', async () => {
    const configured = await buildTestApp({
      shareWith: t,
      env: { VAPID_PUBLIC_KEY: 'BConfiguredPublicKey', VAPID_PRIVATE_KEY: 'configured-private' },
    });
    try {
      expect((await configured.app.inject({ url: '/api/v1/push/vapid-public-key' })).json()).toEqual({
        publicKey: 'BConfiguredPublicKey',
      });
    } finally {
      await configured.close();
    }
  });

  it('records one push per device in the outbox, once per dedupe key, with no job to run', async () => {
    const user = await createUser(t.container);
    const other = await createUser(t.container);
    const sub = subscription();
    await register(user, { platform: 'WEB', pushToken: sub.endpoint, subscription: sub });
    await register(user, { platform: 'ANDROID', pushToken: `fcm-${sub.endpoint}` });
    await register(other, { platform: 'IOS', pushToken: `apns-${sub.endpoint}` });
    const devices = await t.container.devices.list(user.id);

    await t.container.push.toAccount(t.container.db, user.id, message, 'usage:esim_1:80');
    await t.container.push.toAccount(
      t.container.db,
      user.id,
      { ...message, body: 'again' },
      'usage:esim_1:80',
    );

    const pushes = await pushesOf(t.app, user.id);
    expect(pushes).toHaveLength(2);
    expect(pushes.map((p) => p.deviceId).sort()).toEqual(devices.map((d) => d.id).sort());
    for (const push of pushes) {
      expect(push).toMatchObject({
        accountId: user.id,
        ...message,
        result: 'recorded',
        error: null,
        attempts: 0,
      });
    }
    expect(pushes.map((p) => p.platform).sort()).toEqual(['ANDROID', 'WEB']);
    expect(await pushesOf(t.app, other.id)).toEqual([]);
    expect(await t.container.worker.runDue()).toBe(0);
  });

  it('records nothing when the caller’s transaction rolls back', async () => {
    const user = await createUser(t.container);
    await register(user, { platform: 'ANDROID', pushToken: `fcm-rollback-${user.id}` });
    await expect(
      t.container.db.transaction(async (tx) => {
        await t.container.push.toAccount(tx, user.id, message, 'rolled-back');
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect(await pushesOf(t.app, user.id)).toEqual([]);
  });

  it('lists every push newest first in pages, tokens never shown, operator only', async () => {
    const user = await createUser(t.container);
    for (let i = 0; i < 3; i++) {
      await register(user, { platform: 'ANDROID', pushToken: `fcm-page-${i}-${user.id}` });
    }
    await t.container.push.toAccount(t.container.db, user.id, message, `page-${user.id}`);
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const first = await t.app.inject({
      url: `/api/admin/v1/push?accountId=${user.id}&limit=2`,
      headers: admin,
    });
    expect(first.statusCode).toBe(200);
    const page = first.json<{ pushes: Array<{ id: string }>; nextCursor: string }>();
    expect(page.pushes).toHaveLength(2);
    const rest = await t.app.inject({
      url: `/api/admin/v1/push?accountId=${user.id}&limit=2&cursor=${page.nextCursor}`,
      headers: admin,
    });
    const ids = [...page.pushes, ...(rest.json().pushes as Array<{ id: string }>)].map((p) => p.id);
    expect(new Set(ids).size).toBe(3);
    expect(first.body).not.toContain('fcm-page-');
    const all = await t.app.inject({ url: '/api/admin/v1/push', headers: admin });
    expect((all.json().pushes as Array<{ id: string }>).map((p) => p.id)).toEqual(
      expect.arrayContaining(ids),
    );
    expect((await t.app.inject({ url: '/api/admin/v1/push' })).statusCode).toBe(401);
  });

  it('retention deletes pushes settled 90 days ago, never a newer or a pending one', async () => {
    const user = await createUser(t.container);
    await register(user, { platform: 'ANDROID', pushToken: `fcm-retention-${user.id}` });
    const { db } = t.container;
    await t.container.push.toAccount(db, user.id, message, `old-${user.id}`);
    await t.container.push.toAccount(db, user.id, message, `old-pending-${user.id}`);
    // A delivery still under way (the live transports' state between attempts).
    const [, stillSending] = (await pushesOf(t.app, user.id)).map((p) => p.id);
    await db.update(pushMessages).set({ status: 'pending' }).where(eq(pushMessages.id, stillSending!));
    t.clock.advance(90 * DAY - MINUTE);
    await t.container.push.toAccount(db, user.id, message, `new-${user.id}`);
    expect((await t.container.maintenance.runRetention()).pushMessages).toBe(0);
    t.clock.advance(2 * MINUTE);
    expect((await t.container.maintenance.runRetention()).pushMessages).toBeGreaterThanOrEqual(1);
    const left = await pushesOf(t.app, user.id);
    expect(left.map((p) => p.result)).toEqual(['recorded', 'pending']);
    expect(left[1]!.id).toBe(stillSending);
  });
});
