import type { FastifyInstance } from 'fastify';
import { registerSandboxRoutes } from './routes.js';
import { installErrorHandling } from '../shared/errors.js';

/**
 * Hosted pages of the sandbox payment providers, `/sandbox/...` (decisions §6). Registered only
 * when at least one payment provider is `sandbox`.
 */
export async function sandboxSurface(app: FastifyInstance): Promise<void> {
  installErrorHandling(app, 'partner');
  await registerSandboxRoutes(app);
}
