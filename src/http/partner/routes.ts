import type { FastifyInstance } from 'fastify';

/** Every Partner API route module, one line each. */
export async function registerPartnerRoutes(_app: FastifyInstance): Promise<void> {}
