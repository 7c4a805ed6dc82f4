import { createDeadLetter } from '../domain/ops/dead-letter.js';
import { createMaintenance } from '../domain/ops/maintenance.js';
import { createWorker } from '../jobs/worker.js';
import type { Infrastructure } from './infrastructure.js';
import type { Payments } from './payments.js';

/** Dead letters, retention, abandoned-payment expiry, daily reconcile, and the job worker. */
export function buildOps(infra: Infrastructure, { payments }: Payments) {
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
