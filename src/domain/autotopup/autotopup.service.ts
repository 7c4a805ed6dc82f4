import type { Db, DbOrTx } from '../../db/client.js';
import type { JobHandlers } from '../../jobs/worker.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { Clock } from '../../lib/clock.js';
import type { Logger } from '../../lib/logger.js';
import type { AlertPort } from '../alerts/ports.js';
import type { SellablePlan } from '../catalog/catalog.service.js';
import type { EventOutbox } from '../events/outbox.js';
import { createIdempotencyStore } from '../idempotency/store.js';
import type { OrderService } from '../orders/orders.service.js';
import type { EsimRow } from '../orders/ports.js';
import { createAutoTopUpAnnouncer } from './announce.js';
import { createAutoTopUpPurchase } from './purchase.js';
import {
  createAutoTopUpSettings,
  DEFAULT_VIEW,
  type AutoTopUpOwner,
  type AutoTopUpPatch,
  type AutoTopUpView,
} from './settings.js';
import { AUTO_TOP_UP_JOB, createAutoTopUpTrigger } from './trigger.js';

export { AUTO_TOP_UP_LIMITS, type AutoTopUpPatch, type AutoTopUpView } from './settings.js';
export { AUTO_TOP_UP_JOB, autoTopUpJobKey } from './trigger.js';

/** An eSIM with its auto top-up settings, as the eSIM endpoints of both APIs answer it. */
export interface EsimWithAutoTopUp {
  esim: EsimRow;
  autoTopUp: AutoTopUpView;
}

/**
 * Auto top-up from the wallet (issue 31 L5; docs/orders.md "Auto top-up"): per-eSIM settings,
 * the trigger (an esimChanges observer), and the purchase job. Outcomes are told through the
 * partner events and the traveller alerts port.
 */
export function createAutoTopUpService(deps: {
  db: Db;
  clock: Clock;
  queue: JobQueue;
  log: Logger;
  orders: OrderService;
  findActivePlan: (db: DbOrTx, planId: string) => Promise<SellablePlan | null>;
  outbox: EventOutbox;
  alerts: AlertPort;
  publicBaseUrl: string;
}) {
  const { db, clock, orders } = deps;
  const settings = createAutoTopUpSettings(deps);
  const announce = createAutoTopUpAnnouncer(deps);
  const esimChanged = createAutoTopUpTrigger({ clock, queue: deps.queue, announce });
  const purchase = createAutoTopUpPurchase({
    db,
    clock,
    log: deps.log,
    orders,
    findActivePlan: deps.findActivePlan,
    idempotency: createIdempotencyStore({ db, clock }),
    announce,
    rearm: esimChanged,
  });

  async function withSettings(list: EsimRow[]): Promise<EsimWithAutoTopUp[]> {
    const views = await settings.viewsOf(list.map((e) => e.id));
    return list.map((esim) => ({ esim, autoTopUp: views.get(esim.id) ?? DEFAULT_VIEW }));
  }

  return {
    /** The esimChanges observer: register it once (the container does). */
    esimChanged,

    registerJobs(handlers: JobHandlers): void {
      handlers[AUTO_TOP_UP_JOB] = purchase.handler;
    },

    /** Settings of many eSIMs (lists); the defaults, disabled, for an eSIM never configured. */
    withSettings,

    /** One of the owner's eSIMs with fresh usage and its settings; ESIM_NOT_FOUND otherwise. */
    async get(owner: AutoTopUpOwner, iccid: string): Promise<EsimWithAutoTopUp> {
      const esim = await orders.getOwnEsim(owner, iccid);
      return { esim, autoTopUp: await settings.viewOf(esim.id) };
    },

    /**
     * Changes the settings of one of the owner's eSIMs: VALIDATION_ERROR for a value out of range
     * or a plan that cannot top it up, INVALID_STATE to enable it on an expired or cancelled eSIM.
     */
    async update(owner: AutoTopUpOwner, iccid: string, patch: AutoTopUpPatch): Promise<EsimWithAutoTopUp> {
      const esim = await settings.ownEsim(owner, iccid);
      return { esim, autoTopUp: await settings.update(esim, patch) };
    },
  };
}

export type AutoTopUpService = ReturnType<typeof createAutoTopUpService>;
