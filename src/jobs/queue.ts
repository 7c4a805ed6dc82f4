import { and, asc, eq, inArray, is, lte, sql, SQL } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client.js';
import { columnList, placeholderAs, placeholders, reusable, type InsertRow } from '../db/reusable.js';
import { jobs } from '../db/schema/index.js';
import { produced, rowsOf, step, type Step } from '../db/steps.js';
import type { Clock } from '../lib/clock.js';

export type Job = typeof jobs.$inferSelect;

export interface EnqueueOptions {
  kind: string;
  payload?: Record<string, unknown>;
  runAt?: Date;
  maxAttempts?: number;
  /** While a job with this key is pending or running, enqueueing another is a no-op. */
  dedupeKey?: string;
}

/**
 * How long a claimed job is ours before another worker may assume we crashed and take it. The
 * worker renews the lease while the job runs (every LEASE_MS / 3), so a long job keeps it and a
 * job of a killed process is picked up again about a minute after the crash.
 */
export const LEASE_MS = 60 * 1000;

export interface JobQueue {
  /** Call with the transaction of the change that needs the job, so both commit or neither. */
  enqueue(db: DbOrTx, options: EnqueueOptions): Promise<void>;
  /**
   * Claims up to `limit` due jobs (or jobs whose worker's lease ran out) for `workerId`. In the
   * same statement, first marks done the jobs of `finished` (jobs `workerId` ran to success and
   * still holds): a worker pays no statement of its own per finished job.
   */
  claim(workerId: string, limit: number, finished?: readonly Job[]): Promise<Job[]>;
  /** Renews the lease of a job this worker still holds. */
  extend(job: Job): Promise<void>;
  /** Schedules a retry at `retryAt`, or marks the job failed when `retryAt` is null. */
  fail(job: Job, error: string, retryAt: Date | null): Promise<void>;
  /**
   * Marks an exhausted job `handled` (its handler dealt with the failure: no operator needed), in
   * the transaction `tx` of what dealt with it, so both commit or neither. Only while this worker
   * still holds the job.
   */
  markHandled(tx: DbOrTx, job: Job, error: string): Promise<void>;
}

/**
 * The statement that marks the pending job of `dedupeKey` done without running it, for work its
 * job was a safety net for and that has just been finished (in the caller's transaction, where
 * `onlyIf` holds). A job already claimed (running) is left alone: it finds the work done. Not
 * executed here: run it, or compose it as a step (`settleStep`).
 */
export function settlePendingJob(tx: DbOrTx, dedupeKey: string | SQL, now: Date | SQL, onlyIf?: SQL) {
  return (
    tx
      .update(jobs)
      .set({ status: 'done', lockedBy: null, lockedUntil: null, updatedAt: now })
      // 'pending' as a literal: a statement prepared once (src/db/named-statements.ts) can then use
      // the partial unique index on dedupe_key in its generic plan.
      .where(and(eq(jobs.dedupeKey, dedupeKey as string), sql`${jobs.status} = 'pending'`, onlyIf))
  );
}

/** The values of a `settleStep`. */
export interface SettleValues {
  dedupeKey: string;
  now: Date;
}

/**
 * Step (src/db/steps.ts): `settlePendingJob` of the job with `dedupeKey`, only when `when` (an
 * earlier step of the statement) produced a row.
 */
export function settleStep(name: string, when: Step<object>): Step<SettleValues> {
  return step<SettleValues, unknown>(name, (db, p) =>
    db.$with(name).as(settlePendingJob(db, p('dedupeKey'), p('now'), produced(when))),
  );
}

const JOB_COLUMNS = [
  'kind',
  'payload',
  'runAt',
  'maxAttempts',
  'dedupeKey',
  'createdAt',
  'updatedAt',
] as const satisfies ReadonlyArray<keyof typeof jobs.$inferInsert>;

export type NewJobRow = InsertRow<typeof jobs, typeof JOB_COLUMNS>;

/** A job's row as `enqueue` writes it. */
export function jobRow(options: EnqueueOptions, now: Date): NewJobRow {
  return {
    kind: options.kind,
    payload: options.payload ?? {},
    runAt: options.runAt ?? now,
    maxAttempts: options.maxAttempts ?? 5,
    dedupeKey: options.dedupeKey ?? null,
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * Step (src/db/steps.ts): one job (values: `jobRow(options, now)`) per row of `source` (an earlier
 * step of the statement, or a FROM item such as a subquery; no row, no job), where `where` holds
 * for that row.
 */
export function enqueueStep(name: string, source: Step<object> | SQL, where?: SQL): Step<NewJobRow> {
  return step<NewJobRow, unknown>(name, (db, p) =>
    db.$with(name, {}).as(
      sql`insert into ${jobs} (${columnList(jobs, JOB_COLUMNS)})
        select ${sql.join(
          JOB_COLUMNS.map((c) => p(c)),
          sql`, `,
        )} from ${is(source, SQL) ? source : rowsOf(source)} ${where ? sql`where ${where}` : sql``} on conflict do nothing`,
    ),
  );
}

/** What `enqueue` runs, built once (src/db/reusable.ts): placeholders named after the columns. */
export const insertJob = reusable((db) =>
  db
    .insert(jobs)
    .values(placeholders(JOB_COLUMNS) as never)
    .onConflictDoNothing(),
);

/**
 * Claims up to `limit` due jobs (pending and due, or running with a lease run out) for
 * `workerId`, oldest due first, in one statement: the due rows are locked with SKIP LOCKED, so
 * many workers scan the same rows without waiting on each other and each row goes to exactly one
 * of them; the UPDATE marks them running under a lease. Built once (src/db/reusable.ts).
 */
export const claimDue = reusable((db) => {
  const now = placeholderAs<Date>('now');
  const finishedIds = sql.placeholder('finished');
  // The worker's finished jobs, done, only while it still holds them.
  const finished$ = db.$with('finished').as(
    db
      .update(jobs)
      .set({
        status: 'done',
        attempts: sql`${jobs.attempts} + 1`,
        lockedBy: null,
        lockedUntil: null,
        updatedAt: now,
      })
      .where(and(sql`${jobs.id} = any(${finishedIds})`, eq(jobs.lockedBy, placeholderAs<string>('workerId'))))
      .returning({ id: jobs.id }),
  );
  // Due in two ordered index scans (jobs_claim_idx: status, run_at), merged: one scan with an OR
  // of the two states cannot be read in order, so PostgreSQL collected every due row of both
  // (a bitmap scan, which also re-reads the dead entries each status change leaves in the index
  // until vacuum) and sorted them, however few it claims. Each scan locks at most `limit` rows;
  // those the merge leaves out are unlocked when the statement ends (a concurrent claim skips
  // them meanwhile, as it skips any locked row).
  const dueIn = (state: 'pending' | 'running', dueAt: SQL) =>
    db
      .select({ id: jobs.id, runAt: jobs.runAt })
      .from(jobs)
      .where(
        and(
          sql`${jobs.status} = ${sql.raw(`'${state}'`)}`,
          lte(dueAt, now),
          // One statement must not modify a row twice: a finished job is never due here.
          sql`not (${jobs.id} = any(${finishedIds}))`,
        ),
      )
      .orderBy(asc(jobs.runAt), asc(jobs.id))
      .limit(placeholderAs<number>('limit'))
      .for('update', { skipLocked: true });
  const pending$ = db.$with('due_pending').as(dueIn('pending', sql`${jobs.runAt}`));
  const expired$ = db.$with('due_expired').as(dueIn('running', sql`${jobs.lockedUntil}`));
  const due$ = db.$with('due').as(
    db
      .select({ id: pending$.id, runAt: pending$.runAt })
      .from(pending$)
      .unionAll(db.select({ id: expired$.id, runAt: expired$.runAt }).from(expired$))
      .orderBy(sql`run_at`, sql`id`)
      .limit(placeholderAs<number>('limit')),
  );
  return db
    .with(finished$, pending$, expired$, due$)
    .update(jobs)
    .set({
      status: 'running',
      lockedBy: placeholderAs<string>('workerId'),
      lockedUntil: placeholderAs<Date>('lockedUntil'),
      updatedAt: now,
    })
    .where(inArray(jobs.id, db.select({ id: due$.id }).from(due$)))
    .returning();
});

export function createJobQueue(deps: { db: Db; clock: Clock }): JobQueue {
  const { db, clock } = deps;
  return {
    async enqueue(tx, options) {
      await insertJob(tx, jobRow(options, clock.now()));
    },

    async claim(workerId, limit, finished = []) {
      const now = clock.now();
      const claimed = await claimDue(db, {
        now,
        limit,
        workerId,
        finished: finished.map((job) => job.id),
        lockedUntil: new Date(now.getTime() + LEASE_MS),
      });
      return claimed.sort((a, b) => a.runAt.getTime() - b.runAt.getTime() || a.id - b.id);
    },

    async extend(job) {
      const now = clock.now();
      await db
        .update(jobs)
        .set({ lockedUntil: new Date(now.getTime() + LEASE_MS), updatedAt: now })
        .where(and(eq(jobs.id, job.id), eq(jobs.status, 'running'), eq(jobs.lockedBy, job.lockedBy ?? '')));
    },

    async fail(job, error, retryAt) {
      await db
        .update(jobs)
        .set({
          status: retryAt ? 'pending' : 'failed',
          attempts: job.attempts + 1,
          runAt: retryAt ?? job.runAt,
          lastError: error.slice(0, 2000),
          lockedBy: null,
          lockedUntil: null,
          updatedAt: clock.now(),
        })
        .where(and(eq(jobs.id, job.id), eq(jobs.lockedBy, job.lockedBy ?? '')));
    },

    async markHandled(tx, job, error) {
      await tx
        .update(jobs)
        .set({
          status: 'handled',
          attempts: job.attempts + 1,
          lastError: error.slice(0, 2000),
          lockedBy: null,
          lockedUntil: null,
          updatedAt: clock.now(),
        })
        .where(and(eq(jobs.id, job.id), eq(jobs.lockedBy, job.lockedBy ?? '')));
    },
  };
}
