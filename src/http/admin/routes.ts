import type { FastifyInstance } from 'fastify';
import { adminCatalogRoutes } from './catalog.routes.js';
import { adminWalletRoutes } from './wallet.routes.js';
import { adminSupportRoutes } from './support.routes.js';
import { adminTicketConsoleRoutes } from './ticket-console.routes.js';
import { auditRoutes } from './audit.routes.js';
import { adminAccountRoutes } from './accounts.routes.js';
import { adminAccountDetailRoutes } from './account-detail.routes.js';
import { adminMailRoutes } from './mail.routes.js';
import { adminPushRoutes } from './push.routes.js';
import { adminOrdersRoutes } from './orders.routes.js';
import { adminOrderListRoutes } from './order-list.routes.js';
import { adminOrderTimelineRoutes } from './order-timeline.routes.js';
import { adminReconcileRoutes } from './reconcile.routes.js';
import { adminSandboxEsimRoutes } from './sandbox-esim.routes.js';
import { adminJobsRoutes } from './jobs.routes.js';
import { adminPaymentsRoutes } from './payments.routes.js';
import { adminPricingRoutes } from './pricing.routes.js';
import { adminSearchRoutes } from './search.routes.js';
import { adminOverviewRoutes } from './overview.routes.js';
import { operatorSessionRoutes } from './operator-session.routes.js';
import { adminOperatorsRoutes } from './operators.routes.js';

/** Every operator API route module, one line each. */
export async function registerAdminRoutes(app: FastifyInstance): Promise<void> {
  await app.register(adminSupportRoutes);
  await app.register(adminTicketConsoleRoutes);
  await app.register(auditRoutes);
  await app.register(adminAccountRoutes);
  await app.register(adminAccountDetailRoutes);
  await app.register(adminMailRoutes);
  await app.register(adminPushRoutes);
  await app.register(adminWalletRoutes);
  await app.register(adminOrdersRoutes);
  await app.register(adminOrderListRoutes);
  await app.register(adminOrderTimelineRoutes);
  await app.register(adminReconcileRoutes);
  await app.register(adminSandboxEsimRoutes);
  await app.register(adminCatalogRoutes);
  await app.register(adminJobsRoutes);
  await app.register(adminPaymentsRoutes);
  await app.register(adminPricingRoutes);
  await app.register(adminSearchRoutes);
  await app.register(adminOverviewRoutes);
  await app.register(operatorSessionRoutes);
  await app.register(adminOperatorsRoutes);
}
