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
  // The traveller alerts (src/domain/alerts/) behind a holder of our own, so a test can swap what
  // auto top-up tells travellers without touching the other areas' alerts.
  const { alerts } = areas.events;
  const travellerAlerts: AlertPort = { send: (...args) => alerts.send(...args) };
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
