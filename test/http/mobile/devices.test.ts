import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushDevices } from '../../../src/db/schema/index.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { createUser, type TestUser } from '../../helpers/factories.js';

describe('mobile push devices', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const token = () => `fcm-${Math.random().toString(36).slice(2)}-${'x'.repeat(100)}`;
  const register = (user: TestUser, body: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/api/v1/user/push-devices', headers: user.auth, payload: body });
  const list = async (user: TestUser) => {
    const res = await t.app.inject({ url: '/api/v1/user/push-devices', headers: user.auth });
    expect(res.statusCode).toBe(200);
    return res.json().devices as Array<Record<string, unknown>>;
  };
  const unregister = (user: TestUser, pushToken: string) =>
    t.app.inject({
      method: 'DELETE',
      url: '/api/v1/user/push-devices',
      headers: user.auth,
      payload: { pushToken },
    });
  const rowsFor = (pushToken: string) =>
    t.container.db.select().from(pushDevices).where(eq(pushDevices.pushToken, pushToken));

  it('registers a device', async () => {
    const user = await createUser(t.container);
    const pushToken = token();
    const res = await register(user, { platform: 'IOS', pushToken, appVersion: '1.0.0' });
    expect(res.statusCode).toBe(200);
    const now = t.clock.now().toISOString();
    expect(res.json()).toEqual({
      success: true,
      device: {
        id: expect.stringMatching(/^dev_/),
        platform: 'IOS',
        pushToken,
        appVersion: '1.0.0',
        createdAt: now,
        lastSeenAt: now,
      },
    });
    expect(await list(user)).toEqual([res.json().device]);
  });

  it('upserts the same token: one device with the new app version and last seen time', async () => {
    const user = await createUser(t.container);
    const pushToken = token();
    const first = (await register(user, { platform: 'ANDROID', pushToken, appVersion: '1.0.0' })).json()
      .device;
    t.clock.advance(60_000);
    const second = (await register(user, { platform: 'ANDROID', pushToken, appVersion: '1.1.0' })).json()
      .device;
    expect(second.id).toBe(first.id);
    expect(second.appVersion).toBe('1.1.0');
    expect(second.createdAt).toBe(first.createdAt);
    expect(second.lastSeenAt).toBe(t.clock.now().toISOString());
    expect(await rowsFor(pushToken)).toHaveLength(1);
    // A launch that does not report its version keeps the known one.
    const third = (await register(user, { platform: 'ANDROID', pushToken })).json().device;
    expect(third.appVersion).toBe('1.1.0');
    expect(await list(user)).toHaveLength(1);
  });

  it('moves a token registered by another account to the caller', async () => {
    const alice = await createUser(t.container);
    const bob = await createUser(t.container);
    const pushToken = token();
    await register(alice, { platform: 'IOS', pushToken, appVersion: '2.0' });
    t.clock.advance(1000);
    const moved = await register(bob, { platform: 'IOS', pushToken, appVersion: '2.0' });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().device.createdAt).toBe(t.clock.now().toISOString());
    expect(await list(alice)).toEqual([]);
    expect((await list(bob)).map((d) => d.pushToken)).toEqual([pushToken]);
    const rows = await rowsFor(pushToken);
    expect(rows.map((r) => r.accountId)).toEqual([bob.id]);
  });

  it('lists only the caller’s devices, most recently seen first', async () => {
    const user = await createUser(t.container);
    const other = await createUser(t.container);
    const older = token();
    const newer = token();
    await register(user, { platform: 'IOS', pushToken: older, appVersion: '1' });
    t.clock.advance(1000);
    await register(user, { platform: 'ANDROID', pushToken: newer, appVersion: '1' });
    await register(other, { platform: 'IOS', pushToken: token(), appVersion: '1' });
    expect((await list(user)).map((d) => d.pushToken)).toEqual([newer, older]);
  });

  it('deletes the caller’s device and is idempotent for unknown tokens', async () => {
    const user = await createUser(t.container);
    const pushToken = token();
    await register(user, { platform: 'IOS', pushToken, appVersion: '1' });
    const res = await unregister(user, pushToken);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect(await list(user)).toEqual([]);
    expect((await unregister(user, pushToken)).json()).toEqual({ success: true });
    expect((await unregister(user, 'never-registered')).statusCode).toBe(200);
  });

  it('cannot delete another account’s device', async () => {
    const owner = await createUser(t.container);
    const intruder = await createUser(t.container);
    const pushToken = token();
    await register(owner, { platform: 'ANDROID', pushToken, appVersion: '1' });
    const res = await unregister(intruder, pushToken);
    expect(res.statusCode).toBe(200);
    expect((await list(owner)).map((d) => d.pushToken)).toEqual([pushToken]);
  });

  it('keeps devices when the session that registered them ends', async () => {
    const user = await createUser(t.container);
    const pushToken = token();
    await register(user, { platform: 'IOS', pushToken, appVersion: '1' });
    const session = await t.container.sessions.resolve(user.token);
    await t.container.sessions.revoke(session!.sessionId);
    expect(await t.container.sessions.resolve(user.token)).toBeNull();
    expect(await rowsFor(pushToken)).toHaveLength(1);
  });

  it('validates input', async () => {
    const user = await createUser(t.container);
    const cases: Array<Record<string, unknown>> = [
      { platform: 'WINDOWS', pushToken: token(), appVersion: '1' },
      { platform: 'IOS', pushToken: '', appVersion: '1' },
      { platform: 'IOS', pushToken: 'a'.repeat(4097), appVersion: '1' },
      { pushToken: token(), appVersion: '1' },
    ];
    for (const body of cases) {
      const res = await register(user, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
    }
    expect(
      (await register(user, { platform: 'IOS', pushToken: 'a'.repeat(4096), appVersion: '1' })).statusCode,
    ).toBe(200);
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: '/api/v1/user/push-devices',
          headers: user.auth,
          payload: {},
        })
      ).statusCode,
    ).toBe(400);
  });

  it('requires a session', async () => {
    expect((await t.app.inject({ url: '/api/v1/user/push-devices' })).statusCode).toBe(401);
    const post = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/push-devices',
      payload: { platform: 'IOS', pushToken: token(), appVersion: '1' },
    });
    expect(post.statusCode).toBe(401);
    const del = await t.app.inject({
      method: 'DELETE',
      url: '/api/v1/user/push-devices',
      payload: { pushToken: 'x' },
    });
    expect(del.statusCode).toBe(401);
  });
});
