import type { FastifyInstance, FastifyReply, FastifyRequest, InjectOptions } from 'fastify';
import Fastify from 'fastify';
import { publicOpenApiDocument } from './shared/security.js';
import { docsPolicy, withPageHeaders } from './shared/web-security.js';

/** Response headers of the inner app that the outer reply sets itself. */
const SKIPPED = new Set(['content-length', 'transfer-encoding', 'connection', 'date', 'keep-alive']);

/**
 * The API reference UI (Scalar) at /docs, loaded on the first request under /docs: the package
 * is ~4 MB of JavaScript that costs start-up time and memory in every process otherwise. The
 * first request builds a small Fastify app with the Scalar plugin (same options as before) and
 * every /docs request is answered through it, so pages, documents and redirects are unchanged,
 * and the service's own hooks (security headers, compression) still apply to the answer.
 */
export function registerApiReference(app: FastifyInstance, routePrefix: `/${string}` = '/docs'): void {
  let inner: Promise<FastifyInstance> | undefined;
  const load = () =>
    (inner ??= (async () => {
      const { default: scalar } = await import('@scalar/fastify-api-reference');
      const docs = Fastify({ logger: false });
      await docs.register(scalar, {
        routePrefix,
        // No web fonts from fonts.scalar.com: the page loads nothing from another site (its CSP).
        configuration: { content: () => publicOpenApiDocument(app), withDefaultFonts: false },
      });
      await docs.ready();
      return docs;
    })().catch((err: unknown) => {
      inner = undefined;
      throw err;
    }));

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const docs = await load();
    const res = await docs.inject({
      method: request.method as InjectOptions['method'],
      url: request.url,
      headers: request.headers,
    });
    if (res.statusCode === 404) return reply.callNotFound();
    for (const [name, value] of Object.entries(res.headers)) {
      if (value !== undefined && !SKIPPED.has(name)) reply.header(name, value);
    }
    // The page (not its scripts or documents) gets a policy that allows its own inline script.
    if (String(res.headers['content-type']).startsWith('text/html'))
      withPageHeaders(reply, docsPolicy(app.container.config, res.payload));
    return reply.code(res.statusCode).send(res.rawPayload);
  };
  app.get(routePrefix, { schema: { hide: true } }, handler);
  app.get(`${routePrefix}/*`, { schema: { hide: true } }, handler);
}
