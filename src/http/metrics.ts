import type { FastifyInstance } from 'fastify';
import { AppError } from '../domain/errors.js';
import { safeEqual } from '../lib/crypto.js';
import { parseBearer } from './shared/auth.js';

/**
 * GET /metrics (Prometheus text format), only when METRICS_TOKEN is set: without it the route
 * does not exist (404). Request durations are recorded by route pattern (`/api/v1/orders/:id`,
 * never the raw URL, so ids and query strings do not become label values); requests that match
 * no route share the label `unmatched`.
 */
export function installMetrics(app: FastifyInstance): void {
  const { metrics, config } = app.container;
  const token = config.metricsToken;
  if (!metrics.enabled || !token) return;

  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.observeRequest(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
  });

  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const given = parseBearer(request.headers.authorization);
    if (!given || !safeEqual(given, token))
      throw new AppError('UNAUTHORIZED', 'Missing or invalid metrics token');
    const body = await metrics.registry.metrics();
    return reply.header('cache-control', 'no-store').type(metrics.registry.contentType).send(body);
  });
}
