import type { FastifyInstance } from 'fastify';
import { modeOfKey } from '../../domain/accounts/api-keys.js';
import { AppError } from '../../domain/errors.js';
import { registerPartnerRoutes } from './routes.js';
import { errorCodeOf, installErrorHandling } from '../shared/errors.js';
import { installIdempotency } from '../shared/idempotency.js';
import { partnerKeyOf } from '../shared/auth.js';
import { documentSecurity } from '../shared/openapi-surfaces.js';
import { installPartnerRateLimit } from './rate-limit.js';

/** RFC 9110 §15.5.2: a 401 names the scheme that would work (issue 28 H16). */
const UNAUTHENTICATED = { 'www-authenticate': 'Bearer realm="partner"' };

/**
 * Partner API, `/api/public/v1`. API key by `Authorization: Bearer` or `X-API-Key`; session
 * tokens and cookies are never accepted. The account is re-read on every request, so a
 * regenerated key or a suspension takes effect at once on every instance; the catalogue reads
 * (routes with `config.catalogRead`) reuse a key check for up to a second (CATALOG_KEY_CACHE_MS),
 * so polling the public catalogue costs no query per request.
 *
 * The key's prefix gives the mode (svc_live_sk_ / svc_test_sk_): `request.livemode`, and the
 * `x-livemode: true|false` header on every response whose key names a mode, errors and 401s
 * included (a request without a recognisable key has no mode and gets no header).
 *
 * Every answered request of a known key goes to the request log (GET /requests).
 */
export async function partnerSurface(app: FastifyInstance): Promise<void> {
  const { apiKeys, requestLog, clock } = app.container;
  installErrorHandling(app, 'partner');
  installIdempotency(app, 'partner');
  app.addHook('onRoute', documentSecurity('partner'));

  app.addHook('onRequest', async (request, reply) => {
    const key = partnerKeyOf(request.headers);
    const mode = key ? modeOfKey(key) : null;
    if (mode) {
      request.livemode = mode === 'live';
      reply.header('x-livemode', String(request.livemode));
    }
    if (request.is404) return;
    const account = !key
      ? null
      : request.routeOptions.config.catalogRead
        ? await apiKeys.authenticateForCatalog(key)
        : await apiKeys.authenticate(key);
    if (!account)
      throw new AppError('UNAUTHORIZED', 'Missing or invalid API key', undefined, UNAUTHENTICATED);
    request.partner = account;
  });
  // The request log (issue 32 C3): every call whose key was known, once answered. Only the URL
  // path is kept (no query string, no body); `record` only buffers (src/domain/requestlog).
  // A callback hook, not async: no promise per request on the benchmarked order path.
  app.addHook('onResponse', (request, reply, done) => {
    if (!request.partner) return done();
    const url = request.url;
    const query = url.indexOf('?');
    const idempotencyKey = request.headers['idempotency-key'];
    requestLog.record({
      accountId: request.partner.id,
      livemode: request.livemode,
      createdAt: new Date(clock.now().getTime() - Math.round(reply.elapsedTime)),
      method: request.method,
      route: request.is404 ? null : (request.routeOptions.url ?? null),
      path: query < 0 ? url : url.slice(0, query),
      status: reply.statusCode,
      durationMs: Math.round(reply.elapsedTime),
      requestId: request.id,
      idempotencyKey: typeof idempotencyKey === 'string' ? idempotencyKey.slice(0, 255) : null,
      errorCode: errorCodeOf(request) ?? null,
    });
    done();
  });
  // After the key check: budgets are per account (see rate-limit.ts).
  await installPartnerRateLimit(app);

  await registerPartnerRoutes(app);
}
