import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CLIENT_ROUTES, prefersHtml } from '../../../src/http/web.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';

const HTML =
  '<!doctype html><html><head><script type="module" src="/assets/app-1a2b3c.js"></script></head><body><div id="root"></div></body></html>';
const JS = `console.log(${JSON.stringify('x'.repeat(4000))});`;

describe('web app serving', () => {
  let dir: string;
  let t: TestApp;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'web-dist-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), HTML);
    writeFileSync(join(dir, 'assets', 'app-1a2b3c.js'), JS);
    writeFileSync(join(dir, 'assets', 'app-1a2b3c.js.br'), brotliCompressSync(JS));
    writeFileSync(join(dir, 'assets', 'app-1a2b3c.js.gz'), gzipSync(JS));
    t = await buildTestApp({ env: { WEB_DIST_DIR: dir } });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('every client route answers index.html, never cached', async () => {
    // `/` and `/destinations/:code` are rendered from the catalog (storefront-pages.test.ts).
    for (const route of CLIENT_ROUTES.filter((r) => r !== '/' && r !== '/destinations/:code')) {
      const url = route.replace(':code', 'TR') + '?token=abc';
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.body, url).toBe(HTML);
    }
  });

  test('account pages and capability links say noindex; public pages do not', async () => {
    const robots = async (url: string) =>
      (await t.app.inject({ method: 'GET', url })).headers['x-robots-tag'];
    for (const url of [
      '/install/abc',
      '/support/guest/abc',
      '/reset-password?token=abc',
      '/orders',
      '/esims/1',
    ]) {
      expect(await robots(url), url).toBe('noindex, nofollow');
    }
    for (const url of ['/terms', '/contact', '/compatibility', '/login']) {
      expect(await robots(url), url).toBeUndefined();
    }
  });

  test('assets: immutable, precompressed by Accept-Encoding, identity otherwise', async () => {
    const url = '/assets/app-1a2b3c.js';
    const br = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br, gzip' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.rawPayload.equals(brotliCompressSync(JS))).toBe(true);
    const gz = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    const plain = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(JS);
  });

  const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

  test('an unknown page asked for as HTML is the app (its not-found page) with status 404', async () => {
    for (const url of ['/xyz', '/orders/abc', '/destinations', '/esims/1/2?x=1']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { accept: BROWSER_ACCEPT } });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.headers['content-security-policy'], url).toContain("default-src 'self'");
      expect(res.body, url).toBe(HTML);
    }
  });

  test('the same unknown page asked for as JSON, or by a client naming no type, is the JSON 404', async () => {
    for (const accept of [undefined, '*/*', 'application/json', 'application/json, text/html;q=0.5']) {
      const res = await t.app.inject({ method: 'GET', url: '/xyz', headers: accept ? { accept } : {} });
      expect(res.statusCode, accept).toBe(404);
      expect(res.headers['content-type'], accept).toMatch(/^application\/json/);
    }
    const post = await t.app.inject({ method: 'POST', url: '/xyz', headers: { accept: BROWSER_ACCEPT } });
    expect(post.headers['content-type']).toMatch(/^application\/json/);
  });

  test('API, asset and other server paths keep the JSON 404 even for a browser', async () => {
    for (const url of [
      '/api/v1/nope',
      '/api/public/v1/nope',
      '/api/admin/v1/nope',
      '/api/v9/anything',
      '/assets/missing.js',
      '/webhooks/nope',
    ]) {
      const res = await t.app.inject({ method: 'GET', url, headers: { accept: BROWSER_ACCEPT } });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/^application\/json/);
    }
  });

  test('no SPA fallback elsewhere: unknown pages, assets and API paths keep the JSON 404', async () => {
    for (const url of [
      '/nope',
      '/destinations',
      '/orders/123',
      '/assets/missing.js',
      '/api/v1/nope',
      '/api/public/v1/nope',
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/^application\/json/);
    }
    const api = await t.app.inject({
      method: 'GET',
      url: '/api/v1/nope',
      headers: { 'accept-language': 'en' },
    });
    expect(api.json().code).toBe('NOT_FOUND');
  });
});

describe('prefersHtml (the Accept header of a not-found request)', () => {
  test.each([
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', true],
    ['application/xhtml+xml', true],
    ['TEXT/HTML', true],
    ['text/html;q=0.4, application/json', false],
    ['application/json;q=0.5, text/html', true],
    ['text/html;q=0', false],
    ['*/*', false],
    ['application/json', false],
    ['', false],
  ])('%s → %s', (accept, expected) => {
    expect(prefersHtml(accept)).toBe(expected);
  });
});

describe('without a build', () => {
  test('the API is served alone', async () => {
    const t = await buildTestApp({ env: { WEB_DIST_DIR: join(tmpdir(), 'no-such-web-build') } });
    try {
      expect((await t.app.inject({ method: 'GET', url: '/' })).statusCode).toBe(404);
      // Without the app there is no page to show: a browser gets the JSON 404 too.
      const page = await t.app.inject({ method: 'GET', url: '/xyz', headers: { accept: 'text/html' } });
      expect(page.headers['content-type']).toMatch(/^application\/json/);
      expect((await t.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});
