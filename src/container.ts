import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config/index.js';
import type { Database } from './db/client.js';
import { createAuditService } from './domain/audit/audit.service.js';
import { createExchangeRateService } from './domain/catalog/exchange-rates.js';
import { createCatalogService } from './domain/catalog/catalog.service.js';
import { createApiKeyService } from './domain/accounts/api-keys.js';
import { createAccountService } from './domain/accounts/accounts.service.js';
import { PASSWORD_RESET_JOB } from './domain/accounts/password-reset.js';
import { createMailer } from './domain/mail/mailer.js';
import { createSupportService } from './domain/support/support.service.js';
import { createDevicesService } from './domain/devices/devices.service.js';
import { createSessionService } from './domain/sessions/sessions.service.js';
import { createOrderService } from './domain/orders/orders.service.js';
import { registerOrderJobs } from './domain/orders/order-jobs.js';
import { createOrderAdmin } from './domain/orders/order-admin.js';
import { createEsimProvider } from './providers/esim/registry.js';
import { createPaymentProviders } from './providers/payments/registry.js';
import { createPaymentsService } from './domain/payments/payments.service.js';
import { createWalletService } from './domain/wallet/wallet.service.js';
import { createJobQueue } from './jobs/queue.js';
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
  const mailer = createMailer({
    db,
    clock,
    transport: config.mail.transport,
    smtpUrl: config.mail.smtpUrl,
    from: config.mail.from,
    onDeliveryError: (error, id) => log.warn({ mailId: id, err: error.message }, 'mail delivery failed'),
  });
  const sessions = createSessionService({ db, clock });
  const apiKeys = createApiKeyService({ db, clock });
  const audit = createAuditService({ db, clock });
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
  const providers = { esim: createEsimProvider(config, { db, clock }) };
  const paymentProviders = createPaymentProviders(config, { db, clock });
  const payments = createPaymentsService({
    db,
    clock,
    log,
    publicBaseUrl: config.publicBaseUrl,
    exchangeRates,
    providers: paymentProviders,
  });
  const wallet = createWalletService({ db, clock, audit });

  /** Background job kinds → handlers; each area adds its own. */
  const jobHandlers: JobHandlers = {};
  jobHandlers[PASSWORD_RESET_JOB] = { run: (job) => accounts.sendPasswordReset(job.payload) };
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
  });
  jobHandlers['catalog.sync'] = catalog.syncJob;
  const worker = createWorker({
    queue,
    handlers: jobHandlers,
    clock,
    log,
    concurrency: config.worker.concurrency,
    pollIntervalMs: config.worker.pollIntervalMs,
  });

  const orders = createOrderService({
    db,
    clock,
    queue,
    providers,
    mailer,
    log,
    findActivePlan: catalog.findActivePlan,
    support: () => support,
    payments: () => payments,
    settings: {
      publicBaseUrl: config.publicBaseUrl,
      supportEmail: config.supportEmail,
      usageCacheSeconds: config.usageCacheSeconds,
      fulfillmentMaxAttempts: config.fulfillment.maxAttempts,
      fulfillmentRetryBaseSeconds: config.fulfillment.retryBaseSeconds,
    },
  });
  const orderAdmin = createOrderAdmin({ db, audit, orders });
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
  startupTasks.push(() => orderJobs.scheduleRefresh());
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
    mailer,
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
    providers,
    paymentProviders,
    payments,
    wallet,
    jobHandlers,
    worker,
    readinessChecks,
    redis,
  };
}

export type Container = ReturnType<typeof createContainer>;
