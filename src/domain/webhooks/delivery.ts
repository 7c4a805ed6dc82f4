import { performance } from 'node:perf_hooks';
import type { Db } from '../../db/client.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { JobHandlers } from '../../jobs/worker.js';
import { DAY, HOUR, SECOND, type Clock } from '../../lib/clock.js';
import { randomBase62 } from '../../lib/crypto.js';
import type { Logger } from '../../lib/logger.js';
import { EVENTS_PURGE_JOB, WEBHOOK_DELIVER_JOB, presentEvent, type EventOutbox } from '../events/outbox.js';
import { nextRetryDelayMs, RETRY_SCHEDULE_MS, type RandomSource } from './retry-policy.js';
import { signatureHeader } from './signature.js';
import { resolveSafeTarget, type Resolver } from './ssrf.js';
import { httpTransport, type WebhookTransport } from './transport.js';
import { webhooksRepository as repo, type WebhookEndpointRow } from './webhooks.repository.js';

/** Standard Webhooks recommends 15 s: long enough for a slow receiver, short enough to move on. */
export const DELIVERY_TIMEOUT_MS = 15 * SECOND;
/** An endpoint whose deliveries keep failing this long is disabled. */
export const DISABLE_AFTER_MS = 5 * DAY;
const PURGE_INTERVAL_MS = HOUR;

export interface DeliveryDeps {
  db: Db;
  clock: Clock;
  queue: JobQueue;
  outbox: EventOutbox;
  allowPrivateUrls: boolean;
  /**
   * DNS, HTTP client and the retries' jitter source, read at each use: tests replace them (DNS
   * rebinding, fake receivers, known jitter).
   */
  net: { resolve?: Resolver; transport?: WebhookTransport; random?: RandomSource };
  log: Logger;
}

/** The job of a partner's resend: one attempt, no automatic retries (the partner is watching). */
export function resendJob(deliveryId: string, attemptsSoFar: number, now: Date) {
  return {
    kind: WEBHOOK_DELIVER_JOB,
    payload: { deliveryId, manual: true },
    runAt: now,
    maxAttempts: 1,
    // Its own key: the delivery's first job may still be `running` for a moment after finishing.
    dedupeKey: `resend:${deliveryId}:${attemptsSoFar}`,
  };
}

/** The secrets a delivery is signed with now: the current one, and the previous one for 24 h. */
export function signingSecrets(endpoint: WebhookEndpointRow, now: Date): string[] {
  const overlap =
    endpoint.previousSecret !== null &&
    endpoint.previousSecretExpiresAt !== null &&
    endpoint.previousSecretExpiresAt.getTime() > now.getTime();
  return overlap ? [endpoint.secret, endpoint.previousSecret!] : [endpoint.secret];
}

/** Thrown by a failed attempt so the job queue schedules the next one, after `delayMs`. */
class DeliveryAttemptError extends Error {
  constructor(
    message: string,
    readonly delayMs: number | null,
  ) {
    super(message);
  }
}

/** Delivering events to endpoints: one attempt per `webhook.deliver` job, each one logged. */
export function createWebhookDelivery(deps: DeliveryDeps) {
  const { db, clock, queue, outbox } = deps;
  const transport = () => deps.net.transport ?? httpTransport;

  async function markFailed(deliveryId: string, error: string): Promise<void> {
    await repo.updateDelivery(
      db,
      deliveryId,
      { status: 'failed', nextAttemptAt: null, lastError: error.slice(0, 500), updatedAt: clock.now() },
      true,
    );
  }

  /**
   * One attempt of one delivery (the `webhook.deliver` job body). `manual`: a partner's resend,
   * which gets no automatic retries.
   */
  async function attempt(deliveryId: string, manual = false): Promise<void> {
    const found = await repo.loadDelivery(db, deliveryId);
    if (!found || found.delivery.status !== 'pending') return;
    const { delivery, endpoint, event } = found;
    if (endpoint.status === 'disabled' && event.type !== 'ping') {
      await markFailed(delivery.id, 'endpoint disabled');
      return;
    }
    const now = clock.now();
    const timestamp = Math.floor(now.getTime() / 1000);
    const body = JSON.stringify(presentEvent(event));
    let status: number | null = null;
    let retryAfter: string | undefined;
    let responseBody: string | null = null;
    let error: string | null = null;
    const started = performance.now();
    try {
      // Checked again at every attempt: the name may resolve elsewhere since the endpoint was made.
      const target = await resolveSafeTarget(endpoint.url, {
        allowPrivate: deps.allowPrivateUrls,
        resolve: deps.net.resolve,
      });
      const response = await transport()(target, {
        body,
        timeoutMs: DELIVERY_TIMEOUT_MS,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'esim-service-webhooks/1',
          // The event id: the same on every attempt and resend, so the receiver can deduplicate.
          'webhook-id': event.id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signatureHeader(signingSecrets(endpoint, now), event.id, timestamp, body),
        },
      });
      status = response.status;
      retryAfter = response.retryAfter;
      responseBody = response.body ?? null;
      if (status < 200 || status > 299) error = `endpoint answered HTTP ${status}`;
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
    }
    const durationMs = Math.max(0, Math.round(performance.now() - started));
    const attempts = delivery.attempts + 1;
    const after = clock.now();
    const logged = {
      id: `wha_${randomBase62(20)}`,
      deliveryId: delivery.id,
      attempt: attempts,
      startedAt: now,
      responseStatus: status,
      error: error?.slice(0, 500) ?? null,
      durationMs,
      responseBody,
      manual,
    };
    if (!error) {
      await db.transaction(async (tx) => {
        await repo.insertAttempt(tx, { ...logged, nextRetryAt: null });
        await repo.updateDelivery(tx, delivery.id, {
          status: 'succeeded',
          attempts,
          lastAttemptAt: now,
          nextAttemptAt: null,
          responseStatus: status,
          lastError: null,
          updatedAt: after,
        });
        await repo.updateEndpoint(tx, endpoint.id, {
          failingSince: null,
          status: 'enabled',
          disabledAt: null,
          updatedAt: after,
        });
      });
      return;
    }
    const gone = status === 410;
    const retryDelay =
      gone || manual
        ? null
        : nextRetryDelayMs({
            attempts,
            status,
            retryAfter,
            now: after,
            random: deps.net.random ?? Math.random,
          });
    const nextRetryAt = retryDelay === null ? null : new Date(after.getTime() + retryDelay);
    let disable = false;
    await db.transaction(async (tx) => {
      await repo.insertAttempt(tx, { ...logged, nextRetryAt });
      await repo.updateDelivery(tx, delivery.id, {
        // A resend or a 410 ends here; a scheduled delivery fails when its job runs out (markFailed).
        ...(gone || manual ? { status: 'failed' as const } : {}),
        attempts,
        lastAttemptAt: now,
        nextAttemptAt: nextRetryAt,
        responseStatus: status,
        lastError: gone ? 'endpoint answered HTTP 410 Gone: endpoint disabled' : error.slice(0, 500),
        updatedAt: after,
      });
      const failingSince = endpoint.failingSince ?? now;
      // 410 Gone: the receiver says the endpoint is no more (Standard Webhooks): disabled at once,
      // until a successful test ping (or the partner) enables it again.
      disable =
        gone ||
        (endpoint.status === 'enabled' && after.getTime() - failingSince.getTime() >= DISABLE_AFTER_MS);
      await repo.updateEndpoint(tx, endpoint.id, {
        failingSince,
        ...(disable ? { status: 'disabled' as const, disabledAt: after } : {}),
        updatedAt: after,
      });
    });
    if (gone) deps.log.warn({ endpointId: endpoint.id }, 'webhook endpoint disabled: it answered 410 Gone');
    else if (disable)
      deps.log.warn({ endpointId: endpoint.id }, 'webhook endpoint disabled after 5 days of failures');
    // Nothing for the queue to retry: the delivery's outcome is recorded.
    if (gone || manual) return;
    throw new DeliveryAttemptError(error, retryDelay);
  }

  function payloadOf(payload: Record<string, unknown>): { deliveryId: string; manual: boolean } {
    if (typeof payload.deliveryId !== 'string') throw new Error('job payload has no deliveryId');
    return { deliveryId: payload.deliveryId, manual: payload.manual === true };
  }

  function slotKey(at: Date): string {
    return `events.purge:${Math.floor(at.getTime() / PURGE_INTERVAL_MS)}`;
  }

  async function schedulePurge(at?: Date): Promise<void> {
    const runAt = at ?? clock.now();
    await queue.enqueue(db, { kind: EVENTS_PURGE_JOB, runAt, dedupeKey: slotKey(runAt) });
  }

  /** Adds the delivery and purge job handlers. */
  function registerJobs(handlers: JobHandlers): void {
    handlers[WEBHOOK_DELIVER_JOB] = {
      run: (job) => {
        const { deliveryId, manual } = payloadOf(job.payload);
        return attempt(deliveryId, manual);
      },
      backoffMs: (attempts, error) =>
        error instanceof DeliveryAttemptError && error.delayMs !== null
          ? error.delayMs
          : RETRY_SCHEDULE_MS[Math.min(attempts, RETRY_SCHEDULE_MS.length) - 1]!,
      async onExhausted(job, error) {
        await markFailed(payloadOf(job.payload).deliveryId, error.message);
      },
    };
    handlers[EVENTS_PURGE_JOB] = {
      async run() {
        try {
          // Deliveries and their attempt logs go with their events (cascade).
          const purged = await outbox.purge();
          if (purged > 0) deps.log.info({ purged }, 'events older than 30 days purged');
        } finally {
          await schedulePurge(new Date(clock.now().getTime() + PURGE_INTERVAL_MS));
        }
      },
    };
  }

  return { attempt, registerJobs, schedulePurge };
}
