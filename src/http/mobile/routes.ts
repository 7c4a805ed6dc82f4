import type { FastifyInstance } from 'fastify';

/** Every Mobile/Web API route module, one line each. */
export async function registerMobileRoutes(_app: FastifyInstance): Promise<void> {}
