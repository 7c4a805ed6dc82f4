import type { FastifyInstance } from 'fastify';
import { registerAdminRoutes } from './routes.js';
import { installErrorHandling } from '../shared/errors.js';
import { installIdempotency } from '../shared/idempotency.js';
import { requireAdminToken } from '../shared/auth.js';
import { documentSecurity } from '../shared/openapi-surfaces.js';

/** Operator API, `/api/admin/v1` (decisions §6). Only registered when ADMIN_TOKEN is set. */
export async function adminSurface(app: FastifyInstance): Promise<void> {
  const adminToken = app.container.config.adminToken!;
  installErrorHandling(app, 'admin');
  installIdempotency(app, 'admin');
  app.addHook('onRoute', documentSecurity('admin'));

  const checkToken = requireAdminToken(adminToken);
  app.addHook('onRequest', async (request) => {
    if (!request.is404) await checkToken(request);
  });

  await registerAdminRoutes(app);
}
