import type { FastifyInstance } from 'fastify';
import { AppError } from '../../domain/errors.js';
import { registerMobileRoutes } from './routes.js';
import { installErrorHandling } from '../shared/errors.js';
import { installIdempotency } from '../shared/idempotency.js';
import { isSameOriginRequest, parseBearer, SESSION_COOKIE } from '../shared/auth.js';
import { documentSecurity } from '../shared/openapi-surfaces.js';

/**
 * Mobile/Web API, `/api/v1`. Session token by `Authorization: Bearer` (native apps) or the
 * session cookie (web app). Each route file registers its own routes; see ./routes.ts.
 */
export async function mobileSurface(app: FastifyInstance): Promise<void> {
  const { sessions, config } = app.container;
  installErrorHandling(app, 'mobile');
  installIdempotency(app, 'mobile');
  // The documents' `security` per route follows `config.auth`, the option the hook below reads.
  app.addHook('onRoute', documentSecurity('mobile'));

  app.addHook('onRequest', async (request) => {
    const mode = request.routeOptions.config.auth ?? 'required';
    if (request.is404 || mode === 'none') return;
    const bearer = parseBearer(request.headers.authorization);
    const cookie = bearer ? undefined : request.cookies[SESSION_COOKIE];
    const token = bearer ?? cookie;
    const resolved = token ? await sessions.resolve(token) : null;
    if (resolved) {
      if (!bearer && !isSameOriginRequest(request.method, request.headers, config.http.trustedOrigins)) {
        // The answer names the origin expected, so a misconfigured PUBLIC_BASE_URL is found (H11).
        throw new AppError('CSRF_REJECTED', 'Cookie-authenticated request from a foreign origin', {
          expectedOrigins: config.http.trustedOrigins,
        });
      }
      request.auth = {
        account: resolved.account,
        sessionId: resolved.sessionId,
        via: bearer ? 'bearer' : 'cookie',
      };
    } else if (mode === 'required') {
      throw new AppError('UNAUTHORIZED', 'Missing, invalid or expired session token');
    }
  });

  await registerMobileRoutes(app);
}
