import type { FastifyInstance } from 'fastify';

/** Every operator API route module, one line each. */
export async function registerAdminRoutes(_app: FastifyInstance): Promise<void> {}
