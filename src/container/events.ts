import type { PushPort } from '../domain/alerts/ports.js';
import { createAlertService } from '../domain/alerts/alerts.service.js';
import { createEsimChanges } from '../domain/events/esim-changes.js';
import { createEsimMilestones } from '../domain/events/esim-milestones.js';
import { deliveriesOfEvent } from '../domain/events/event-deliveries.repository.js';
import { createEventOutbox } from '../domain/events/outbox.js';
import { createPartnerEvents } from '../domain/events/partner-events.js';
import { createProviderNotifications } from '../domain/events/provider-notifications.js';
import { createReceipts } from '../domain/mail/receipts.js';
import type { Infrastructure } from './infrastructure.js';

/**
 * Partner events and traveller alerts: the outbox, the typed emitters, the alerts (AlertPort), receipts,
 * the observers of eSIM changes and the inbound provider notifications.
 */
export function buildEvents(
  { config, db, clock, queue, log, mailer, jobHandlers, startupTasks }: Infrastructure,
  push: PushPort,
) {
  const outbox = createEventOutbox({ db, clock });
  const partnerEvents = createPartnerEvents({ outbox, publicBaseUrl: config.publicBaseUrl });
  /** Traveller alerts (issue 31 L2): the AlertPort other areas call (support, auto top-up). */
  const alerts = createAlertService({
    db,
    queue,
    push,
    mailer,
    publicBaseUrl: config.publicBaseUrl,
    log,
  });
  alerts.registerJobs(jobHandlers);
  /** Receipt mails, and the "eSIM ready" push that goes with an order's (after commit, by job). */
  const receipts = createReceipts({ db, queue, mailer, alerts, publicBaseUrl: config.publicBaseUrl });
  Object.assign(jobHandlers, receipts.jobs);
  // Areas built later add their observers (auto top-up); partner events and alerts come first.
  const esimChanges = createEsimChanges();
  const esimMilestones = createEsimMilestones({ db, clock, queue, partnerEvents, alerts });
  esimChanges.observe((tx, esimId) => esimMilestones.changed(tx, esimId));
  esimMilestones.registerJobs(jobHandlers);
  startupTasks.push(() => esimMilestones.scheduleScan());
  const providerNotifications = createProviderNotifications({ db, clock, queue, esimChanges });
  /** The dashboard's event detail: the deliveries an event caused (issue 32 C3). */
  const eventDeliveries = (eventId: string) => deliveriesOfEvent(db, eventId);
  return {
    outbox,
    partnerEvents,
    alerts,
    receipts,
    esimChanges,
    esimMilestones,
    providerNotifications,
    eventDeliveries,
  };
}
export type Events = ReturnType<typeof buildEvents>;
