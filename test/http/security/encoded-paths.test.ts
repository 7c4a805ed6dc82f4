import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, buildTestApp, type TestApp } from '../../helpers/app.js';
import { createUser, type TestUser } from '../../helpers/factories.js';

/**
 * Issue 28, H4: access is decided on the path the router matched, so no percent-encoded spelling
 * of a protected path gets past its check (S5 had been bypassed with `/%61pi/admin/v1/openapi.json`).
 */

const METRICS_TOKEN = 'metrics-token-0123456789abcdef';
let t: TestApp;
let user: TestUser;

beforeAll(async () => {
  t = await buildTestApp({ env: { METRICS_TOKEN } });
  user = await createUser(t.container);
});
afterAll(async () => t.close());

const hex = (c: string) => c.charCodeAt(0).toString(16).padStart(2, '0');

/**
 * `path` with each of its characters percent-encoded in turn (upper- and lower-case hex), with
 * every character encoded at once, and the spellings a router might normalise (double slashes,
 * dot segments, double encoding, another case).
 */
function spellings(path: string): string[] {
  const out = new Set<string>();
  [...path].forEach((c, i) => {
    if (c === '/') return;
    for (const code of [hex(c).toUpperCase(), hex(c)])
      out.add(`${path.slice(0, i)}%${code}${path.slice(i + 1)}`);
  });
  out.add(path.replace(/[^/]/g, (c) => `%${hex(c)}`));
  out.add(path.replace(/[^/]/g, (c) => `%${hex(c).toUpperCase()}`));
  out.add(path.replace(/^\/([^/]+)\//, '/$1/./'));
  out.add(`/${path}`);
  out.add(path.replace(/^\/([^/]+)\//, '/$1//'));
  out.add(path.replace(/^\/([^/]+)\//, '/$1/x/../'));
  out.add(path.replace(/^\/(.)/, (_m, c: string) => `/%25${hex(c)}`));
  out.add(path.toUpperCase());
  out.add(path.replace(/\//g, '%2F'));
  return [...out];
}

/** Every protected path, what grants access to it, and what its answer must never hold without. */
const PROTECTED = [
  { path: '/api/admin/v1/openapi.json', secret: '/api/admin/v1/accounts', headers: () => admin },
  { path: '/api/admin/v1/accounts', secret: '"items"', headers: () => admin },
  { path: '/api/v1/user/orders', secret: '"items"', headers: () => user.auth },
  { path: '/api/v1/user/wallet/transactions', secret: '"items"', headers: () => user.auth },
  { path: '/api/public/v1/wallet', secret: '"balance', headers: () => ({}) },
  { path: '/metrics', secret: 'http_request', headers: () => ({ authorization: `Bearer ${METRICS_TOKEN}` }) },
];
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

describe('H4: percent-encoded spellings of protected paths', () => {
  it('the plain paths answer with their credential, and refuse without it', async () => {
    for (const { path, headers } of PROTECTED) {
      if (path.startsWith('/api/public/')) continue;
      expect((await t.app.inject({ url: path, headers: headers() })).statusCode, path).toBe(200);
    }
  });

  it('no spelling of a protected path answers without its credential', async () => {
    const leaks: string[] = [];
    for (const { path, secret } of PROTECTED) {
      for (const url of spellings(path)) {
        const res = await t.app.inject({ url });
        if (res.statusCode < 400 || res.body.includes(secret)) leaks.push(`${url} → ${res.statusCode}`);
        else expect([400, 401, 404], url).toContain(res.statusCode);
      }
    }
    expect(leaks).toEqual([]);
  });

  it('every spelling that reaches the token routes is marked no-store', async () => {
    for (const url of spellings('/api/v1/auth/me')) {
      const res = await t.app.inject({ url, headers: user.auth });
      if (res.statusCode === 404 || res.statusCode === 400) continue;
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-store');
    }
  });
});
