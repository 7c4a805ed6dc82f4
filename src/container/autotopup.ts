import type { AlertPort } from '../domain/alerts/ports.js';
import { createAutoTopUpService } from '../domain/autotopup/autotopup.service.js';
import type { Catalog } from './catalog.js';
import type { Events } from './events.js';
import type { Infrastructure } from './infrastructure.js';
import type { Orders } from './orders.js';

/**
 * Auto top-up from the wallet (issue 31 L5): its trigger observes eSIM changes (after the partner
 * events' observer), its job buys through the order service.
 */
export function buildAutoTopUp(
  infra: Infrastructure,
  areas: { events: Events; catalog: Catalog; orders: Orders },
) {
  const { config, db, clock, queue, log, jobHandlers } = infra;
  // TODO(alerts): replace with the traveller alerts service (src/domain/alerts/) when it is
  // merged; until then outcomes of the account's own eSIMs are told to nobody. Tests swap `send`.
  const travellerAlerts: AlertPort = { send: async () => undefined };
  const autoTopUp = createAutoTopUpService({
    db,
    clock,
    queue,
    log,
    orders: areas.orders.orders,
    findActivePlan: areas.catalog.catalog.findActivePlan,
    outbox: areas.events.outbox,
    // Through the holder, so the port can be replaced on a built container.
    alerts: { send: (...args) => travellerAlerts.send(...args) },
    publicBaseUrl: config.publicBaseUrl,
  });
  areas.events.esimChanges.observe(autoTopUp.esimChanged);
  autoTopUp.registerJobs(jobHandlers);
  return { autoTopUp, travellerAlerts };
}
export type AutoTopUp = ReturnType<typeof buildAutoTopUp>;
