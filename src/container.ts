import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config/index.js';
import type { Database } from './db/client.js';
import { createAuditService } from './domain/audit/audit.service.js';
import { createExchangeRateService } from './domain/catalog/exchange-rates.js';
import { createApiKeyService } from './domain/accounts/api-keys.js';
import { createMailer } from './domain/mail/mailer.js';
import { createSessionService } from './domain/sessions/sessions.service.js';
import { createEsimProvider } from './providers/esim/registry.js';
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
  const exchangeRates = createExchangeRateService({ db, clock });
  const providers = { esim: createEsimProvider(config, { db, clock }) };

  /** Background job kinds → handlers; each area adds its own. */
  const jobHandlers: JobHandlers = {};
  const worker = createWorker({
    queue,
    handlers: jobHandlers,
    clock,
    log,
    concurrency: config.worker.concurrency,
    pollIntervalMs: config.worker.pollIntervalMs,
  });

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
    audit,
    exchangeRates,
    providers,
    jobHandlers,
    worker,
    readinessChecks,
    redis,
  };
}

export type Container = ReturnType<typeof createContainer>;
