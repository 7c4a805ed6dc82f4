import { createAccountDetail } from '../domain/accounts/account-detail.js';
import { createDataExport } from '../domain/accounts/data-export.js';
import { createReceiptService } from '../domain/receipts/receipts.service.js';
import { createOrderService } from '../domain/orders/orders.service.js';
import { registerOrderJobs } from '../domain/orders/order-jobs.js';
import { createOrderAdmin } from '../domain/orders/order-admin.js';
import { createSelfCancel, registerSelfCancelJob } from '../domain/orders/self-cancel.js';
import { createTestModeService } from '../domain/testmode/testmode.service.js';
import type { Infrastructure } from './infrastructure.js';
import type { Events } from './events.js';
import type { Accounts } from './accounts.js';
import type { EsimProviders } from './esim.js';
import type { Catalog } from './catalog.js';
import type { Payments } from './payments.js';
import type { Push } from './push.js';

/** Orders, fulfillment and their jobs, self-service cancel, operator order actions, test mode, the data export, receipts. */
export function buildOrders(
  infra: Infrastructure,
  areas: {
    events: Events;
    esim: EsimProviders;
    catalog: Catalog;
    accounts: Accounts;
    payments: Payments;
    push: Push['push'];
  },
) {
  const { config, db, clock, queue, log, metrics, audit, mailer, jobHandlers, startupTasks } = infra;
  const { partnerEvents, esimChanges, providerNotifications, receipts } = areas.events;
  const { support, legal } = areas.accounts;
  const { payments } = areas.payments;
  const orderDeps = {
    db,
    clock,
    queue,
    providers: areas.esim.providers,
    mailer,
    receipts: receipts.scheduler,
    log,
    metrics,
    findActivePlan: areas.catalog.catalog.findActivePlan,
    support,
    payments,
    events: partnerEvents,
    esimChanges,
    settings: {
      publicBaseUrl: config.publicBaseUrl,
      supportEmail: config.supportEmail,
      usageCacheSeconds: config.usageCacheSeconds,
      poll: { ratePerSecond: config.esimPoll.ratePerSecond, batch: config.esimPoll.batch },
      fulfillmentMaxAttempts: config.fulfillment.maxAttempts,
      fulfillmentRetryBaseSeconds: config.fulfillment.retryBaseSeconds,
    },
  };
  const orders = createOrderService(orderDeps);
  // Self-service cancel and refund (issue 31 L4), and its safety-net job.
  const orderCancels = createSelfCancel({
    ...orderDeps,
    audit,
    repository: orders.repository,
    selfCancel: {
      windowDays: config.selfRefunds.windowDays,
      per30Days: config.selfRefunds.per30Days,
      supportEmail: config.supportEmail,
      publicBaseUrl: config.publicBaseUrl,
    },
  });
  registerSelfCancelJob(jobHandlers, orderCancels);
  const orderAdmin = createOrderAdmin({ db, audit, orders });
  const testMode = createTestModeService({ db, clock, orders, notifications: providerNotifications });
  // Built here, the first point where every area whose rows it reads exists.
  const dataExport = createDataExport({
    clock,
    accounts: areas.accounts.accounts,
    orders,
    wallet: areas.payments.wallet,
    support,
    devices: areas.accounts.devices,
    messages: { mailsTo: (email) => mailer.allTo(email), pushesOf: (id) => areas.push.listAll(id) },
  });
  // The operator console's account page (issue 33 O2): reads of every area, like the export.
  const accountDetail = createAccountDetail({
    accounts: areas.accounts.accounts,
    sessions: areas.accounts.sessions,
    wallet: areas.payments.wallet,
    orderAdmin,
    orders,
    support,
    partners: areas.accounts.partners,
    catalog: areas.catalog.catalog,
  });
  const orderJobs = registerOrderJobs({
    db,
    handlers: jobHandlers,
    queue,
    clock,
    log,
    orders,
    retryBaseSeconds: config.fulfillment.retryBaseSeconds,
    refreshIntervalMs: config.esimPoll.intervalSeconds * 1000,
    payments,
  });
  providerNotifications.registerJobs(jobHandlers, (orderId) => orders.fulfillment.attempt(orderId, 'job'));
  startupTasks.push(() => orderJobs.scheduleRefresh());
  const purchaseReceipts = createReceiptService({ db, orders: orders.repository, legal, ...areas.catalog });
  return { orders, orderCancels, orderAdmin, testMode, dataExport, accountDetail, purchaseReceipts };
}
export type Orders = ReturnType<typeof buildOrders>;
