import { expect, test } from '@playwright/test';
import { CLIENT_PATHS } from '../../src/lib/client-paths';

const CLIENT_ROUTES = CLIENT_PATHS.map((p) => p.example);

test('every client route answers the app on a direct load, without caching the HTML', async ({ request }) => {
  for (const path of CLIENT_ROUTES) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(200);
    expect(res.headers()['content-type'], path).toMatch(/^text\/html/);
    expect(res.headers()['cache-control'], path).toBe('no-cache');
    expect(await res.text(), path).toContain('<div id="root">');
  }
});

test('hashed assets are immutable and precompressed; unknown paths keep the JSON 404', async ({
  request,
}) => {
  const html = await (await request.get('/')).text();
  const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)![1]!;
  const asset = await request.get(script, { headers: { 'accept-encoding': 'br' } });
  expect(asset.status()).toBe(200);
  expect(asset.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  expect(asset.headers()['content-encoding']).toBe('br');
  const gz = await request.get(script, { headers: { 'accept-encoding': 'gzip' } });
  expect(gz.headers()['content-encoding']).toBe('gzip');

  // The runner's requests name no type (*/*): JSON, also for a path that is no page.
  for (const path of ['/api/v1/nope', '/api/public/v1/nope', '/assets/missing.js', '/not-a-page']) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(404);
    expect(res.headers()['content-type'], path).toMatch(/^application\/json/);
    expect(await res.json(), path).toBeTruthy();
  }
});

test('an unknown page asked for as HTML is the app with 404; API paths stay JSON', async ({ request }) => {
  const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
  for (const path of ['/xyz', '/orders/abc']) {
    const res = await request.get(path, { headers: html });
    expect(res.status(), path).toBe(404);
    expect(res.headers()['content-type'], path).toMatch(/^text\/html/);
    expect(await res.text(), path).toContain('<div id="root">');
  }
  const api = await request.get('/api/v1/nope', { headers: html });
  expect(api.status()).toBe(404);
  expect(api.headers()['content-type']).toMatch(/^application\/json/);
});
