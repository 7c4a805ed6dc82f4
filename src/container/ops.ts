import { createDeadLetter } from '../domain/ops/dead-letter.js';
import { createMaintenance } from '../domain/ops/maintenance.js';
import { createConsoleOverview } from '../domain/ops/overview.service.js';
import { createConsoleSearch } from '../domain/ops/search.service.js';
import { createRequestLog } from '../domain/requestlog/request-log.js';
import { createWorker } from '../jobs/worker.js';
import type { Infrastructure } from './infrastructure.js';
import type { Operators } from './operators.js';
import type { Payments } from './payments.js';

/**
 * Dead letters, retention, abandoned-payment expiry, daily reconcile, the job worker, and the
 * Partner API request log (buffered; retention purges it); the operator console's search and
 * overview.
 */
export function buildOps(
  infra: Infrastructure,
  { payments }: Payments,
  { operatorSessions, operators }: Pick<Operators, 'operatorSessions' | 'operators'>,
) {
  const { config, db, database, clock, queue, log, audit, jobHandlers, startupTasks } = infra;
  const deadLetter = createDeadLetter({ db, clock, audit });
  const requestLog = createRequestLog({ db, clock, log });
  const maintenance = createMaintenance({
    db,
    clock,
    queue,
    log,
    jobRetentionMs: config.jobRetentionDays * 24 * 60 * 60 * 1000,
    payments,
    requestLog,
    operators: {
      purgeStaleSessions: (tx) => operatorSessions.purgeStale(tx),
      purgeEnrolments: (tx, cutoff) => operators.purgeEnrolments(tx, cutoff),
    },
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
  // The operator console's search box and overview (issue 33 O3).
  const consoleSearch = createConsoleSearch({ db });
  const consoleOverview = createConsoleOverview({ db, clock });
  return { deadLetter, maintenance, worker, requestLog, consoleSearch, consoleOverview };
}
