import type { FastifyBaseLogger } from 'fastify';
import { randomBase62 } from '../lib/crypto.js';
import type { Clock } from '../lib/clock.js';
import type { Job, JobQueue } from './queue.js';

export interface JobHandler {
  run(job: Job): Promise<void>;
  /** Called once when the last attempt failed (for example: refund an unfulfillable order). */
  onExhausted?(job: Job, error: Error): Promise<void>;
  /** Delay before attempt n+1 after n failed attempts; default exponential from 5 s. */
  backoffMs?(attempts: number): number;
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
  log: FastifyBaseLogger;
  concurrency: number;
  pollIntervalMs: number;
}) {
  const workerId = `w_${randomBase62(10)}`;
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let loop: Promise<void> | undefined;
  let wake: (() => void) | undefined;

  async function runJob(job: Job): Promise<void> {
    const handler = deps.handlers[job.kind];
    if (!handler) {
      await deps.queue.fail(job, `no handler for job kind ${job.kind}`, null);
      return;
    }
    try {
      await handler.run(job);
      await deps.queue.complete(job);
    } catch (err) {
      const error = err instanceof Error ? err : new Error(String(err));
      const attempts = job.attempts + 1;
      const exhausted = attempts >= job.maxAttempts;
      const delay = (handler.backoffMs ?? defaultBackoff)(attempts);
      deps.log.warn({ jobId: job.id, kind: job.kind, attempts, err: error.message }, 'job failed');
      await deps.queue.fail(
        job,
        error.message,
        exhausted ? null : new Date(deps.clock.now().getTime() + delay),
      );
      if (exhausted && handler.onExhausted) {
        try {
          await handler.onExhausted(job, error);
        } catch (e) {
          deps.log.error({ jobId: job.id, err: (e as Error).message }, 'job exhaustion handler failed');
        }
      }
    }
  }

  /** Claims and runs due jobs until none are left; returns how many ran. */
  async function runDue(): Promise<number> {
    let total = 0;
    for (;;) {
      const batch = await deps.queue.claim(workerId, deps.concurrency);
      if (batch.length === 0) return total;
      await Promise.all(batch.map(runJob));
      total += batch.length;
    }
  }

  return {
    workerId,
    runDue,
    start() {
      if (running) return;
      running = true;
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
      })();
    },
    /** Lets a job in flight finish, then stops polling. */
    async stop() {
      running = false;
      if (timer) clearTimeout(timer);
      wake?.();
      await loop;
    },
  };
}

export type Worker = ReturnType<typeof createWorker>;
