import { and, asc, desc, eq, inArray, lt, or } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { keysetAfter, type KeyValue } from '../../db/keyset.js';
import { isUniqueViolation } from '../../db/errors.js';
import { jobs } from '../../db/schema/index.js';
import type { Job } from '../../jobs/queue.js';
import type { Clock } from '../../lib/clock.js';
import type { AuditService } from '../audit/audit.service.js';
import { AppError } from '../errors.js';

/**
 * The dead-letter side of the queue: a job whose last attempt failed (or whose kind has no
 * handler) stays `failed` with its last error, is never purged by retention, and waits for an
 * operator, who lists it and sends it back to `pending` for a fresh set of attempts.
 */
export function createDeadLetter(deps: { db: Db; clock: Clock; audit: AuditService }) {
  const { db, clock } = deps;

  async function get(id: number): Promise<Job> {
    const [job] = Number.isSafeInteger(id) ? await db.select().from(jobs).where(eq(jobs.id, id)) : [];
    if (!job) throw new AppError('NOT_FOUND', 'Job not found');
    return job;
  }

  return {
    get,

    /**
     * The jobs under these dedupe keys that are not simply done: pending or running (what happens
     * next), failed (a dead letter) or handled (gave up, dealt with). Oldest first. On
     * jobs_claim_idx: done jobs, the bulk of the table, are not read.
     */
    async openUnder(dedupeKeys: string[]): Promise<Job[]> {
      if (dedupeKeys.length === 0) return [];
      return db
        .select()
        .from(jobs)
        .where(
          and(
            inArray(jobs.status, ['pending', 'running', 'failed', 'handled']),
            inArray(jobs.dedupeKey, dedupeKeys),
          ),
        )
        .orderBy(asc(jobs.createdAt), asc(jobs.id));
    },

    /** Newest failure first; `before` is the id of the last job of the previous page. */
    async list(filter: {
      kind?: string | undefined;
      limit?: number | undefined;
      before?: number | undefined;
      /** Keyset position [updatedAt, id] (cursor pagination). */
      after?: readonly KeyValue[] | undefined;
    }): Promise<Job[]> {
      const conditions = [eq(jobs.status, 'failed')];
      if (filter.kind) conditions.push(eq(jobs.kind, filter.kind));
      if (filter.after) conditions.push(keysetAfter([jobs.updatedAt, jobs.id], filter.after, 'desc'));
      if (filter.before !== undefined) {
        const cursor = await get(filter.before);
        conditions.push(
          or(
            lt(jobs.updatedAt, cursor.updatedAt),
            and(eq(jobs.updatedAt, cursor.updatedAt), lt(jobs.id, cursor.id)),
          )!,
        );
      }
      return db
        .select()
        .from(jobs)
        .where(and(...conditions))
        .orderBy(desc(jobs.updatedAt), desc(jobs.id))
        .limit(filter.limit ?? 50);
    },

    /**
     * failed → pending, due now, attempts back to 0 (the last error stays until the next run).
     * Only failed jobs (409 INVALID_STATE otherwise); 409 CONFLICT while another job with the
     * same dedupe key is pending or running. Audited as `job.retry`.
     */
    async retry(id: number, requestId?: string): Promise<Job> {
      const before = await get(id);
      if (before.status !== 'failed') {
        throw new AppError('INVALID_STATE', `Only failed jobs can be retried; this one is ${before.status}`);
      }
      const now = clock.now();
      try {
        return await db.transaction(async (tx) => {
          const [job] = await tx
            .update(jobs)
            .set({
              status: 'pending',
              attempts: 0,
              runAt: now,
              lockedBy: null,
              lockedUntil: null,
              updatedAt: now,
            })
            .where(and(eq(jobs.id, id), eq(jobs.status, 'failed')))
            .returning();
          if (!job) throw new AppError('INVALID_STATE', 'The job is no longer failed');
          await deps.audit.record(tx, {
            action: 'job.retry',
            targetType: 'job',
            targetId: String(id),
            before: {
              status: 'failed',
              kind: before.kind,
              attempts: before.attempts,
              lastError: before.lastError,
            },
            after: { status: 'pending', runAt: now.toISOString() },
            requestId,
          });
          return job;
        });
      } catch (err) {
        if (isUniqueViolation(err)) {
          throw new AppError('CONFLICT', 'A job with the same dedupe key is already pending or running');
        }
        throw err;
      }
    },
  };
}

export type DeadLetter = ReturnType<typeof createDeadLetter>;
