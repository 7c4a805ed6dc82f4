/** The background worker: its loop, job retention and the fulfillment retry schedule. */

import { bool, int, type Env } from './parse.js';

export interface WorkerConfig {
  worker: { enabled: boolean; pollIntervalMs: number; concurrency: number };
  /** Retention of finished background jobs, days (failed jobs are kept until an operator acts). */
  jobRetentionDays: number;
  fulfillment: { maxAttempts: number; retryBaseSeconds: number };
}

export function workerConfig(env: Env): WorkerConfig {
  return {
    worker: {
      enabled: bool(env, 'WORKER_ENABLED', true),
      pollIntervalMs: int(env, 'WORKER_POLL_MS', 1000, 10, 60_000),
      concurrency: int(env, 'WORKER_CONCURRENCY', 2, 1, 64),
    },
    jobRetentionDays: int(env, 'JOB_RETENTION_DAYS', 7, 1, 3650),
    fulfillment: {
      maxAttempts: int(env, 'FULFILLMENT_MAX_ATTEMPTS', 5, 1, 100),
      retryBaseSeconds: int(env, 'FULFILLMENT_RETRY_BASE_SECONDS', 30, 0, 86_400),
    },
  };
}
