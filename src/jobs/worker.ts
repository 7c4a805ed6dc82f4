import { randomBase62 } from '../lib/crypto.js';
import type { Clock } from '../lib/clock.js';
import { LEASE_MS, type Job, type JobQueue } from './queue.js';
import type { Logger } from '../lib/logger.js';
import type { DbOrTx } from '../db/client.js';

/**
 * Given to `onExhausted`: records the job as `handled` in the caller's transaction, so whatever
 * dealt with the failure (a refund) and the job's end commit together.
 */
export type SettleExhausted = (tx: DbOrTx) => Promise<void>;

export interface JobHandler {
  run(job: Job): Promise<void>;
  /**
   * Called when the last attempt failed (for example: refund an unfulfillable order), while the
   * job is still ours and claimable: killed before it returns, the job's lease runs out and it
   * runs again. It calls `settle` in the transaction that dealt with the failure, or the job is
   * dead-lettered (`failed`) once it returns. If it throws, the job is retried after the backoff.
   */
  onExhausted?(job: Job, error: Error, settle: SettleExhausted): Promise<void>;
  /**
   * Delay before attempt n+1 after n failed attempts; default exponential from 5 s. `error` is
   * what run() threw, so a handler can carry a delay it decided (a receiver's Retry-After).
   */
  backoffMs?(attempts: number, error: Error): number;
}

export type JobHandlers = Record<string, JobHandler>;

const defaultBackoff = (attempts: number) => Math.min(5_000 * 2 ** (attempts - 1), 60 * 60 * 1000);

/**
 * Runs due jobs. Any number of workers (in one process or many) may run against one database:
 * the queue's claim hands each job to exactly one of them.
 */
export function createWorker(deps: {
  queue: JobQueue;
  handlers: JobHandlers;
  clock: Clock;
  log: Logger;
  concurrency: number;
  pollIntervalMs: number;
  /** How long stop() waits for jobs in flight; a job still running then keeps its lease and is retried. */
  stopTimeoutMs?: number;
}) {
  const workerId = `w_${randomBase62(10)}`;
  let running = false;
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let loop: Promise<void> | undefined;
  let wake: (() => void) | undefined;
  /**
   * Jobs this worker ran to success and has not yet marked done, with their lease heartbeats: the
   * next claim marks them done in its own statement (or stop() does), and only then do their
   * heartbeats stop, so no other worker takes over a finished job while it waits.
   */
  const finished = new Map<Job, NodeJS.Timeout>();

  /** One claim statement: marks the finished jobs done and claims up to `limit` due ones. */
  async function claimAfterFinished(limit: number): Promise<Job[]> {
    const done = [...finished.keys()];
    const batch = await deps.queue.claim(workerId, limit, done);
    for (const job of done) {
      clearInterval(finished.get(job));
      finished.delete(job);
    }
    return batch;
  }

  async function runJob(job: Job): Promise<void> {
    const handler = deps.handlers[job.kind];
    if (!handler) {
      await deps.queue.fail(job, `no handler for job kind ${job.kind}`, null);
      return;
    }
    // Keep the lease while the job runs, so only a dead worker's jobs are taken over.
    const heartbeat = setInterval(() => {
      deps.queue.extend(job).catch(() => undefined);
    }, LEASE_MS / 3);
    heartbeat.unref();
    try {
      await handler.run(job);
      finished.set(job, heartbeat);
    } catch (err) {
      const error = err instanceof Error ? err : new Error(String(err));
      const attempts = job.attempts + 1;
      const exhausted = attempts >= job.maxAttempts;
      const delay = (handler.backoffMs ?? defaultBackoff)(attempts, error);
      deps.log.warn({ jobId: job.id, kind: job.kind, attempts, err: error.message }, 'job failed');
      const retryAt = new Date(deps.clock.now().getTime() + delay);
      try {
        if (exhausted && handler.onExhausted)
          await exhaust(job, handler.onExhausted.bind(handler), error, retryAt);
        else await deps.queue.fail(job, error.message, exhausted ? null : retryAt);
      } finally {
        // Renewed until the outcome is recorded: a slow refund keeps the job from a second worker.
        clearInterval(heartbeat);
      }
    }
  }

  /**
   * The exhaustion handler runs BEFORE the job leaves `running` (issue 28 H21): marking it failed
   * first left a window (a kill, a throwing refund) in which the job was dead and its order still
   * charged, with nothing to retry the refund.
   */
  async function exhaust(
    job: Job,
    onExhausted: NonNullable<JobHandler['onExhausted']>,
    error: Error,
    retryAt: Date,
  ): Promise<void> {
    let settled = false;
    try {
      await onExhausted(job, error, async (tx) => {
        await deps.queue.markHandled(tx, job, error.message);
        settled = true;
      });
    } catch (e) {
      const message = (e as Error).message;
      deps.log.error({ jobId: job.id, err: message }, 'job exhaustion handler failed; retried later');
      await deps.queue.fail(job, `${error.message} (exhaustion handler failed: ${message})`, retryAt);
      return;
    }
    if (!settled) await deps.queue.fail(job, error.message, null);
  }

  /**
   * Claims and runs due jobs until none are left (or stop() was called); returns how many ran.
   * Every job it ran has its outcome recorded when it returns.
   */
  async function runDue(): Promise<number> {
    let total = 0;
    while (!stopping) {
      const batch = await claimAfterFinished(deps.concurrency);
      if (batch.length === 0) return total;
      await Promise.all(batch.map(runJob));
      total += batch.length;
    }
    // Stopping: record what finished, claim nothing.
    if (finished.size > 0) await claimAfterFinished(0);
    return total;
  }

  return {
    workerId,
    runDue,
    start() {
      if (running) return;
      running = true;
      stopping = false;
      loop = (async () => {
        while (running) {
          try {
            await runDue();
          } catch (err) {
            deps.log.error({ err: (err as Error).message }, 'job poll failed');
          }
          if (!running) break;
          await new Promise<void>((resolve) => {
            wake = resolve;
            timer = setTimeout(resolve, deps.pollIntervalMs);
            timer.unref();
          });
        }
        // runDue records finished jobs on its way out; if its last claim failed, try once more,
        // then stop renewing what is left (the leases run out and any worker runs those again).
        if (finished.size > 0) await claimAfterFinished(0).catch(() => undefined);
        for (const heartbeat of finished.values()) clearInterval(heartbeat);
        finished.clear();
      })();
    },
    /**
     * Stops claiming, lets the jobs in flight finish (up to stopTimeoutMs), then resolves. A job
     * cut off by the timeout is not lost: its lease runs out and any worker runs it again.
     */
    async stop() {
      running = false;
      stopping = true;
      if (timer) clearTimeout(timer);
      wake?.();
      if (!loop) return;
      const current = loop;
      if (deps.stopTimeoutMs === undefined) return void (await current);
      let limit: NodeJS.Timeout | undefined;
      const timedOut = await Promise.race([
        current.then(() => false),
        new Promise<boolean>((resolve) => {
          limit = setTimeout(() => resolve(true), deps.stopTimeoutMs);
        }),
      ]);
      clearTimeout(limit);
      if (timedOut) {
        // Finished jobs not recorded by now (the database did not answer) are not renewed any
        // longer either: their leases run out and any worker runs them again.
        for (const heartbeat of finished.values()) clearInterval(heartbeat);
        deps.log.warn('worker stopped with jobs still running; their leases will expire');
      }
    },
  };
}

export type Worker = ReturnType<typeof createWorker>;
