import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsImport from 'ajv-formats';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, buildTestApp, type TestApp } from '../helpers/app.js';
import { registerViaApi } from '../helpers/accounts.js';
import { createUser } from '../helpers/factories.js';

/**
 * Issue 28 H14: every status and header the service sends is in its OpenAPI document. The test
 * walks the three documents and, for every operation, sends the error cases any route can meet
 * (no or an unknown credential, a body that is not JSON, a body over the limit, a body of the
 * wrong shape, an unknown id), plus the named cases below, and validates each answer against the
 * document: the status is documented, the body matches its schema (Ajv, JSON Schema 2020-12 as
 * OpenAPI 3.1 uses it), and every service header it carries is documented for that status.
 */

type Json = Record<string, unknown>;
type Doc = { paths: Record<string, Record<string, Json>>; components: { headers: Record<string, Json> } };

const addFormats = addFormatsImport as unknown as (ajv: Ajv2020) => void;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const DOCS = {
  mobile: '/api/v1/openapi.json',
  partner: '/api/public/v1/openapi.json',
  admin: '/api/admin/v1/openapi.json',
} as const;
type Surface = keyof typeof DOCS;

/**
 * Headers the service itself decides, to be documented per status. The rest are HTTP's own
 * (content-type, date, vary, …) or the same hardening headers on every answer.
 */
const SERVICE_HEADER = /^(x-|retry-after$|www-authenticate$|etag$|link$|location$|idempotency-)/;
const HARDENING = new Set(['x-content-type-options', 'x-frame-options', 'x-dns-prefetch-control']);

describe('every answer is in the OpenAPI document (issue 28 H14)', () => {
  let t: TestApp;
  const docs = {} as Record<Surface, Doc>;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const credentials = {} as Record<Surface, Record<string, string>>;
  const checked: string[] = [];
  let testKey: Record<string, string>;

  beforeAll(async () => {
    t = await buildTestApp({ env: { AUTH_RATE_LIMIT: '100000' } });
    for (const [surface, url] of Object.entries(DOCS) as Array<[Surface, string]>) {
      const headers = surface === 'admin' ? { authorization: `Bearer ${ADMIN_TOKEN}` } : {};
      const doc = (await t.app.inject({ url, headers })).json<Doc>();
      docs[surface] = doc;
      ajv.addSchema(doc, surface);
    }
    const user = await registerViaApi(t.app);
    const partner = await createUser(t.container, { balanceCents: 1000 });
    const { key } = await t.container.apiKeys.generate(partner.id);
    credentials.mobile = user.auth;
    credentials.partner = { authorization: `Bearer ${key}` };
    credentials.admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
    // The test helpers (/test/…) answer only test keys.
    const tester = await createUser(t.container);
    testKey = { authorization: `Bearer ${(await t.container.apiKeys.generate(tester.id, 'test')).key}` };
  });
  afterAll(() => t.close());

  const pointer = (...parts: string[]) =>
    parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

  /** Validates one answer against operation `method path` of `surface`'s document. */
  function expectDocumented(
    surface: Surface,
    path: string,
    method: string,
    res: LightMyRequestResponse,
    label: string,
  ): void {
    const where = `${label}: ${method.toUpperCase()} ${path} → ${res.statusCode}`;
    checked.push(where);
    const operation = docs[surface].paths[path]![method]!;
    const responses = operation.responses as Record<string, Json>;
    const status = String(res.statusCode);
    expect(Object.keys(responses), `${where}: status not documented`).toContain(status);
    const response = responses[status]!;
    const content = response.content as Record<string, Json> | undefined;
    if (content?.['application/json'] && res.body.length > 0) {
      expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
      const validate = ajv.getSchema(
        `${surface}#/${pointer('paths', path, method, 'responses', status, 'content', 'application/json', 'schema')}`,
      )!;
      expect(validate(res.json()), `${where}: body ${res.body} ${ajv.errorsText(validate.errors)}`).toBe(
        true,
      );
    }
    const documented = Object.fromEntries(
      Object.entries((response.headers ?? {}) as Record<string, Json>).map(([name, h]) => [
        name.toLowerCase(),
        h,
      ]),
    );
    for (const [name, value] of Object.entries(res.headers)) {
      if (!SERVICE_HEADER.test(name) || HARDENING.has(name)) continue;
      expect(documented, `${where}: header ${name} not documented`).toHaveProperty([name]);
      const $ref = documented[name]!.$ref;
      const ref = (typeof $ref === 'string' ? $ref : '').replace('#/components/headers/', '');
      const schema = (docs[surface].components.headers[ref]?.schema ?? documented[name]!.schema) as Json;
      if (schema?.type === 'integer') expect(String(value), `${where}: ${name}`).toMatch(/^\d+$/);
      if (Array.isArray(schema?.enum)) expect(schema.enum, `${where}: ${name}`).toContain(String(value));
    }
  }

  /** The path with each `{param}` filled in with a well-formed value that names nothing. */
  const concrete = (path: string) => path.replace(/\{[^}]+\}/g, 'unknown0000');

  function operationsOf(surface: Surface): Array<{ path: string; method: string; op: Json }> {
    return Object.entries(docs[surface].paths).flatMap(([path, item]) =>
      METHODS.filter((m) => item[m]).map((method) => ({ path, method, op: item[method]! })),
    );
  }

  const send = (options: InjectOptions) => t.app.inject(options);

  for (const surface of Object.keys(DOCS) as Surface[]) {
    it(`${surface}: the generic error cases of every operation`, async () => {
      for (const { path, method, op } of operationsOf(surface)) {
        const url = concrete(path);
        const m = method.toUpperCase() as InjectOptions['method'];
        const security = (op.security ?? []) as Json[];
        const needsAuth = security.length > 0 && !security.some((s) => Object.keys(s).length === 0);
        if (needsAuth) {
          expectDocumented(surface, path, method, await send({ method: m, url }), 'no credential');
          if (surface === 'partner') {
            // A key that names a mode but is unknown: 401 with x-livemode and WWW-Authenticate.
            const res = await send({
              method: m,
              url,
              headers: { 'x-api-key': 'svc_test_sk_unknown0000000000' },
            });
            expect(res.statusCode).toBe(401);
            expect(res.headers['x-livemode']).toBe('false');
            expectDocumented(surface, path, method, res, 'unknown key');
          }
        }
        const auth = surface === 'partner' && path.includes('/test/') ? testKey : credentials[surface];
        if (op.requestBody) {
          const xml = await send({
            method: m,
            url,
            headers: { ...auth, 'content-type': 'application/xml' },
            payload: '<order/>',
          });
          expect(xml.statusCode, `${method} ${path} xml`).toBe(415);
          expectDocumented(surface, path, method, xml, 'not JSON');
          const huge = await send({
            method: m,
            url,
            headers: { ...auth, 'content-type': 'application/json' },
            payload: JSON.stringify({ padding: 'x'.repeat(3 * 1024 * 1024) }),
          });
          expect(huge.statusCode, `${method} ${path} huge`).toBe(413);
          expectDocumented(surface, path, method, huge, 'body over the limit');
          const shape = await send({ method: m, url, headers: auth, payload: [1, 2, 3] });
          expect(shape.statusCode, `${method} ${path} array body`).toBeGreaterThanOrEqual(400);
          expectDocumented(surface, path, method, shape, 'body of the wrong shape');
        }
        if (method === 'get' && path.includes('{')) {
          expectDocumented(surface, path, method, await send({ url, headers: auth }), 'unknown id');
        }
      }
    });
  }

  it('named cases: login and reset failures, the Partner 401, an order over the limit', async () => {
    const user = await registerViaApi(t.app);
    const wrong = await send({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: user.email, password: 'not the password' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers['x-ratelimit-limit']).toBeDefined();
    expectDocumented('mobile', '/api/v1/auth/login', 'post', wrong, 'wrong password');

    const reset = await send({
      method: 'POST',
      url: '/api/v1/auth/reset-password',
      payload: { token: 'not-a-token', newPassword: 'a long new password' },
    });
    expect(reset.statusCode).toBe(400);
    expectDocumented('mobile', '/api/v1/auth/reset-password', 'post', reset, 'bogus reset token');

    const noKey = await send({ url: '/api/public/v1/wallet' });
    expect(noKey.headers['www-authenticate']).toBe('Bearer realm="partner"');
    expectDocumented('partner', '/api/public/v1/wallet', 'get', noKey, 'no key');

    const order = await send({
      method: 'POST',
      url: '/api/public/v1/orders',
      headers: { ...credentials.partner, 'content-type': 'text/xml' },
      payload: '<order/>',
    });
    expect(order.statusCode).toBe(415);
    expectDocumented('partner', '/api/public/v1/orders', 'post', order, 'order not JSON');

    // The walk above really ran: every surface, and many answers.
    expect(checked.length).toBeGreaterThan(100);
  });
});
