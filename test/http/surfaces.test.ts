import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, buildTestApp, type TestApp } from '../helpers/app.js';

describe('surfaces, errors and operational endpoints', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('answers /health and /ready', async () => {
    expect((await t.app.inject({ url: '/health' })).json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject({ url: '/ready' });
    expect(ready.statusCode).toBe(200);
  });

  it('echoes a valid X-Request-Id and generates one otherwise', async () => {
    const echoed = await t.app.inject({ url: '/health', headers: { 'x-request-id': 'abc-123' } });
    expect(echoed.headers['x-request-id']).toBe('abc-123');
    const generated = await t.app.inject({
      url: '/health',
      headers: { 'x-request-id': 'bad id with spaces' },
    });
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers unknown routes with 404 in each surface shape', async () => {
    const mobile = await t.app.inject({ url: '/api/v1/does-not-exist' });
    expect(mobile.statusCode).toBe(404);
    expect(mobile.json()).toEqual({ error: 'Bulunamadı.', code: 'NOT_FOUND' });
    const mobileEn = await t.app.inject({
      url: '/api/v1/does-not-exist',
      headers: { 'accept-language': 'en-GB,en;q=0.9' },
    });
    expect(mobileEn.json()).toEqual({ error: 'Not found.', code: 'NOT_FOUND' });
    const partner = await t.app.inject({ url: '/api/public/v1/does-not-exist' });
    expect(partner.statusCode).toBe(404);
    expect(partner.json().error.code).toBe('NOT_FOUND');
    const admin = await t.app.inject({
      url: '/api/admin/v1/does-not-exist',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(admin.statusCode).toBe(404);
    expect(admin.json().error.code).toBe('NOT_FOUND');
  });

  it('serves an OpenAPI document per surface and the docs page', async () => {
    for (const path of [
      '/api/v1/openapi.json',
      '/api/public/v1/openapi.json',
      '/api/admin/v1/openapi.json',
    ]) {
      // The operator contract needs the admin token (issue 10 S5; test/http/security/requests.test.ts).
      const res = await t.app.inject({ url: path, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      expect(res.statusCode).toBe(200);
      expect(res.json().openapi).toBe('3.1.0');
    }
    const docs = await t.app.inject({ url: '/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['content-type']).toContain('text/html');
  });
});

describe('admin surface without ADMIN_TOKEN', () => {
  it('accepts no bearer token (401): only signed-in operators', async () => {
    const t = await buildTestApp({ env: { ADMIN_TOKEN: undefined } });
    try {
      const res = await t.app.inject({
        url: '/api/admin/v1/accounts',
        headers: { authorization: 'Bearer x' },
      });
      expect(res.statusCode).toBe(401);
    } finally {
      await t.close();
    }
  });
});
