import { connect } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, buildTestApp, type TestApp } from '../../helpers/app.js';
import { logLinesOf } from '../../helpers/logs.js';
import { registerViaApi } from '../../helpers/accounts.js';
import { balanceOf, createUser, type TestUser } from '../../helpers/factories.js';
import { createPartner } from '../partner/helpers.js';
import { mobileShape, partnerShape } from './shapes.js';

let t: TestApp;
let user: TestUser;
let partner: { headers: Record<string, string> };
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

beforeAll(async () => {
  t = await buildTestApp();
  user = await createUser(t.container);
  partner = await createPartner(t);
});
afterAll(async () => t.close());

describe('S4: control characters give a 4xx in the surface error shape', () => {
  it.each([
    ['mobile path', 'GET', '/api/v1/orders/ord%00x', undefined],
    ['mobile query', 'GET', '/api/v1/destinations?search=tr%00', undefined],
    ['mobile query (DEL)', 'GET', '/api/v1/destinations?search=tr%7F', undefined],
    ['mobile JSON', 'POST', '/api/v1/auth/login', { email: 'a\u0000@example.com', password: 'x' }],
    ['mobile JSON key', 'PATCH', '/api/v1/user/profile', { ['first\u0001Name']: 'A' }],
  ])('%s', async (_name, method, url, payload) => {
    const res = await t.app.inject({ method: method as 'GET', url, headers: user.auth, payload });
    expect(res.statusCode).toBe(400);
    mobileShape(res.json(), 'VALIDATION_ERROR');
  });

  it.each([
    ['partner path', 'GET', '/api/public/v1/orders/ord%00x', undefined],
    ['partner query', 'GET', '/api/public/v1/orders?startingAfter=%1b', undefined],
    ['partner JSON', 'POST', '/api/public/v1/orders', { planId: 'plan\u0000x', quantity: 1 }],
  ])('%s', async (_name, method, url, payload) => {
    const res = await t.app.inject({ method: method as 'GET', url, headers: partner.headers, payload });
    expect(res.statusCode).toBe(400);
    partnerShape(res.json(), 'VALIDATION_ERROR');
  });

  it.each([
    ['admin path', 'GET', '/api/admin/v1/accounts/acc%00x', undefined],
    ['admin query', 'GET', '/api/admin/v1/accounts?email=%00', undefined],
    ['admin JSON', 'POST', '/api/admin/v1/tickets/tkt_x/messages', { message: 'hi\u0000' }],
    ['sandbox path', 'GET', '/sandbox/card/cs%00', undefined],
  ])('%s', async (_name, method, url, payload) => {
    const res = await t.app.inject({ method: method as 'GET', url, headers: admin, payload });
    expect(res.statusCode).toBe(400);
    partnerShape(res.json(), 'VALIDATION_ERROR');
  });

  it('allows tab, line feed and carriage return in free-text fields only', async () => {
    const open = (payload: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url: '/api/v1/support/tickets', headers: user.auth, payload });
    const ok = await open({ subject: 'Two lines', message: 'first line\r\n\tsecond line' });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().ticket.messages[0].message).toBe('first line\r\n\tsecond line');
    const nul = await open({ subject: 'NUL', message: 'text\u0000' });
    expect(nul.statusCode).toBe(400);
    mobileShape(nul.json(), 'VALIDATION_ERROR');
    const subject = await open({ subject: 'two\nlines', message: 'm' });
    expect(subject.statusCode).toBe(400);
    mobileShape(subject.json(), 'VALIDATION_ERROR');
    const reply = await t.app.inject({
      method: 'POST',
      url: `/api/admin/v1/tickets/${ok.json().ticket.id}/messages`,
      headers: admin,
      payload: { message: 'Hello,\n\nthanks.' },
    });
    expect(reply.statusCode).toBe(201);
  });
});

describe('S5: the operator contract is not public', () => {
  it('answers 401 for /api/admin/v1/openapi.json without the admin token', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong-token-wrong-token' }]) {
      const res = await t.app.inject({ url: '/api/admin/v1/openapi.json', headers });
      expect(res.statusCode).toBe(401);
      partnerShape(res.json(), 'UNAUTHORIZED');
      expect(res.body).not.toContain('/api/admin/v1/accounts');
    }
    const ok = await t.app.inject({ url: '/api/admin/v1/openapi.json', headers: admin });
    expect(ok.statusCode).toBe(200);
    expect(Object.keys(ok.json().paths).some((p) => p.startsWith('/api/admin/v1/'))).toBe(true);
  });

  it('keeps /api/admin out of /docs and every document it serves', async () => {
    const page = await t.app.inject({ url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain('/api/admin');
    for (const url of ['/docs/openapi.json', '/docs/openapi.yaml']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('/api/v1/auth/login');
      expect(res.body).not.toContain('/api/admin');
    }
    for (const url of ['/api/v1/openapi.json', '/api/public/v1/openapi.json']) {
      const doc = (await t.app.inject({ url })).json();
      expect(Object.keys(doc.paths).filter((p) => p.includes('/api/admin'))).toEqual([]);
    }
  });
});

describe('S8: security headers', () => {
  it('sends nosniff and no-referrer on every response, errors included', async () => {
    for (const res of [
      await t.app.inject({ url: '/health' }),
      await t.app.inject({ url: '/api/v1/destinations' }),
      await t.app.inject({ url: '/api/v1/nope' }),
      await t.app.inject({ url: '/api/public/v1/wallet' }),
      await t.app.inject({ url: '/api/admin/v1/accounts' }),
    ]) {
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
    }
  });

  it('marks every response that carries a token or key no-store', async () => {
    const registered = await registerViaApi(t.app);
    expect(registered.response.headers['cache-control']).toBe('no-store');
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: registered.email, password: registered.password },
    });
    expect(login.headers['cache-control']).toBe('no-store');
    const key = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/api-key/generate',
      headers: registered.auth,
    });
    expect(key.statusCode).toBe(200);
    expect(key.headers['cache-control']).toBe('no-store');
    const reset = await t.app.inject({ url: '/api/v1/auth/reset-password?token=abc' });
    expect(reset.headers['cache-control']).toBe('no-store');
  });

  it('forbids framing of hosted payment pages', async () => {
    const session = await t.app.inject({
      method: 'POST',
      url: '/api/v1/payments/card/create-session',
      headers: user.auth,
      payload: { amount: 500 },
    });
    const page = await t.app.inject({ url: new URL(session.json().url).pathname });
    expect(page.statusCode).toBe(200);
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['referrer-policy']).toBe('no-referrer');
  });
});

describe('S9: errors before routing use the surface shape and echo nothing', () => {
  const marker = 'ECHO-MARKER-4711';

  it('414 for an over-long URL', async () => {
    const long = `/api/v1/destinations?q=${marker}${'a'.repeat(9000)}`;
    const res = await t.app.inject({ url: long });
    expect(res.statusCode).toBe(414);
    mobileShape(res.json(), 'URI_TOO_LONG');
    expect(res.body).not.toContain(marker);
    const partnerRes = await t.app.inject({ url: `/api/public/v1/orders?x=${marker}${'a'.repeat(9000)}` });
    expect(partnerRes.statusCode).toBe(414);
    partnerShape(partnerRes.json(), 'URI_TOO_LONG');
  });

  it('400 for malformed percent-encoding, without echoing the path', async () => {
    const res = await t.app.inject({ url: `/api/v1/orders/${marker}%E0%A4%A` });
    expect(res.statusCode).toBe(400);
    mobileShape(res.json(), 'VALIDATION_ERROR');
    expect(res.body).not.toContain(marker);
  });

  it('bad JSON and unsupported media types in each surface shape', async () => {
    const badJson = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: `{"email": "${marker}`,
    });
    expect(badJson.statusCode).toBe(400);
    mobileShape(badJson.json(), 'VALIDATION_ERROR');
    expect(badJson.body).not.toContain(marker);
    const media = await t.app.inject({
      method: 'POST',
      url: '/api/public/v1/orders',
      headers: { ...partner.headers, 'content-type': `application/x-${marker}` },
      payload: 'x',
    });
    expect(media.statusCode).toBe(415);
    partnerShape(media.json(), 'UNSUPPORTED_MEDIA_TYPE');
    expect(media.body).not.toContain(marker);
  });

  it('431 / 414 from the socket for headers or a request line beyond 16 KB', async () => {
    const server = await buildTestApp();
    try {
      await server.app.listen({ port: 3111, host: '127.0.0.1' });
      const raw = (request: string) =>
        new Promise<string>((resolve, reject) => {
          const socket = connect(3111, '127.0.0.1', () => socket.end(request));
          let data = '';
          socket.on('data', (chunk) => (data += chunk.toString()));
          socket.on('close', () => resolve(data));
          socket.on('error', reject);
        });
      const headers = await raw(
        `GET /api/v1/destinations HTTP/1.1\r\nHost: x\r\nX-Big: ${marker}${'a'.repeat(20_000)}\r\n\r\n`,
      );
      expect(headers).toMatch(/^HTTP\/1\.1 431 /);
      expect(headers).toContain('"code":"HEADERS_TOO_LARGE"');
      expect(headers).toContain('X-Content-Type-Options: nosniff');
      expect(headers).not.toContain(marker);
      const url = await raw(
        `GET /api/public/v1/orders?q=${marker}${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
      );
      expect(url).toMatch(/^HTTP\/1\.1 414 /);
      expect(url).not.toContain(marker);
      const body = JSON.parse(url.slice(url.indexOf('\r\n\r\n') + 4));
      expect(body).toMatchObject({ error: { code: 'URI_TOO_LONG' } });
    } finally {
      await server.close();
    }
  });
});

describe('S12: ticket category is free text', () => {
  const open = (payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/api/v1/support/tickets', headers: user.auth, payload });

  it('stores and echoes a trimmed category of 1–32 characters; longer → 400', async () => {
    const res = await open({ subject: 'Roaming', category: '  roaming in Japan ', message: 'm' });
    expect(res.statusCode).toBe(201);
    expect(res.json().ticket.category).toBe('roaming in Japan');
    const list = await t.app.inject({ url: '/api/v1/support/tickets', headers: user.auth });
    expect(list.json().tickets.map((x: { category: string }) => x.category)).toContain('roaming in Japan');
    expect((await open({ subject: 's', category: 'x'.repeat(32), message: 'm' })).statusCode).toBe(201);
    const long = await open({ subject: 's', category: 'x'.repeat(33), message: 'm' });
    expect(long.statusCode).toBe(400);
    mobileShape(long.json(), 'VALIDATION_ERROR');
    expect((await open({ subject: 's', category: '   ', message: 'm' })).statusCode).toBe(400);
    expect((await open({ subject: 's', message: 'm' })).json().ticket.category).toBe('other');
  });
});

describe('S14: operator wallet adjustments are idempotent', () => {
  it('the same Idempotency-Key sent twice credits once', async () => {
    const target = await createUser(t.container);
    const adjust = (key: string, amountUsd: number, accountId = target.id) =>
      t.app.inject({
        method: 'POST',
        url: `/api/admin/v1/accounts/${accountId}/wallet/adjustments`,
        headers: { ...admin, 'idempotency-key': key },
        payload: { amountUsd, reason: 'goodwill credit' },
      });
    const first = await adjust('adj-1', 25);
    const retry = await adjust('adj-1', 25);
    expect(first.statusCode).toBe(200);
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toEqual(first.json());
    expect(await balanceOf(t.container, target.id)).toBe(2500);
    const reused = await adjust('adj-1', 30);
    expect(reused.statusCode).toBe(409);
    partnerShape(reused.json(), 'IDEMPOTENCY_KEY_REUSED');
    const other = await createUser(t.container);
    expect((await adjust('adj-1', 25, other.id)).statusCode).toBe(409);
    expect(await balanceOf(t.container, other.id)).toBe(0);
    expect((await adjust('adj-2', 25)).statusCode).toBe(200);
    expect(await balanceOf(t.container, target.id)).toBe(5000);
  });
});

describe('S13: logs hold no secrets', () => {
  it('redacts tokens (webhook and install path tokens too), keys and e-mail addresses in URLs, and SQL parameters in error logs', async () => {
    const secretParam = 'sql-param-secret-9931@example.com';
    const lines = await logLinesOf(
      t,
      async (app) => {
        await app.inject({ url: '/api/v1/auth/reset-password?token=reset-token-secret-123' });
        await app.inject({ url: '/api/v1/destinations?email=victim%40example.com&search=tr' });
        await app.inject({ url: '/api/v1/destinations?q=victim@example.com' });
        await app.inject({ url: '/api/admin/v1/accounts?api_key=svc_live_sk_leak', headers: admin });
        await app.inject({
          method: 'POST',
          url: '/webhooks/esim/esimaccess/webhook-path-secret-1',
          payload: {},
        });
        await app.inject({ method: 'POST', url: '/webhooks/esimaccess/webhook-path-secret-2', payload: {} });
        // Install page tokens (issue 30 T2): the data route and the page itself.
        await app.inject({ url: '/api/v1/install/install-path-secret-0001?locale=en' });
        await app.inject({ url: '/install/install-path-secret-0002' });
        // QR image tokens: the image is the activation code.
        await app.inject({ url: '/api/v1/esims/qr-path-secret-0003/qr.png' });
        await app.inject({ url: '/api/v1/esims/qr-path-secret-0004/qr.svg?size=300' });
        const failed = await app.inject({
          method: 'POST',
          url: '/api/v1/auth/login',
          headers: { authorization: 'Bearer session-token-secret' },
          payload: { email: 'someone@example.com', password: 'password-secret-77' },
        });
        expect(failed.statusCode).toBe(500);
        expect(failed.body).not.toContain(secretParam);
      },
      (container) => {
        container.accounts.login = async () => {
          await container.db.execute(sql`select ${secretParam}::int`);
          throw new Error('unreachable');
        };
      },
    );
    const log = lines.join('');
    expect(log).toContain('unhandled error');
    expect(log).toContain('[REDACTED]');
    for (const secret of [
      'reset-token-secret-123',
      'victim',
      'svc_live_sk_leak',
      'session-token-secret',
      'password-secret-77',
      'sql-param-secret-9931',
      'someone@example.com',
      'webhook-path-secret',
      'install-path-secret',
      'qr-path-secret',
    ]) {
      expect(log, secret).not.toContain(secret);
    }
  });
});
