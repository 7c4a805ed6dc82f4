import type { FastifyInstance } from 'fastify';
import { AppError } from '../../domain/errors.js';
import { registerPartnerRoutes } from './routes.js';
import { installErrorHandling } from '../shared/errors.js';
import { parseBearer } from '../shared/auth.js';
import { installPartnerRateLimit } from './rate-limit.js';

/**
 * Partner API, `/api/public/v1`. API key by `Authorization: Bearer` or `X-API-Key`; session
 * tokens and cookies are never accepted. The account is re-read on every request, so a
 * regenerated key or a suspension takes effect at once on every instance.
 */
export async function partnerSurface(app: FastifyInstance): Promise<void> {
  const { apiKeys } = app.container;
  installErrorHandling(app, 'partner');

  app.addHook('onRequest', async (request) => {
    if (request.is404) return;
    const headerKey = request.headers['x-api-key'];
    const key =
      (typeof headerKey === 'string' ? headerKey.trim() : undefined) ||
      parseBearer(request.headers.authorization);
    const account = key ? await apiKeys.authenticate(key) : null;
    if (!account) throw new AppError('UNAUTHORIZED', 'Missing or invalid API key');
    request.partner = account;
  });
  // After the key check: budgets are per account (see rate-limit.ts).
  await installPartnerRateLimit(app);

  await registerPartnerRoutes(app);
}
