import { and, eq, isNotNull, lt, or, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.js';
import { idempotencyKeys, jobs, passwordResetTokens, payments, sessions } from '../../db/schema/index.js';
import type { JobHandlers } from '../../jobs/worker.js';
import type { JobQueue } from '../../jobs/queue.js';
import { DAY, HOUR, MINUTE, type Clock } from '../../lib/clock.js';
import { IDEMPOTENCY_WINDOW_MS } from '../idempotency/store.js';
import { formatReport, reconcile, type ReconcileReport } from './reconcile.js';
import type { Logger } from '../../lib/logger.js';

export const OPS_JOBS = { retention: 'ops.retention', reconcile: 'ops.reconcile' } as const;

/** How often retention and payment expiry run, and how often the books are reconciled (00:00 UTC). */
export const RETENTION_INTERVAL_MS = 15 * MINUTE;
export const RECONCILE_INTERVAL_MS = DAY;

const nextBoundary = (at: Date, intervalMs: number) =>
  new Date((Math.floor(at.getTime() / intervalMs) + 1) * intervalMs);

/**
 * Hosted-payment session lifetimes, as the providers define them (the sandbox imitates each):
 * a Stripe Checkout Session expires 24 h after creation; a Cryptomus invoice at its `expired_at`
 * (default lifetime 1 h). A payment still pending EXPIRY_MARGIN after that is closed as expired,
 * and its order cancelled. The margin leaves time for the provider's own final webhook; a payment
 * that still arrives later is credited to the wallet like any late payment.
 */
export const CARD_SESSION_LIFETIME_MS = 24 * HOUR;
export const CRYPTO_INVOICE_DEFAULT_LIFETIME_MS = HOUR;
export const EXPIRY_MARGIN_MS = 10 * MINUTE;

/** Rows deleted (or payments expired) by one retention run. */
export interface RetentionResult {
  jobs: number;
  sessions: number;
  resetTokens: number;
  idempotencyKeys: number;
  expiredPayments: number;
  /** Partner API request log rows older than 30 days. */
  partnerRequests: number;
  /** Pushes settled and older than 90 days. */
  pushMessages: number;
  /** Console sessions ended or idle past their timeout a day ago, and spent enrolment links. */
  operatorSessions: number;
  operatorEnrolments: number;
  /** Milliseconds the closing VACUUM took (PGlite); absent where autovacuum does it. */
  vacuumMs?: number;
}

export function createMaintenance(deps: {
  db: Db;
  clock: Clock;
  queue: JobQueue;
  log: Logger;
  /** Finished (done) jobs older than this are deleted; failed jobs stay for the operator. */
  jobRetentionMs: number;
  /** Closes an abandoned payment as expired (false when it was already final). */
  payments: { expirePayment(paymentId: string): Promise<boolean> };
  /** The Partner API request log (src/domain/requestlog): its 30 days are kept here. */
  requestLog?: { purge(): Promise<number> };
  /** The push outbox (src/domain/push): its 90 days are kept here. */
  pushes?: { purge(): Promise<number> };
  /** The operator console's sessions and enrolment links (src/domain/operators). */
  operators?: {
    purgeStaleSessions(tx: DbOrTx): Promise<number>;
    purgeEnrolments(tx: DbOrTx, cutoff: Date): Promise<number>;
  };
  reconcileOptions?: Omit<Parameters<typeof reconcile>[0], 'db' | 'clock'>;
  /**
   * Whether retention ends with a VACUUM of the database: on PGlite, which runs no autovacuum, so
   * without it no dead row (a job claimed, finished or deleted; an order updated) is ever
   * reclaimed and the files grow with history. On PostgreSQL autovacuum does it
   * (drizzle/0004_queue_autovacuum.sql sets the job queue's thresholds).
   */
  vacuum?: boolean;
}) {
  const { db, clock } = deps;

  /** Pending payments whose provider session has ended (oldest first, bounded per run). */
  async function abandonedPayments(now: Date): Promise<string[]> {
    const cardCutoff = new Date(now.getTime() - CARD_SESSION_LIFETIME_MS - EXPIRY_MARGIN_MS);
    const cryptoEnds = sql`coalesce(
      to_timestamp(case when ${payments.providerData}->>'expired_at' ~ '^[0-9]{1,12}$'
        then (${payments.providerData}->>'expired_at')::bigint end),
      ${payments.createdAt} + ${`${CRYPTO_INVOICE_DEFAULT_LIFETIME_MS} milliseconds`}::interval)`;
    const rows = await db
      .select({ id: payments.id })
      .from(payments)
      .where(
        and(
          eq(payments.status, 'pending'),
          or(
            and(eq(payments.method, 'card'), lt(payments.createdAt, cardCutoff)),
            and(
              eq(payments.method, 'crypto'),
              sql`${cryptoEnds} < ${new Date(now.getTime() - EXPIRY_MARGIN_MS)}`,
            ),
          ),
        ),
      )
      .orderBy(payments.createdAt)
      .limit(500);
    return rows.map((r) => r.id);
  }

  async function runRetention(): Promise<RetentionResult> {
    const now = clock.now();
    const deleted = async (query: Promise<unknown[]>) => (await query).length;
    const result: RetentionResult = {
      jobs: await deleted(
        db
          .delete(jobs)
          .where(
            // Two arms, so `done` keeps its partial index (jobs_done_idx); handled exhaustion
            // (a refunded order's fulfillment job) is finished work too.
            or(
              ...(['done', 'handled'] as const).map((status) =>
                and(
                  eq(jobs.status, status),
                  lt(jobs.updatedAt, new Date(now.getTime() - deps.jobRetentionMs)),
                ),
              ),
            ),
          )
          .returning({ id: jobs.id }),
      ),
      sessions: await deleted(
        db.delete(sessions).where(lt(sessions.expiresAt, now)).returning({ id: sessions.id }),
      ),
      resetTokens: await deleted(
        db
          .delete(passwordResetTokens)
          .where(or(isNotNull(passwordResetTokens.usedAt), lt(passwordResetTokens.expiresAt, now)))
          .returning({ id: passwordResetTokens.tokenHash }),
      ),
      idempotencyKeys: await deleted(
        db
          .delete(idempotencyKeys)
          .where(lt(idempotencyKeys.createdAt, new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS)))
          .returning({ key: idempotencyKeys.key }),
      ),
      expiredPayments: 0,
      partnerRequests: (await deps.requestLog?.purge()) ?? 0,
      pushMessages: (await deps.pushes?.purge()) ?? 0,
      operatorSessions: (await deps.operators?.purgeStaleSessions(db)) ?? 0,
      // Links expired a day ago (used ones expire too): the audit log keeps who enrolled when.
      operatorEnrolments: (await deps.operators?.purgeEnrolments(db, new Date(now.getTime() - DAY))) ?? 0,
    };
    for (const id of await abandonedPayments(now)) {
      if (await deps.payments.expirePayment(id)) result.expiredPayments++;
    }
    if (deps.vacuum) {
      // Every table, so that nothing with churn is forgotten; pages where nothing changed since
      // the last run are skipped (visibility map), so a run costs what changed, not the history.
      // It also refreshes each table's row count for the planner. No ANALYZE: it reads a sample
      // of every table while holding PGlite's one connection, and the queries are index lookups
      // (docs/performance.md, "Dead rows").
      const started = performance.now();
      await db.execute(sql`vacuum`);
      result.vacuumMs = Math.round(performance.now() - started);
    }
    return result;
  }

  async function runReconcile(): Promise<ReconcileReport> {
    const report = await reconcile({ db, clock, ...deps.reconcileOptions });
    const summary = { accounts: report.accounts, orders: report.orders, problems: report.problems.length };
    if (report.ok) deps.log.info(summary, 'reconcile OK');
    else deps.log.error({ ...summary, report: formatReport(report) }, 'reconcile FAILED');
    return report;
  }

  /** One job per time slot; the dedupe key keeps several instances from piling up copies. */
  async function schedule(kind: string, intervalMs: number, at: Date): Promise<void> {
    await deps.queue.enqueue(db, {
      kind,
      runAt: at,
      dedupeKey: `${kind}:${Math.floor(at.getTime() / intervalMs)}`,
    });
  }

  return {
    runRetention,
    runReconcile,
    /** Registers both periodic jobs; each re-enqueues itself for its next slot. */
    register(handlers: JobHandlers) {
      handlers[OPS_JOBS.retention] = {
        async run() {
          try {
            const result = await runRetention();
            deps.log.info({ ...result }, 'retention run');
          } finally {
            await schedule(
              OPS_JOBS.retention,
              RETENTION_INTERVAL_MS,
              nextBoundary(clock.now(), RETENTION_INTERVAL_MS),
            );
          }
        },
      };
      handlers[OPS_JOBS.reconcile] = {
        async run() {
          try {
            await runReconcile();
          } finally {
            await schedule(
              OPS_JOBS.reconcile,
              RECONCILE_INTERVAL_MS,
              nextBoundary(clock.now(), RECONCILE_INTERVAL_MS),
            );
          }
        },
      };
    },
    /** At start-up: retention now, reconciliation at the next 00:00 UTC (then daily). */
    async scheduleAll(): Promise<void> {
      const now = clock.now();
      await schedule(OPS_JOBS.retention, RETENTION_INTERVAL_MS, now);
      await schedule(OPS_JOBS.reconcile, RECONCILE_INTERVAL_MS, nextBoundary(now, RECONCILE_INTERVAL_MS));
    },
  };
}

export type Maintenance = ReturnType<typeof createMaintenance>;
