import { createAuditService } from '../domain/audit/audit.service.js';
import { createMailer } from '../domain/mail/mailer.js';
import { createJobQueue } from '../jobs/queue.js';
import { registerServiceMetrics } from '../domain/ops/service-metrics.js';
import { createMetrics } from '../lib/metrics.js';
import { type JobHandlers } from '../jobs/worker.js';
import { createRedis } from '../lib/redis.js';
import type { ContainerDeps } from './deps.js';

/** Database, clock, log, job queue, metrics, Redis; plus audit and mail, which every area uses. */
export function buildInfrastructure({ config, database, clock, log }: ContainerDeps) {
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
  };
}
export type Infrastructure = ReturnType<typeof buildInfrastructure>;
