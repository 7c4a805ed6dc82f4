import type { FastifyInstance } from 'fastify';
import { modeOfKey } from '../../domain/accounts/api-keys.js';
import { AppError } from '../../domain/errors.js';
import { registerPartnerRoutes } from './routes.js';
import { installErrorHandling } from '../shared/errors.js';
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
 */
export async function partnerSurface(app: FastifyInstance): Promise<void> {
  const { apiKeys } = app.container;
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
  // After the key check: budgets are per account (see rate-limit.ts).
  await installPartnerRateLimit(app);

  await registerPartnerRoutes(app);
}
