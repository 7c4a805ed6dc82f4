import type { FastifyInstance } from 'fastify';
import { destinationsRoutes } from './destinations.routes.js';
import { paymentsRoutes } from './payments.routes.js';
import { walletRoutes } from './wallet.routes.js';
import { supportRoutes } from './support.routes.js';
import { devicesRoutes } from './devices.routes.js';
import { authRoutes } from './auth.routes.js';
import { accountRoutes } from './account.routes.js';
import { checkoutRoutes } from './checkout.routes.js';
import { ordersRoutes } from './orders.routes.js';
import { esimsRoutes } from './esims.routes.js';
import { exportRoutes } from './export.routes.js';
import { installRoutes } from './install.routes.js';
import { createAccountLimits } from './account-limits.js';
import { contactRoutes } from './contact.routes.js';
import { legalRoutes } from './legal.routes.js';
import { receiptsRoutes } from './receipts.routes.js';
import { partnersRoutes } from './partners/index.js';

/** Every Mobile/Web API route module, one line each. */
export async function registerMobileRoutes(app: FastifyInstance): Promise<void> {
  const limits = await createAccountLimits(app);
  await app.register(supportRoutes, { limits });
  await app.register(devicesRoutes);
  await app.register(authRoutes);
  await app.register(accountRoutes);
  await app.register(paymentsRoutes, { limits });
  await app.register(walletRoutes);
  await app.register(checkoutRoutes, { limits });
  await app.register(ordersRoutes);
  await app.register(receiptsRoutes);
  await app.register(esimsRoutes);
  await app.register(exportRoutes);
  await app.register(installRoutes);
  await app.register(destinationsRoutes);
  await app.register(legalRoutes);
  await app.register(contactRoutes);
  await app.register(partnersRoutes);
}
