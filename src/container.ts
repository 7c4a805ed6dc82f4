import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config/index.js';
import type { Database } from './db/client.js';
import { createAuditService } from './domain/audit/audit.service.js';
import { createExchangeRateService } from './domain/catalog/exchange-rates.js';
import { createCatalogService } from './domain/catalog/catalog.service.js';
import { warmSearchIndex } from './domain/catalog/destinations.js';
import { createApiKeyService } from './domain/accounts/api-keys.js';
import { createAccountService } from './domain/accounts/accounts.service.js';
import { PASSWORD_RESET_JOB } from './domain/accounts/password-reset.js';
import { createMailer } from './domain/mail/mailer.js';
import { createReceipts } from './domain/mail/receipts.js';
import { createSupportService } from './domain/support/support.service.js';
import { createDevicesService } from './domain/devices/devices.service.js';
import { createSessionService } from './domain/sessions/sessions.service.js';
import { createOrderService } from './domain/orders/orders.service.js';
import { registerOrderJobs } from './domain/orders/order-jobs.js';
import { createOrderAdmin } from './domain/orders/order-admin.js';
import { createEsimProvider } from './providers/esim/registry.js';
import { createTestModeEsimProvider } from './domain/testmode/test-provider.js';
import { createTestModeService } from './domain/testmode/testmode.service.js';
import { createPaymentProviders } from './providers/payments/registry.js';
import { createPaymentsService } from './domain/payments/payments.service.js';
import { createWalletService } from './domain/wallet/wallet.service.js';
import { createEventOutbox } from './domain/events/outbox.js';
import { createPartnerEvents } from './domain/events/partner-events.js';
import { createProviderNotifications } from './domain/events/provider-notifications.js';
import { createWebhooksService } from './domain/webhooks/webhooks.service.js';
import type { Resolver } from './domain/webhooks/ssrf.js';
import type { WebhookTransport } from './domain/webhooks/transport.js';
import { createJobQueue } from './jobs/queue.js';
import { createDeadLetter } from './jobs/dead-letter.js';
import { createMaintenance } from './domain/ops/maintenance.js';
import { registerServiceMetrics } from './domain/ops/service-metrics.js';
import { createMetrics } from './lib/metrics.js';
import { createWorker, type JobHandlers } from './jobs/worker.js';
import type { Clock } from './lib/clock.js';
import { createRedis } from './lib/redis.js';

export interface ContainerDeps {
  config: Readonly<Config>;
  database: Database;
  clock: Clock;
  log: FastifyBaseLogger;
}

/**
 * Composition root: one line per area. Domain services get narrow dependencies, never the
 * container itself, so tests can build any one of them with stubs.
 */
export function createContainer(deps: ContainerDeps) {
  const { config, database, clock, log } = deps;
  const db = database.db;

  const queue = createJobQueue({ db, clock });
  /** Partner events: the outbox, the typed emitters and the inbound provider notifications. */
  const outbox = createEventOutbox({ db, queue, clock });
  const partnerEvents = createPartnerEvents({ outbox, publicBaseUrl: config.publicBaseUrl });
  const providerNotifications = createProviderNotifications({ db, clock, queue, events: partnerEvents });
  /** Prometheus metrics (GET /metrics); no-ops unless METRICS_TOKEN is set. */
  const metrics = createMetrics({ enabled: config.metricsToken !== undefined });
  registerServiceMetrics(metrics, { database, clock });
  const mailer = createMailer({
    db,
    clock,
    transport: config.mail.transport,
    smtpUrl: config.mail.smtpUrl,
    from: config.mail.from,
    onDeliveryError: (error, id) => log.warn({ mailId: id, err: error.message }, 'mail delivery failed'),
  });
  const receipts = createReceipts({ db, queue, mailer, publicBaseUrl: config.publicBaseUrl });
  const sessions = createSessionService({ db, clock });
  const apiKeys = createApiKeyService({ db, clock });
  const audit = createAuditService({ db, clock });
  const deadLetter = createDeadLetter({ db, clock, audit });
  const accounts = createAccountService({
    db,
    clock,
    sessions,
    apiKeys,
    mailer,
    audit,
    queue,
    publicBaseUrl: config.publicBaseUrl,
  });
  const exchangeRates = createExchangeRateService({ db, clock });
  const support = createSupportService({
    db,
    clock,
    mailer,
    audit,
    supportEmail: config.supportEmail,
    onMailError: (error) => log.warn({ err: String(error) }, 'support mail could not be recorded'),
  });
  const devices = createDevicesService({ db, clock });
  const providers = {
    esim: createEsimProvider(config, { db, clock, notify: providerNotifications.sandboxNotify }),
    /** Test-mode orders (svc_test_sk_ keys): always the sandbox, see docs/partner.md "Test mode". */
    testEsim: createTestModeEsimProvider({ db, clock, latencyMs: config.sandbox.esimLatencyMs }),
  };
  const paymentProviders = createPaymentProviders(config, { db, clock });
  const payments = createPaymentsService({
    db,
    clock,
    log,
    publicBaseUrl: config.publicBaseUrl,
    exchangeRates,
    providers: paymentProviders,
    receipts: receipts.scheduler,
    events: partnerEvents,
    appUrlSchemes: config.appUrlSchemes,
  });
  const wallet = createWalletService({ db, clock, audit, ledgerObserver: partnerEvents });

  /** Background job kinds → handlers; each area adds its own. */
  const jobHandlers: JobHandlers = {};
  jobHandlers[PASSWORD_RESET_JOB] = { run: (job) => accounts.sendPasswordReset(job.payload) };
  Object.assign(jobHandlers, receipts.jobs);
  const catalog = createCatalogService({
    db,
    clock,
    queue,
    audit,
    exchangeRates,
    providers,
    markupPercent: config.catalog.markupPercent,
    syncIntervalMinutes: config.catalog.syncIntervalMinutes,
    onSyncError: (error) => log.warn({ err: error.message }, 'catalog sync failed'),
    notifications: database.notifications,
  });
  jobHandlers['catalog.sync'] = catalog.syncJob;
  const worker = createWorker({
    queue,
    handlers: jobHandlers,
    clock,
    log,
    concurrency: config.worker.concurrency,
    pollIntervalMs: config.worker.pollIntervalMs,
    stopTimeoutMs: config.shutdownGraceSeconds * 1000,
  });

  const orders = createOrderService({
    db,
    clock,
    queue,
    providers,
    mailer,
    receipts: receipts.scheduler,
    log,
    metrics,
    findActivePlan: catalog.findActivePlan,
    support: () => support,
    payments: () => payments,
    events: partnerEvents,
    settings: {
      publicBaseUrl: config.publicBaseUrl,
      supportEmail: config.supportEmail,
      usageCacheSeconds: config.usageCacheSeconds,
      fulfillmentMaxAttempts: config.fulfillment.maxAttempts,
      fulfillmentRetryBaseSeconds: config.fulfillment.retryBaseSeconds,
    },
  });
  const orderAdmin = createOrderAdmin({ db, audit, orders });
  const testMode = createTestModeService({ db, clock, orders });
  const orderJobs = registerOrderJobs({
    db,
    handlers: jobHandlers,
    queue,
    clock,
    log,
    orders,
    retryBaseSeconds: config.fulfillment.retryBaseSeconds,
    expirePayment: (paymentId) => payments.expirePayment(paymentId).then(() => undefined),
  });
  payments.setOrderHooks(orders.paymentHooks);
  const webhookNet: { resolve?: Resolver; transport?: WebhookTransport } = {};
  const webhooks = createWebhooksService({
    db,
    clock,
    queue,
    outbox,
    allowPrivateUrls: config.webhooks.allowPrivateUrls,
    net: webhookNet,
    log,
  });
  webhooks.registerJobs(jobHandlers);
  providerNotifications.registerJobs(jobHandlers, (orderId) => orders.fulfillment.attempt(orderId, 'job'));
  /** Retention, abandoned-payment expiry and the daily reconciliation (docs/operations.md). */
  const maintenance = createMaintenance({
    db,
    clock,
    queue,
    log,
    jobRetentionMs: config.jobRetentionDays * 24 * 60 * 60 * 1000,
    expirePayment: (paymentId) => payments.expirePayment(paymentId),
  });
  maintenance.register(jobHandlers);

  /** Extra dependencies GET /ready checks besides the database (Redis adds itself). */
  const redis = config.redisUrl ? createRedis(config.redisUrl, log) : undefined;
  const readinessChecks = {
    checks: (redis ? [async () => void (await redis.ping())] : []) as Array<() => Promise<void>>,
    async run() {
      for (const check of this.checks) await check();
    },
  };

  /**
   * Work `main` runs once after start-up (for example: first catalog sync, scheduling periodic
   * jobs). Each area pushes its own; tests call `startup()` when they want the same.
   */
  const startupTasks: Array<() => Promise<void>> = [];
  startupTasks.push(() => exchangeRates.seed());
  startupTasks.push(() => catalog.startup());
  startupTasks.push(async () => warmSearchIndex());
  startupTasks.push(() => orderJobs.scheduleRefresh());
  startupTasks.push(() => webhooks.schedulePurge());
  startupTasks.push(() => maintenance.scheduleAll());
  async function startup() {
    for (const task of startupTasks) await task();
  }

  return {
    startupTasks,
    startup,
    config,
    database,
    db,
    clock,
    log,
    queue,
    deadLetter,
    mailer,
    receipts,
    sessions,
    apiKeys,
    accounts,
    audit,
    exchangeRates,
    support,
    devices,
    catalog,
    orders,
    orderAdmin,
    testMode,
    providers,
    paymentProviders,
    payments,
    wallet,
    outbox,
    partnerEvents,
    providerNotifications,
    webhooks,
    webhookNet,
    jobHandlers,
    worker,
    maintenance,
    metrics,
    readinessChecks,
    redis,
  };
}

export type Container = ReturnType<typeof createContainer>;
