import type { FastifyInstance } from 'fastify';
import { partnerDestinationsRoutes } from './destinations.routes.js';
import { walletRoutes } from './wallet.routes.js';
import { ordersRoutes } from './orders.routes.js';
import { partnerEsimsRoutes } from './esims.routes.js';
import { testModeRoutes } from './test.routes.js';
import { webhookEndpointsRoutes } from './webhooks.routes.js';
import { eventsRoutes } from './events.routes.js';
import { requestLogRoutes } from './requests.routes.js';
import { statementsRoutes } from './statements.routes.js';

/** Every Partner API route module, one line each. */
export async function registerPartnerRoutes(app: FastifyInstance): Promise<void> {
  await app.register(walletRoutes);
  await app.register(ordersRoutes);
  await app.register(partnerEsimsRoutes);
  await app.register(partnerDestinationsRoutes);
  await app.register(testModeRoutes);
  await app.register(webhookEndpointsRoutes);
  await app.register(eventsRoutes);
  await app.register(requestLogRoutes);
  await app.register(statementsRoutes);
}
