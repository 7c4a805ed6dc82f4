import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, buildTestApp, type TestApp } from '../../helpers/app.js';
import { createUser, type TestUser } from '../../helpers/factories.js';
import { createPartner } from '../partner/helpers.js';
import { mobileShape, partnerShape } from './shapes.js';

/** Issue 28, H1 (compressed and oversized request bodies) and H15 (non-JSON bodies on JSON routes). */

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

/** The three surfaces' JSON write routes, each with the check of its error shape. */
const routes = () =>
  [
    { method: 'POST', url: '/api/v1/auth/login', headers: {}, shape: mobileShape },
    { method: 'POST', url: '/api/public/v1/orders', headers: partner.headers, shape: partnerShape },
    { method: 'PATCH', url: '/api/admin/v1/accounts/acc_x', headers: admin, shape: partnerShape },
  ] as const;

describe('H1: compressed request bodies are refused, never inflated', () => {
  // 20-odd bytes that inflate to a 2 MB JSON array: the body of the attack.
  const json = Buffer.from(JSON.stringify(new Array(1_000_000).fill(0)));
  const bombs: Record<string, Buffer> = {
    br: brotliCompressSync(json),
    gzip: gzipSync(json),
    deflate: deflateSync(json),
  };

  it('answers 415 to every Content-Encoding but identity, in each surface shape', async () => {
    expect(bombs.br!.length).toBeLessThan(100);
    const encodings = ['br', 'gzip', 'deflate', 'x-gzip', 'zstd', 'BR', 'gzip, identity', 'identity, br'];
    for (const route of routes()) {
      for (const encoding of encodings) {
        const started = performance.now();
        const res = await t.app.inject({
          method: route.method,
          url: route.url,
          headers: {
            ...route.headers,
            'content-type': 'application/json',
            'content-encoding': encoding,
          },
          payload: bombs[encoding.toLowerCase()] ?? bombs.gzip,
        });
        expect(res.statusCode, `${route.url} ${encoding}`).toBe(415);
        route.shape(res.json(), 'UNSUPPORTED_MEDIA_TYPE');
        // Refused before a byte is read, let alone inflated.
        expect(performance.now() - started).toBeLessThan(250);
      }
    }
  });

  it('still reads identity bodies and still compresses responses', async () => {
    const identity = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { 'content-type': 'application/json', 'content-encoding': 'identity' },
      payload: JSON.stringify({ email: 'nobody@example.com', password: 'not the password' }),
    });
    expect(identity.statusCode).toBe(401);
    const doc = await t.app.inject({ url: '/api/v1/openapi.json', headers: { 'accept-encoding': 'br' } });
    expect(doc.statusCode).toBe(200);
    expect(doc.headers['content-encoding']).toBe('br');
  });
});

describe('H1: JSON bodies are limited to 64 KB, the avatar upload to 2 MB', () => {
  /** A login body of exactly `bytes` bytes. */
  const bodyOf = (bytes: number) => {
    const body = JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(bytes - 32) });
    expect(body.length).toBe(bytes);
    return body;
  };

  it('answers 413 in each surface shape beyond 64 KB', async () => {
    for (const route of routes()) {
      const res = await t.app.inject({
        method: route.method,
        url: route.url,
        headers: { ...route.headers, 'content-type': 'application/json' },
        payload: bodyOf(64 * 1024 + 1),
      });
      expect(res.statusCode, route.url).toBe(413);
      route.shape(res.json(), 'PAYLOAD_TOO_LARGE');
    }
    const within = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: bodyOf(60 * 1024),
    });
    expect(within.statusCode).not.toBe(413);
  });

  it('takes up to 2 MB on the avatar upload only', async () => {
    const avatar = (bytes: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/user/avatar',
        headers: { ...user.auth, 'content-type': 'application/json' },
        payload: JSON.stringify({ avatarUrl: `data:image/png;base64,${'A'.repeat(bytes - 50)}` }),
      });
    // Not a PNG: a 400 from the avatar rules, so the body was read and checked.
    const large = await avatar(1024 * 1024);
    expect(large.statusCode).toBe(400);
    mobileShape(large.json(), 'VALIDATION_ERROR');
    const tooLarge = await avatar(2 * 1024 * 1024 + 1);
    expect(tooLarge.statusCode).toBe(413);
    mobileShape(tooLarge.json(), 'PAYLOAD_TOO_LARGE');
  });

  it('reads no further than the limit: 413 and the connection closes', async () => {
    const server = await buildTestApp({ shareWith: t });
    try {
      await server.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = server.app.server.address() as AddressInfo;
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => {
          socket.write(
            'POST /api/v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
              'Content-Length: 1000000\r\n\r\n{"email":"',
          );
          // Keep sending, as an attacker would: the server must answer and hang up, not read 1 MB.
          const chunk = Buffer.alloc(16 * 1024, 'a');
          const timer = setInterval(() => socket.writable && socket.write(chunk), 20);
          socket.on('close', () => clearInterval(timer));
        });
        let data = '';
        socket.on('data', (c) => (data += c.toString()));
        socket.on('close', () => resolve(data));
        socket.on('error', () => resolve(data));
        setTimeout(() => {
          socket.destroy();
          reject(new Error(`the server kept the connection open; got ${data.slice(0, 40)}`));
        }, 5000);
      });
      expect(answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(answer.toLowerCase()).toContain('connection: close');
    } finally {
      await server.app.close();
    }
  });
});

describe('H15: any non-JSON content type on a JSON route is 415', () => {
  it('refuses text/plain and other types in each surface shape', async () => {
    for (const route of routes()) {
      for (const type of ['text/plain', 'text/plain; charset=utf-8', 'application/x-www-form-urlencoded']) {
        const res = await t.app.inject({
          method: route.method,
          url: route.url,
          headers: { ...route.headers, 'content-type': type },
          payload: '{"email":"a@b.co","password":"whatever1"}',
        });
        expect(res.statusCode, `${route.url} ${type}`).toBe(415);
        route.shape(res.json(), 'UNSUPPORTED_MEDIA_TYPE');
      }
    }
  });

  it('keeps the routes that take other types: sandbox forms and provider webhooks', async () => {
    const session = await t.app.inject({
      method: 'POST',
      url: '/api/v1/payments/card/create-session',
      headers: user.auth,
      payload: { amount: 500 },
    });
    const page = new URL(session.json().url).pathname;
    const form = await t.app.inject({
      method: 'POST',
      url: `${page}/complete`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'outcome=cancelled',
    });
    expect(form.statusCode).toBe(303);
    // The webhook reads raw bytes of any type and checks the signature over them.
    const webhook = await t.app.inject({
      method: 'POST',
      url: '/api/v1/payments/card/webhook',
      headers: { 'content-type': 'text/plain' },
      payload: '{"id":"evt_1"}',
    });
    expect(webhook.statusCode).toBe(400);
    mobileShape(webhook.json(), 'INVALID_SIGNATURE');
  });
});
