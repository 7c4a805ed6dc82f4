import type { FastifyInstance } from 'fastify';
import { sandboxCardRoutes } from './card.routes.js';
import { sandboxCryptoRoutes } from './crypto.routes.js';

/** Sandbox hosted pages, one line per provider. */
export async function registerSandboxRoutes(app: FastifyInstance): Promise<void> {
  await app.register(sandboxCardRoutes);
  await app.register(sandboxCryptoRoutes);
}
