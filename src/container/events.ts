import { createEsimChanges } from '../domain/events/esim-changes.js';
import { createEventOutbox } from '../domain/events/outbox.js';
import { createPartnerEvents } from '../domain/events/partner-events.js';
import { createProviderNotifications } from '../domain/events/provider-notifications.js';
import type { Infrastructure } from './infrastructure.js';

/**
 * Partner events: the outbox, the typed emitters, the observers of eSIM changes and the inbound
 * provider notifications.
 */
export function buildEvents({ config, db, clock, queue }: Infrastructure) {
  const outbox = createEventOutbox({ db, clock });
  const partnerEvents = createPartnerEvents({ outbox, publicBaseUrl: config.publicBaseUrl });
  // Areas built later add their observers (alerts, auto top-up); partner events come first.
  const esimChanges = createEsimChanges();
  esimChanges.observe((tx, esimId) => partnerEvents.usageChanged(tx, esimId));
  const providerNotifications = createProviderNotifications({ db, clock, queue, esimChanges });
  return { outbox, partnerEvents, esimChanges, providerNotifications };
}
export type Events = ReturnType<typeof buildEvents>;
