import type { FastifyInstance } from 'fastify';
import { requireAdminToken } from './auth.js';
import { finishDocument } from './openapi-contract.js';
import { surfaceOf } from './openapi-surfaces.js';

type OpenApiDoc = {
  info: Record<string, unknown>;
  paths?: Record<string, unknown>;
  [key: string]: unknown;
};

const DOCUMENTS = [
  { path: '/api/v1/openapi.json', prefix: '/api/v1/', title: 'Mobile/Web API' },
  { path: '/api/public/v1/openapi.json', prefix: '/api/public/v1/', title: 'Partner API' },
  { path: '/api/admin/v1/openapi.json', prefix: '/api/admin/v1/', title: 'Operator API' },
] as const;

/**
 * One OpenAPI document per surface, cut from the document @fastify/swagger builds from the
 * route schemas, so validation and documentation cannot drift apart.
 */
export function registerOpenApiDocuments(app: FastifyInstance): void {
  const cache = new Map<string, string>();
  const { adminToken } = app.container.config;
  for (const doc of DOCUMENTS) {
    const operator = doc.prefix === '/api/admin/v1/';
    if (operator && !adminToken) continue;
    // The operator contract is not public (S5): the admin token, checked on the matched route (H4).
    const guard = operator ? { onRequest: requireAdminToken(adminToken!) } : {};
    app.get(doc.path, { schema: { hide: true }, ...guard }, async (_request, reply) => {
      let body = cache.get(doc.path);
      if (!body) {
        const full = app.swagger() as unknown as OpenApiDoc;
        // The surface's paths, security, named components and headers: see ./openapi-contract.ts
        body = JSON.stringify(finishDocument(full, surfaceOf(doc.prefix)!));
        cache.set(doc.path, body);
      }
      return reply.type('application/json; charset=utf-8').send(body);
    });
  }
}
