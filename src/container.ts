import type { Config } from './config/index.js';
import type { Database } from './db/client.js';
import { createAuditService } from './domain/audit/audit.service.js';
import { createExchangeRateService } from './domain/catalog/exchange-rates.js';
import { createCatalogService } from './domain/catalog/catalog.service.js';
import { warmSearchIndex } from './domain/catalog/destinations.js';
import { createApiKeyService } from './domain/accounts/api-keys.js';
import { createDataExport } from './domain/accounts/data-export.js';
import { createAccountService } from './domain/accounts/accounts.service.js';
import { PASSWORD_RESET_JOB } from './domain/accounts/password-reset.js';
import { createPasswordHashing } from './domain/accounts/passwords.js';
import { createMailer } from './domain/mail/mailer.js';
import { createReceipts } from './domain/mail/receipts.js';
import { createSupportService } from './domain/support/support.service.js';
import { createLegalService } from './domain/legal/legal.service.js';
import { createReceiptService } from './domain/receipts/receipts.service.js';
import { createDevicesService } from './domain/devices/devices.service.js';
import { createSessionService } from './domain/sessions/sessions.service.js';
import { createOrderService } from './domain/orders/orders.service.js';
import { registerOrderJobs } from './domain/orders/order-jobs.js';
import { createOrderAdmin } from './domain/orders/order-admin.js';
import { createOrderPaymentHandler } from './domain/orders/order-payments.js';
import { createEsimProviders, type EsimProviderRegistry } from './providers/esim/registry.js';
import { createSandboxEsimControls } from './providers/esim/sandbox/controls.js';
import { createTestModeEsimProvider } from './domain/testmode/test-provider.js';
import { createTestModeService } from './domain/testmode/testmode.service.js';
import { createPaymentProviders } from './providers/payments/registry.js';
import { createPaymentRefunds } from './domain/payments/payment-refunds.js';
import { createPaymentsService } from './domain/payments/payments.service.js';
import { createWalletService } from './domain/wallet/wallet.service.js';
import { createEventOutbox } from './domain/events/outbox.js';
import { createPartnerEvents } from './domain/events/partner-events.js';
import { createProviderNotifications } from './domain/events/provider-notifications.js';
import { createEsimWebhooks } from './domain/events/esim-webhooks.js';
import { createWebhooksService } from './domain/webhooks/webhooks.service.js';
import type { RandomSource } from './domain/webhooks/retry-policy.js';
import type { Resolver } from './domain/webhooks/ssrf.js';
import type { WebhookTransport } from './domain/webhooks/transport.js';
import { createJobQueue } from './jobs/queue.js';
import { createDeadLetter } from './domain/ops/dead-letter.js';
import { createMaintenance } from './domain/ops/maintenance.js';
import { registerServiceMetrics } from './domain/ops/service-metrics.js';
import { createMetrics } from './lib/metrics.js';
import { createWorker, type JobHandlers } from './jobs/worker.js';
import type { Clock } from './lib/clock.js';
import type { Logger } from './lib/logger.js';
import { createRedis } from './lib/redis.js';

/**
 * The composition root: one small builder per area, composed in `createContainer`. `main` and
 * the worker process build the container and hand it to the HTTP app and the job worker; domain
 * services get narrow dependencies, never the container itself, so tests can build any one of
 * them with stubs. See docs/architecture.md.
 */

export interface ContainerDeps {
  config: Readonly<Config>;
  /** Opened (and migrated) by the caller, who also closes it: see `openContainer`. */
  database: Database;
  clock: Clock;
  log: Logger;
  /**
   * Replaces the eSIM providers the configuration selects (src/providers/esim/registry.ts), given
   * them: a provider is anything implementing the contract of src/providers/esim/types.ts, and
   * nothing else in the container, the domain or http/ names one (test/providers/second-provider.test.ts).
   */
  esimProviders?: (configured: EsimProviderRegistry) => EsimProviderRegistry;
}

/** Database, clock, log, job queue, metrics, Redis; plus audit and mail, which every area uses. */
function buildInfrastructure({ config, database, clock, log }: ContainerDeps) {
  const db = database.db;
  const queue = createJobQueue({ db, clock });
  /** Background job kinds → handlers; each area adds its own. */
  const jobHandlers: JobHandlers = {};
  /**
   * Work `main` runs once after start-up (for example: first catalog sync, scheduling periodic
   * jobs). Each area pushes its own; tests call `startup()` when they want the same.
   */
  const startupTasks: Array<() => Promise<void>> = [];
  /** Prometheus metrics (GET /metrics); no-ops unless METRICS_TOKEN is set. */
  const metrics = createMetrics({ enabled: config.metricsToken !== undefined });
  registerServiceMetrics(metrics, { database, clock });
  const redis = config.redisUrl ? createRedis(config.redisUrl, log) : undefined;
  /** Extra dependencies GET /ready checks besides the database (Redis adds itself). */
  const readinessChecks = {
    checks: (redis ? [async () => void (await redis.ping())] : []) as Array<() => Promise<void>>,
    async run() {
      for (const check of this.checks) await check();
    },
  };
  const audit = createAuditService({ db, clock });
  const mailer = createMailer({
    db,
    clock,
    transport: config.mail.transport,
    smtpUrl: config.mail.smtpUrl,
    from: config.mail.from,
    onDeliveryError: (error, id) => log.warn({ mailId: id, err: error.message }, 'mail delivery failed'),
  });
  const receipts = createReceipts({ db, queue, mailer, publicBaseUrl: config.publicBaseUrl });
  Object.assign(jobHandlers, receipts.jobs);
  return {
    config,
    database,
    db,
    clock,
    log,
    queue,
    jobHandlers,
    startupTasks,
    metrics,
    redis,
    readinessChecks,
    audit,
    mailer,
    receipts,
  };
}
type Infrastructure = ReturnType<typeof buildInfrastructure>;

/** Partner events: the outbox, the typed emitters and the inbound provider notifications. */
function buildEvents({ config, db, clock, queue }: Infrastructure) {
  const outbox = createEventOutbox({ db, clock });
  const partnerEvents = createPartnerEvents({ outbox, publicBaseUrl: config.publicBaseUrl });
  const providerNotifications = createProviderNotifications({ db, clock, queue, events: partnerEvents });
  return { outbox, partnerEvents, providerNotifications };
}
type Events = ReturnType<typeof buildEvents>;

/** Accounts, sessions, API keys, devices, support, and the legal pages the contact form sits on. */
function buildAccounts({ config, db, clock, queue, log, audit, mailer, jobHandlers }: Infrastructure) {
  const sessions = createSessionService({ db, clock });
  const apiKeys = createApiKeyService({ db, clock });
  // One argon2 gate per container: a bounded queue and a per-client share (issue 28 H2).
  const passwords = createPasswordHashing(config.abuseLimits, clock);
  const accounts = createAccountService({
    db,
    clock,
    sessions,
    apiKeys,
    mailer,
    audit,
    queue,
    passwords,
    publicBaseUrl: config.publicBaseUrl,
  });
  jobHandlers[PASSWORD_RESET_JOB] = { run: (job) => accounts.sendPasswordReset(job.payload) };
  const devices = createDevicesService({ db, clock });
  const support = createSupportService({
    db,
    clock,
    mailer,
    audit,
    supportEmail: config.supportEmail,
    publicBaseUrl: config.publicBaseUrl,
    onMailError: (error) => log.warn({ err: String(error) }, 'support mail could not be recorded'),
  });
  const legal = createLegalService({
    company: { ...config.company, supportEmail: config.supportEmail },
    shippedDir: config.legal.shippedDir,
    overrideDir: config.legal.overrideDir,
  });
  return { sessions, apiKeys, accounts, passwords, devices, support, legal };
}
type Accounts = ReturnType<typeof buildAccounts>;

/**
 * eSIM providers: the configured one, every one whose webhooks are received, the sandbox for
 * test-mode orders, and the sandbox's operator controls (admin API) when ESIM_PROVIDER is the
 * sandbox. `esimWebhooks` hands inbound webhooks to the provider they name.
 */
function buildEsimProviders(
  { config, db, clock, jobHandlers }: Infrastructure,
  { providerNotifications }: Events,
  replace: ContainerDeps['esimProviders'],
) {
  const { sandboxNotify: notify, sandboxNotifyWithin: notifyWithin } = providerNotifications;
  const configured = createEsimProviders(config, { db, clock, notify, notifyWithin });
  const registry = replace ? replace(configured) : configured;
  const providers = {
    ...registry,
    /** Test-mode orders (svc_test_sk_ keys): always the sandbox, see docs/partner-reference.md "Test mode". */
    testEsim: createTestModeEsimProvider({ db, clock, latencyMs: config.sandbox.esimLatencyMs }),
  };
  const esimWebhooks = createEsimWebhooks({ providers, notifications: providerNotifications });
  esimWebhooks.registerJobs(jobHandlers);
  // Usage changes "send" DATA_USAGE / ESIM_STATUS webhooks like eSIM Access does.
  const sandboxEsim =
    config.esimProvider === 'sandbox' ? createSandboxEsimControls({ db, clock, notify }) : undefined;
  return { providers, esimWebhooks, sandboxEsim };
}
type EsimProviders = ReturnType<typeof buildEsimProviders>;

/** Exchange rates, plans and prices, the catalog sync. */
function buildCatalog(infra: Infrastructure, { providers }: EsimProviders) {
  const { config, db, database, clock, queue, log, audit, jobHandlers, startupTasks } = infra;
  const exchangeRates = createExchangeRateService({ db, clock });
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
  startupTasks.push(() => exchangeRates.seed());
  startupTasks.push(() => catalog.startup());
  return { exchangeRates, catalog };
}
type Catalog = ReturnType<typeof buildCatalog>;

/** The wallet (balances and ledger) and payments in (card, crypto) with their providers. */
function buildPayments(infra: Infrastructure, { partnerEvents }: Events, { exchangeRates }: Catalog) {
  const { config, db, clock, queue, log, audit, receipts, jobHandlers } = infra;
  const wallet = createWalletService({ db, clock, audit, ledgerObserver: partnerEvents });
  const paymentProviders = createPaymentProviders(config, { db, clock });
  /** Payments → orders is a port: payments publishes "payment succeeded/closed", orders handles it. */
  const orderPayments = createOrderPaymentHandler({
    db,
    clock,
    queue,
    events: partnerEvents,
    fulfillmentMaxAttempts: config.fulfillment.maxAttempts,
  });
  const payments = createPaymentsService({
    db,
    clock,
    log,
    publicBaseUrl: config.publicBaseUrl,
    exchangeRates,
    providers: paymentProviders,
    receipts: receipts.scheduler,
    events: partnerEvents,
    orders: orderPayments,
    appUrlSchemes: config.appUrlSchemes,
    queue,
  });
  const paymentRefunds = createPaymentRefunds({ db, clock, log, providers: paymentProviders });
  paymentRefunds.registerJobs(jobHandlers);
  payments.registerJobs(jobHandlers);
  return { wallet, paymentProviders, payments, paymentRefunds };
}
type Payments = ReturnType<typeof buildPayments>;

/** Orders, fulfillment and their jobs, operator order actions, test mode, the data export, receipts. */
function buildOrders(
  infra: Infrastructure,
  areas: { events: Events; esim: EsimProviders; catalog: Catalog; accounts: Accounts; payments: Payments },
) {
  const { config, db, clock, queue, log, metrics, audit, mailer, receipts, jobHandlers, startupTasks } =
    infra;
  const { partnerEvents, providerNotifications } = areas.events;
  const { support, legal } = areas.accounts;
  const { payments } = areas.payments;
  const orders = createOrderService({
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
  // Built here, the first point where every area whose rows it reads exists.
  const dataExport = createDataExport({
    clock,
    accounts: areas.accounts.accounts,
    orders,
    wallet: areas.payments.wallet,
    support,
  });
  const orderJobs = registerOrderJobs({
    db,
    handlers: jobHandlers,
    queue,
    clock,
    log,
    orders,
    retryBaseSeconds: config.fulfillment.retryBaseSeconds,
    payments,
  });
  providerNotifications.registerJobs(jobHandlers, (orderId) => orders.fulfillment.attempt(orderId, 'job'));
  startupTasks.push(() => orderJobs.scheduleRefresh());
  const purchaseReceipts = createReceiptService({ db, orders: orders.repository, legal, ...areas.catalog });
  return { orders, orderAdmin, testMode, dataExport, purchaseReceipts };
}

/** Webhooks out: partner endpoints, signed deliveries of the outbox's events, their purge. */
function buildWebhooks(infra: Infrastructure, { outbox }: Events) {
  const { config, db, clock, queue, log, jobHandlers, startupTasks } = infra;
  /** Tests replace DNS resolution, the HTTP transport and the retries' jitter source here. */
  const webhookNet: { resolve?: Resolver; transport?: WebhookTransport; random?: RandomSource } = {};
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
  startupTasks.push(() => webhooks.schedulePurge());
  return { webhooks, webhookNet };
}

/** Dead letters, retention, abandoned-payment expiry, daily reconcile, and the job worker. */
function buildOps(infra: Infrastructure, { payments }: Payments) {
  const { config, db, database, clock, queue, log, audit, jobHandlers, startupTasks } = infra;
  const deadLetter = createDeadLetter({ db, clock, audit });
  const maintenance = createMaintenance({
    db,
    clock,
    queue,
    log,
    jobRetentionMs: config.jobRetentionDays * 24 * 60 * 60 * 1000,
    payments,
    vacuum: database.kind === 'pglite',
  });
  maintenance.register(jobHandlers);
  startupTasks.push(() => maintenance.scheduleAll());
  const worker = createWorker({
    queue,
    handlers: jobHandlers,
    clock,
    log,
    concurrency: config.worker.concurrency,
    pollIntervalMs: config.worker.pollIntervalMs,
    stopTimeoutMs: config.shutdownGraceSeconds * 1000,
  });
  return { deadLetter, maintenance, worker };
}

export function createContainer(deps: ContainerDeps) {
  const infra = buildInfrastructure(deps);
  const events = buildEvents(infra);
  const accounts = buildAccounts(infra);
  const esim = buildEsimProviders(infra, events, deps.esimProviders);
  const catalog = buildCatalog(infra, esim);
  const payments = buildPayments(infra, events, catalog);
  const orders = buildOrders(infra, { events, esim, catalog, accounts, payments });
  const webhooks = buildWebhooks(infra, events);
  const ops = buildOps(infra, payments);

  return {
    ...infra,
    ...events,
    ...accounts,
    ...esim,
    ...catalog,
    ...payments,
    ...orders,
    ...webhooks,
    ...ops,
    /** The start-up tasks in order (first catalog sync, periodic jobs); the entry points call it. */
    async startup(): Promise<void> {
      for (const task of infra.startupTasks) await task();
    },
    /**
     * Work that only makes first requests faster, run by `npm start` once it listens so that
     * readiness does not wait for it: the catalogue search index (every country's names in ~85
     * languages, the largest start-up task), a few countries per turn of the event loop; a search
     * that comes first completes it.
     */
    warmUp(): Promise<void> {
      return warmSearchIndex();
    },
    /**
     * Releases what the container holds: stops the worker (after the jobs it is running, up to
     * the grace) and disconnects Redis. The database belongs to whoever opened it.
     */
    async close(): Promise<void> {
      await ops.worker.stop();
      await catalog.catalog.close();
      infra.redis?.disconnect();
    },
  };
}

export type Container = ReturnType<typeof createContainer>;
