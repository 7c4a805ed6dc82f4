import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts } from '../../../src/db/schema/index.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { createUser } from '../../helpers/factories.js';

const WALLET = '/api/public/v1/wallet';

describe('Partner API key authentication', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  async function partner() {
    const user = await createUser(t.container, { balanceCents: 1234 });
    const { key } = await t.container.apiKeys.generate(user.id);
    return { user, key };
  }

  function expectUnauthorized(res: {
    statusCode: number;
    json(): unknown;
    headers: Record<string, unknown>;
  }) {
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: { code: 'UNAUTHORIZED', message: expect.any(String) } });
    // RFC 9110 §15.5.2 (issue 28 H16): a 401 names the scheme that would work.
    expect(res.headers['www-authenticate']).toBe('Bearer realm="partner"');
  }

  it('accepts the key as Authorization: Bearer', async () => {
    const { key } = await partner();
    const res = await t.app.inject({ url: WALLET, headers: { authorization: `Bearer ${key}` } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ balanceUsd: 12.34, currency: 'USD', lowBalanceThreshold: 50 });
  });

  it('accepts the key as X-API-Key', async () => {
    const { key } = await partner();
    const res = await t.app.inject({ url: WALLET, headers: { 'x-api-key': key } });
    expect(res.statusCode).toBe(200);
    expect(res.json().balanceUsd).toBe(12.34);
  });

  it('answers 401 UNAUTHORIZED without a key or with an unknown key', async () => {
    expectUnauthorized(await t.app.inject({ url: WALLET }));
    expectUnauthorized(
      await t.app.inject({ url: WALLET, headers: { authorization: 'Bearer svc_live_sk_notarealkey0000' } }),
    );
    expectUnauthorized(await t.app.inject({ url: WALLET, headers: { 'x-api-key': 'garbage' } }));
    expectUnauthorized(await t.app.inject({ url: WALLET, headers: { authorization: 'Basic abc' } }));
    // Catalogue reads (answered before routing when the key is known) say the same.
    expectUnauthorized(await t.app.inject({ url: '/api/public/v1/destinations' }));
    expectUnauthorized(
      await t.app.inject({
        url: '/api/public/v1/destinations',
        headers: { authorization: 'Bearer svc_test_sk_notarealkey0000' },
      }),
    );
  });

  it('rejects the previous key at once after regeneration', async () => {
    const { user, key: oldKey } = await partner();
    const { key: newKey } = await t.container.apiKeys.generate(user.id);
    expectUnauthorized(await t.app.inject({ url: WALLET, headers: { authorization: `Bearer ${oldKey}` } }));
    expectUnauthorized(await t.app.inject({ url: WALLET, headers: { 'x-api-key': oldKey } }));
    const res = await t.app.inject({ url: WALLET, headers: { 'x-api-key': newKey } });
    expect(res.statusCode).toBe(200);
  });

  it('rejects the old key on a second instance too', async () => {
    const second = await buildTestApp({ shareWith: t });
    try {
      const { user, key: oldKey } = await partner();
      expect((await second.app.inject({ url: WALLET, headers: { 'x-api-key': oldKey } })).statusCode).toBe(
        200,
      );
      await t.container.apiKeys.generate(user.id);
      expectUnauthorized(await second.app.inject({ url: WALLET, headers: { 'x-api-key': oldKey } }));
    } finally {
      await second.close();
    }
  });

  it('catalogue reads on another instance accept a replaced key for at most 1 s; other routes refuse it at once', async () => {
    const second = await buildTestApp({ shareWith: t });
    const CATALOG = '/api/public/v1/destinations';
    try {
      const { user, key: oldKey } = await partner();
      const read = (app: TestApp, url: string) => app.app.inject({ url, headers: { 'x-api-key': oldKey } });
      expect((await read(second, CATALOG)).statusCode).toBe(200);
      await t.container.apiKeys.generate(user.id);
      // The instance that replaced the key forgets it at once, on every route.
      expectUnauthorized(await read(t, CATALOG));
      // The other one still has its check of a moment ago for the public catalogue only.
      expect((await read(second, CATALOG)).statusCode).toBe(200);
      expectUnauthorized(await read(second, WALLET));
      t.clock.advance(1000);
      expectUnauthorized(await read(second, CATALOG));
    } finally {
      await second.close();
    }
  });

  it('never remembers a refusal: a key generated a moment after a refused request works at once', async () => {
    const user = await createUser(t.container, { balanceCents: 0 });
    const CATALOG = '/api/public/v1/destinations';
    const unknown = 'svc_live_sk_00000000000000000000000000000000000000000';
    expectUnauthorized(await t.app.inject({ url: CATALOG, headers: { 'x-api-key': unknown } }));
    const { key } = await t.container.apiKeys.generate(user.id);
    expect((await t.app.inject({ url: CATALOG, headers: { 'x-api-key': key } })).statusCode).toBe(200);
  });

  it('never accepts a session token or the session cookie', async () => {
    const { user } = await partner();
    expectUnauthorized(await t.app.inject({ url: WALLET, headers: user.auth }));
    expectUnauthorized(await t.app.inject({ url: WALLET, cookies: { svc_session: user.token } }));
    // The same token is a valid Mobile session: only the Partner surface refuses it.
    expect(await t.container.sessions.resolve(user.token)).not.toBeNull();
  });

  it.each(['SUSPENDED', 'BANNED', 'DELETED'] as const)('rejects the key of a %s account', async (status) => {
    const { user, key } = await partner();
    expect((await t.app.inject({ url: WALLET, headers: { 'x-api-key': key } })).statusCode).toBe(200);
    await t.container.db.update(accounts).set({ status }).where(eq(accounts.id, user.id));
    expectUnauthorized(await t.app.inject({ url: WALLET, headers: { 'x-api-key': key } }));
  });

  it('does not spend any budget on unauthenticated requests', async () => {
    const res = await t.app.inject({ url: WALLET });
    expect(res.statusCode).toBe(401);
    expect(res.headers['x-ratelimit-limit']).toBeUndefined();
  });
});
