import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { surfaceOf } from '../../../src/http/shared/openapi-surfaces.js';
import { ADMIN_TOKEN, buildTestApp, type TestApp } from '../../helpers/app.js';

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: {
    securitySchemes: Record<string, unknown>;
    schemas: Record<string, unknown>;
    headers: Record<string, unknown>;
  };
  tags: Array<{ name: string; description?: string }>;
  webhooks?: Record<string, Record<string, Operation>>;
};
type Operation = {
  operationId?: string;
  summary?: string;
  security?: Array<Record<string, string[]>>;
  tags?: string[];
  responses: Record<
    string,
    { headers?: Record<string, { $ref: string }>; content?: Record<string, { schema: { $ref?: string } }> }
  >;
};

const SURFACES = {
  mobile: { url: '/api/v1/openapi.json', schemes: ['sessionCookie', 'sessionToken'] },
  partner: { url: '/api/public/v1/openapi.json', schemes: ['apiKey', 'apiKeyHeader'] },
  admin: { url: '/api/admin/v1/openapi.json', schemes: ['adminToken', 'operatorSession'] },
} as const;

function operations(doc: Doc): Array<[string, Operation]> {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]): [string, Operation] => [`${method.toUpperCase()} ${path}`, op]),
  );
}

function refsIn(node: unknown, into: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => refsIn(n, into));
  else if (node && typeof node === 'object') {
    const obj = node as Record<string, unknown>;
    if (typeof obj.$ref === 'string') into.push(obj.$ref);
    Object.values(obj).forEach((v) => refsIn(v, into));
  }
  return into;
}

describe('OpenAPI documents: the contract for code generation', () => {
  let t: TestApp;
  const docs = {} as Record<keyof typeof SURFACES, Doc>;
  const statuses: Record<string, number> = {};
  beforeAll(async () => {
    t = await buildTestApp();
    for (const [name, surface] of Object.entries(SURFACES)) {
      const res = await t.app.inject({
        url: surface.url,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      });
      statuses[name] = res.statusCode;
      if (res.statusCode === 200) docs[name as keyof typeof SURFACES] = res.json();
    }
  });
  afterAll(() => t.close());

  it('serves the three documents', () => {
    expect(statuses).toEqual({ mobile: 200, partner: 200, admin: 200 });
  });

  it('gives every operation the operationId, tags and summary its route states', () => {
    // Route files state these (no table fills them in): a route without them, or an operationId
    // used twice in one document, would reach the generated clients as a nameless or clashing
    // method. Read from the document @fastify/swagger builds from the routes, which the three
    // documents are cut from, so that a broken route is named here rather than failing the cut.
    const full = t.app.swagger() as unknown as Doc;
    const seen = new Map<string, string>();
    let count = 0;
    for (const [key, op] of operations(full)) {
      const surface = surfaceOf(key.split(' ')[1]!);
      if (!surface) continue; // the sandbox pages and inbound webhooks are in no document
      count++;
      const where = `${surface}: ${key}`;
      expect.soft(op.operationId ?? '', `${where} has no operationId`).toMatch(/^[a-z][A-Za-z0-9]+$/);
      const id = `${surface} ${op.operationId}`;
      expect.soft(seen.get(id), `${where} repeats the operationId of ${seen.get(id)}`).toBeUndefined();
      seen.set(id, key);
      expect.soft(op.tags ?? [], `${where} has no tags`).not.toEqual([]);
      expect.soft(op.summary ?? '', `${where} has no summary`).toMatch(/\S/);
    }
    expect(count).toBeGreaterThan(50);
  });

  it('keeps the operationIds the clients are generated from', () => {
    for (const doc of Object.values(docs)) expect(doc.openapi).toBe('3.1.0');
    const partner = Object.fromEntries(operations(docs.partner).map(([key, op]) => [key, op.operationId]));
    expect(partner).toMatchObject({
      'POST /api/public/v1/orders': 'createOrder',
      'GET /api/public/v1/orders': 'listOrders',
      'GET /api/public/v1/orders/{id}': 'getOrder',
      'GET /api/public/v1/destinations': 'listDestinations',
      'GET /api/public/v1/destinations/{code}': 'getDestination',
      'GET /api/public/v1/wallet': 'getWallet',
    });
  });

  it('declares only its own security schemes and applies them per operation', () => {
    for (const [name, surface] of Object.entries(SURFACES)) {
      const doc = docs[name as keyof typeof SURFACES];
      expect(Object.keys(doc.components.securitySchemes).sort()).toEqual([...surface.schemes]);
      for (const [key, op] of operations(doc)) {
        expect(op.security, key).toBeDefined();
        for (const requirement of op.security!) {
          for (const scheme of Object.keys(requirement)) expect(surface.schemes, key).toContain(scheme);
        }
      }
    }
    // Every Partner and operator operation needs its credential, but the console's sign-in.
    for (const doc of [docs.partner, docs.admin]) {
      for (const [key, op] of operations(doc)) {
        if (key === 'DELETE /api/admin/v1/operator/session' || key.includes('/operator/enrolment')) continue;
        if (key === 'POST /api/admin/v1/operator/session') continue;
        expect(op.security!.length, key).toBeGreaterThan(0);
      }
    }
    const mobile = Object.fromEntries(operations(docs.mobile));
    expect(mobile['POST /api/v1/auth/login']!.security).toEqual([]);
    expect(mobile['POST /api/v1/payments/card/webhook']!.security).toEqual([]);
    expect(mobile['GET /api/v1/destinations']!.security).toContainEqual({}); // optional session
    expect(mobile['POST /api/v1/checkout']!.security).toEqual([{ sessionToken: [] }, { sessionCookie: [] }]);
  });

  it('names the shared schemas as components and every $ref resolves', () => {
    expect(Object.keys(docs.partner.components.schemas)).toEqual(
      expect.arrayContaining([
        'Order',
        'OrderSummary',
        'Esim',
        'Plan',
        'Country',
        'Region',
        'Wallet',
        'Error',
      ]),
    );
    expect(Object.keys(docs.mobile.components.schemas)).toEqual(
      expect.arrayContaining(['Order', 'Esim', 'User', 'Error', 'WalletTransaction']),
    );
    const create = docs.partner.paths['/api/public/v1/orders']!.post!;
    expect(create.responses['201']!.content!['application/json']!.schema.$ref).toBe(
      '#/components/schemas/Order',
    );
    expect(create.responses['402']!.content!['application/json']!.schema.$ref).toBe(
      '#/components/schemas/Error',
    );
    for (const doc of Object.values(docs)) {
      // Two different schemas under one title would get a numbered name: there must be none.
      for (const name of Object.keys(doc.components.schemas)) expect(name).not.toMatch(/\d$/);
      for (const ref of refsIn(doc)) {
        const [, section, name] = /^#\/components\/(schemas|headers)\/(.+)$/.exec(ref) ?? [];
        expect(section, ref).toBeDefined();
        expect(doc.components[section as 'schemas' | 'headers'][name!], ref).toBeDefined();
      }
    }
  });

  it('documents the response headers', () => {
    for (const [key, op] of operations(docs.partner)) {
      for (const [status, response] of Object.entries(op.responses)) {
        const headers = Object.keys(response.headers ?? {});
        expect(headers, `${key} ${status}`).toContain('X-Request-Id');
        if (status !== '401') {
          expect(headers, `${key} ${status}`).toEqual(
            expect.arrayContaining([
              'x-livemode',
              'X-RateLimit-Limit',
              'X-RateLimit-Remaining',
              'X-RateLimit-Reset',
            ]),
          );
        }
        if (status === '429') expect(headers).toContain('Retry-After');
      }
    }
    const login = docs.mobile.paths['/api/v1/auth/login']!.post!;
    expect(Object.keys(login.responses['429']!.headers!)).toContain('Retry-After');
    const catalog = docs.partner.paths['/api/public/v1/destinations']!.get!;
    expect(Object.keys(catalog.responses['200']!.headers!)).toContain('ETag');
    // Only the Partner API has live and test keys.
    expect(JSON.stringify(docs.mobile)).not.toContain('x-livemode');
  });

  it('describes the signed event deliveries as OpenAPI webhooks on the Partner API only', () => {
    // One webhook per event type, each with its own named event schema (H13).
    expect(Object.keys(docs.partner.webhooks!)).toEqual([
      'order.completed',
      'order.fulfillment_failed',
      'order.refunded',
      'esim.usage_threshold',
      'esim.expiring',
      'esim.status_changed',
      'esim.auto_topup_succeeded',
      'esim.auto_topup_failed',
      'wallet.topup_succeeded',
      'wallet.low_balance',
      'ping',
    ]);
    const delivery = docs.partner.webhooks!['wallet.low_balance']!.post!;
    expect(delivery.operationId).toBe('receiveWalletLowBalanceEvent');
    expect(JSON.stringify(delivery)).toContain('#/components/schemas/WalletLowBalanceEvent');
    const headers = (delivery as unknown as { parameters: Array<{ name: string }> }).parameters.map(
      (p) => p.name,
    );
    expect(headers).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
    expect(docs.mobile.webhooks).toBeUndefined();
    expect(docs.admin.webhooks).toBeUndefined();
  });

  it('describes every tag it uses', () => {
    for (const doc of Object.values(docs)) {
      const webhookOps = Object.values(doc.webhooks ?? {}).flatMap((item) => Object.values(item));
      const used = new Set(
        [...operations(doc), ...webhookOps.map((op): [string, Operation] => ['', op])].flatMap(
          ([, op]) => op.tags ?? [],
        ),
      );
      expect(doc.tags.map((tag) => tag.name).sort()).toEqual([...used].sort());
      for (const tag of doc.tags) expect(tag.description, tag.name).toBeTruthy();
    }
  });
});
