import type { FastifyInstance } from 'fastify';

/** Sandbox hosted pages, one line per provider. */
export async function registerSandboxRoutes(_app: FastifyInstance): Promise<void> {}
