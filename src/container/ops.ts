import { createDeadLetter } from '../domain/ops/dead-letter.js';
import { createMaintenance } from '../domain/ops/maintenance.js';
import { createOrderTimeline } from '../domain/ops/order-timeline.service.js';
import { createConsoleOverview } from '../domain/ops/overview.service.js';
import { createReconcileRunner } from '../domain/ops/reconcile-run.js';
import { createConsoleSearch } from '../domain/ops/search.service.js';
import { createRequestLog } from '../domain/requestlog/request-log.js';
import { createWorker } from '../jobs/worker.js';
import type { Infrastructure } from './infrastructure.js';
import type { Operators } from './operators.js';
import type { Orders } from './orders.js';
import type { Payments } from './payments.js';
import type { Push } from './push.js';

/**
 * Dead letters, retention, abandoned-payment expiry, daily reconcile, the job worker, and the
 * Partner API request log (buffered; retention purges it); the operator console's search and
 * overview, an order's timeline and reconcile on demand.
 */
export function buildOps(
  infra: Infrastructure,
  areas: {
    payments: Payments;
    orders: Orders;
    push: Push;
    operators: Pick<Operators, 'operatorSessions' | 'operators'>;
  },
) {
  const { config, db, database, clock, queue, log, audit, mailer, jobHandlers, startupTasks } = infra;
  const { payments, wallet } = areas.payments;
  const { operatorSessions, operators } = areas.operators;
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
    pushes: areas.push.push,
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
  const orderTimeline = createOrderTimeline({
    db,
    orders: areas.orders.orders,
    payments,
    wallet,
    deadLetter,
    audit,
    mailer,
    push: areas.push.push,
    supportEmail: config.supportEmail,
  });
  const reconcileRunner = createReconcileRunner({ db, clock, audit });
  return {
    deadLetter,
    maintenance,
    worker,
    requestLog,
    consoleSearch,
    consoleOverview,
    orderTimeline,
    reconcileRunner,
  };
}
