import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenText } from '../../../src/http/shared/web-security.js';
import { CLIENT_ROUTES } from '../../../src/http/web.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { registerViaApi } from '../../helpers/accounts.js';
import { importCatalog } from '../../helpers/catalog.js';

/** Issue 28: H10 (CSP and frame protection of the web app and /docs) and H11 (first-run origins). */

let dir: string;
/** PUBLIC_BASE_URL unset, as on a first run. */
let t: TestApp;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'web-dist-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><html><head><script type="module" src="/assets/app.js"></script></head><body></body></html>',
  );
  t = await buildTestApp({ env: { WEB_DIST_DIR: dir, PUBLIC_BASE_URL: '' } });
  // `/destinations/TR` is rendered from the catalog (404 for a destination it does not sell).
  await importCatalog(t.container);
}, 120_000);
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The policy's directives by name. */
function directives(csp: string | undefined): Map<string, string[]> {
  expect(csp).toBeTypeOf('string');
  return new Map(
    csp!
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

describe('H10: the web app and /docs send a Content-Security-Policy and frame protection', () => {
  it('every client route: own origin only, data: images, no framing, no inline script', async () => {
    for (const route of CLIENT_ROUTES) {
      const res = await t.app.inject({ url: route.replace(':code', 'TR') });
      expect(res.statusCode, route).toBe(200);
      expect(res.headers['x-frame-options'], route).toBe('DENY');
      const csp = directives(res.headers['content-security-policy']);
      expect(csp.get('default-src')).toEqual(["'self'"]);
      expect(csp.get('script-src')).toEqual(["'self'"]);
      expect(csp.get('style-src')).toEqual(["'self'"]);
      expect(csp.get('connect-src')).toEqual(["'self'"]);
      expect(csp.get('img-src')).toContain('data:');
      expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
      expect(csp.get('object-src')).toEqual(["'none'"]);
      expect(res.headers['content-security-policy']).not.toMatch(/unsafe-|\*|https:/);
    }
  });

  it('the web app source has no inline script (the built index.html is made from it)', () => {
    const html = readFileSync(new URL('../../../web/index.html', import.meta.url), 'utf8');
    const inline = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].filter(
      ([, attrs, body]) => !/\bsrc=/.test(attrs!) || body!.trim() !== '',
    );
    expect(inline).toEqual([]);
    expect(html).not.toMatch(/\son[a-z]+=/i);
  });

  it('/docs: a policy that lets Scalar run, its inline script allowed by hash only', async () => {
    const res = await t.app.inject({ url: '/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-frame-options']).toBe('DENY');
    const csp = directives(res.headers['content-security-policy']);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    const scripts = csp.get('script-src')!;
    expect(scripts).not.toContain("'unsafe-inline'");
    const inline = [...res.body.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)]
      .map((m) => m[1]!)
      .filter((body) => body.trim() !== '');
    expect(inline.length).toBeGreaterThan(0);
    for (const body of inline)
      expect(scripts).toContain(`'sha256-${createHash('sha256').update(body).digest('base64')}'`);
  });

  it('JSON answers need no page policy', async () => {
    const res = await t.app.inject({ url: '/api/v1/destinations' });
    expect(res.headers['content-security-policy']).toBeUndefined();
  });
});

describe('H11: the first run works at the address the log prints', () => {
  const logout = (app: TestApp, cookie: string, origin: string) =>
    app.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: { cookie, origin } });

  it('PUBLIC_BASE_URL unset: every loopback spelling of the port is the web app origin', async () => {
    for (const origin of ['http://127.0.0.1:3000', 'http://localhost:3000', 'http://[::1]:3000']) {
      const user = await registerViaApi(t.app);
      const res = await logout(t, `svc_session=${user.token}`, origin);
      expect(res.statusCode, origin).toBe(200);
    }
    const user = await registerViaApi(t.app);
    for (const origin of ['http://127.0.0.1:3001', 'https://localhost:3000', 'http://evil.example']) {
      const res = await logout(t, `svc_session=${user.token}`, origin);
      expect(res.statusCode, origin).toBe(403);
    }
  });

  it('PUBLIC_BASE_URL set: only its origin, and the 403 names it', async () => {
    const shop = await buildTestApp({ shareWith: t, env: { PUBLIC_BASE_URL: 'https://shop.example' } });
    try {
      const user = await registerViaApi(shop.app);
      const cookie = `svc_session=${user.token}`;
      const wrong = await shop.app.inject({
        method: 'POST',
        url: '/api/v1/auth/logout',
        headers: { cookie, origin: 'http://localhost:3000', 'accept-language': 'en' },
      });
      expect(wrong.statusCode).toBe(403);
      expect(wrong.json()).toEqual({ error: expect.any(String), code: 'CSRF_REJECTED' });
      expect(wrong.json().error).toContain('https://shop.example');
      expect((await logout(shop, cookie, 'https://shop.example')).statusCode).toBe(200);
    } finally {
      await shop.app.close();
    }
  });

  it('prints the address to open', () => {
    expect(listenText(t.config)('http://127.0.0.1:3000')).toContain('http://127.0.0.1:3000');
    const shop = { ...t.config, publicBaseUrl: 'https://shop.example' };
    const text = listenText({ ...shop, http: { ...shop.http, trustedOrigins: ['https://shop.example'] } })(
      'http://127.0.0.1:3000',
    );
    expect(text).toContain('open https://shop.example');
  });
});
