import { and, asc, count, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { accounts, events, webhookDeliveries, webhookEndpoints } from '../../db/schema/index.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { JobHandlers } from '../../jobs/worker.js';
import { DAY, HOUR, SECOND, type Clock } from '../../lib/clock.js';
import { randomBase62 } from '../../lib/crypto.js';
import { AppError } from '../errors.js';
import {
  EVENTS_PURGE_JOB,
  WEBHOOK_DELIVER_JOB,
  presentEvent,
  type EventOutbox,
  type EventRow,
  type EventType,
} from '../events/outbox.js';
import type { PingData } from '../events/partner-objects.js';
import { nextRetryDelayMs, RETRY_SCHEDULE_MS, type RandomSource } from './retry-policy.js';
import { resolveSafeTarget, UnsafeUrlError, type Resolver } from './ssrf.js';
import { newWebhookSecret, signWebhook } from './signature.js';
import { httpTransport, type WebhookTransport } from './transport.js';
import type { Logger } from '../../lib/logger.js';

export { RETRY_SCHEDULE_MS } from './retry-policy.js';

export const MAX_ENDPOINTS_PER_ACCOUNT = 10;
/** Standard Webhooks recommends 15 s: long enough for a slow receiver, short enough to move on. */
export const DELIVERY_TIMEOUT_MS = 15 * SECOND;
/** An endpoint whose deliveries keep failing this long is disabled. */
export const DISABLE_AFTER_MS = 5 * DAY;
const PURGE_INTERVAL_MS = HOUR;

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;

export interface CreateEndpointInput {
  accountId: string;
  url: string;
  events?: EventType[];
  description?: string;
  livemode?: boolean;
}

export interface WebhooksDeps {
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

/** Thrown by a failed attempt so the job queue schedules the next one, after `delayMs`. */
class DeliveryAttemptError extends Error {
  constructor(
    message: string,
    readonly delayMs: number | null,
  ) {
    super(message);
  }
}

export function createWebhooksService(deps: WebhooksDeps) {
  const { db, clock, queue, outbox } = deps;
  const transport = () => deps.net.transport ?? httpTransport;

  async function checkUrl(url: string) {
    return resolveSafeTarget(url, { allowPrivate: deps.allowPrivateUrls, resolve: deps.net.resolve });
  }

  async function create(input: CreateEndpointInput): Promise<WebhookEndpointRow> {
    try {
      await checkUrl(input.url);
    } catch (err) {
      if (err instanceof UnsafeUrlError)
        throw new AppError('VALIDATION_ERROR', err.message, { field: 'url' });
      throw err;
    }
    const types = input.events ? [...new Set(input.events)] : null;
    return db.transaction(async (tx) => {
      // The account row lock serialises concurrent creations, so the limit holds under races.
      await tx
        .select({ id: accounts.id })
        .from(accounts)
        .where(eq(accounts.id, input.accountId))
        .for('update');
      const [{ n } = { n: 0 }] = await tx
        .select({ n: count() })
        .from(webhookEndpoints)
        // Each mode has its own limit: test endpoints never crowd out live ones (H5).
        .where(
          and(
            eq(webhookEndpoints.accountId, input.accountId),
            eq(webhookEndpoints.livemode, input.livemode ?? true),
          ),
        );
      if (n >= MAX_ENDPOINTS_PER_ACCOUNT)
        throw new AppError(
          'CONFLICT',
          `An account can have at most ${MAX_ENDPOINTS_PER_ACCOUNT} webhook endpoints; delete one first`,
          { limit: MAX_ENDPOINTS_PER_ACCOUNT },
        );
      const now = clock.now();
      const [row] = await tx
        .insert(webhookEndpoints)
        .values({
          id: `we_${randomBase62(20)}`,
          accountId: input.accountId,
          url: input.url,
          description: input.description ?? null,
          eventTypes: types,
          secret: newWebhookSecret(),
          livemode: input.livemode ?? true,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      return row!;
    });
  }

  async function list(accountId: string, livemode = true): Promise<WebhookEndpointRow[]> {
    return db
      .select()
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.accountId, accountId), eq(webhookEndpoints.livemode, livemode)))
      .orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id));
  }

  async function find(accountId: string, id: string, livemode = true): Promise<WebhookEndpointRow> {
    const [row] = await db
      .select()
      .from(webhookEndpoints)
      .where(
        and(
          eq(webhookEndpoints.id, id),
          eq(webhookEndpoints.accountId, accountId),
          eq(webhookEndpoints.livemode, livemode),
        ),
      );
    if (!row) throw new AppError('NOT_FOUND', 'Webhook endpoint not found');
    return row;
  }

  async function remove(accountId: string, id: string, livemode = true): Promise<void> {
    await find(accountId, id, livemode);
    // Its deliveries go with it (cascade); their queued jobs then find nothing to do.
    await db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id));
  }

  /** Queues a `ping` event to this endpoint only (also to a disabled one: a success re-enables it). */
  async function ping(accountId: string, id: string, livemode = true): Promise<EventRow> {
    const endpoint = await find(accountId, id, livemode);
    return db.transaction((tx) =>
      outbox.emitEvent(tx, {
        accountId,
        type: 'ping',
        livemode: endpoint.livemode,
        onlyEndpointId: endpoint.id,
        data: { endpointId: endpoint.id, message: 'Webhook test from the eSIM service' } satisfies PingData,
      }),
    );
  }

  async function loadDelivery(deliveryId: string) {
    const [row] = await db
      .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints, event: events })
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
      .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
      .where(eq(webhookDeliveries.id, deliveryId));
    return row;
  }

  async function markFailed(deliveryId: string, error: string): Promise<void> {
    await db
      .update(webhookDeliveries)
      .set({ status: 'failed', nextAttemptAt: null, lastError: error.slice(0, 500), updatedAt: clock.now() })
      .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.status, 'pending')));
  }

  /** One attempt of one delivery (the `webhook.deliver` job body). */
  async function attempt(deliveryId: string): Promise<void> {
    const found = await loadDelivery(deliveryId);
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
    let error: string | null = null;
    try {
      // Checked again at every attempt: the name may resolve elsewhere since the endpoint was made.
      const target = await checkUrl(endpoint.url);
      const response = await transport()(target, {
        body,
        timeoutMs: DELIVERY_TIMEOUT_MS,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'esim-service-webhooks/1',
          'webhook-id': event.id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signWebhook(endpoint.secret, event.id, timestamp, body),
        },
      });
      status = response.status;
      retryAfter = response.retryAfter;
      if (status < 200 || status > 299) error = `endpoint answered HTTP ${status}`;
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
    }
    const attempts = delivery.attempts + 1;
    const after = clock.now();
    if (!error) {
      await db.transaction(async (tx) => {
        await tx
          .update(webhookDeliveries)
          .set({
            status: 'succeeded',
            attempts,
            lastAttemptAt: now,
            nextAttemptAt: null,
            responseStatus: status,
            lastError: null,
            updatedAt: after,
          })
          .where(eq(webhookDeliveries.id, delivery.id));
        await tx
          .update(webhookEndpoints)
          .set({ failingSince: null, status: 'enabled', disabledAt: null, updatedAt: after })
          .where(eq(webhookEndpoints.id, endpoint.id));
      });
      return;
    }
    if (status === 410) {
      await disableGone(delivery.id, endpoint.id, attempts, now, after);
      return;
    }
    const retryDelay = nextRetryDelayMs({
      attempts,
      status,
      retryAfter,
      now: after,
      random: deps.net.random ?? Math.random,
    });
    await db.transaction(async (tx) => {
      await tx
        .update(webhookDeliveries)
        .set({
          attempts,
          lastAttemptAt: now,
          nextAttemptAt: retryDelay === null ? null : new Date(after.getTime() + retryDelay),
          responseStatus: status,
          lastError: error.slice(0, 500),
          updatedAt: after,
        })
        .where(eq(webhookDeliveries.id, delivery.id));
      const failingSince = endpoint.failingSince ?? now;
      const disable =
        endpoint.status === 'enabled' && after.getTime() - failingSince.getTime() >= DISABLE_AFTER_MS;
      await tx
        .update(webhookEndpoints)
        .set({
          failingSince,
          ...(disable ? { status: 'disabled' as const, disabledAt: after } : {}),
          updatedAt: after,
        })
        .where(eq(webhookEndpoints.id, endpoint.id));
      if (disable)
        deps.log.warn({ endpointId: endpoint.id }, 'webhook endpoint disabled after 5 days of failures');
    });
    throw new DeliveryAttemptError(error, retryDelay);
  }

  /**
   * 410 Gone: the receiver says the endpoint is no more (Standard Webhooks). The delivery fails
   * without retries and the endpoint is disabled at once, so nothing more is sent to it until a
   * successful test ping enables it again.
   */
  async function disableGone(
    deliveryId: string,
    endpointId: string,
    attempts: number,
    now: Date,
    after: Date,
  ) {
    await db.transaction(async (tx) => {
      await tx
        .update(webhookDeliveries)
        .set({
          status: 'failed',
          attempts,
          lastAttemptAt: now,
          nextAttemptAt: null,
          responseStatus: 410,
          lastError: 'endpoint answered HTTP 410 Gone: endpoint disabled',
          updatedAt: after,
        })
        .where(eq(webhookDeliveries.id, deliveryId));
      await tx
        .update(webhookEndpoints)
        .set({ status: 'disabled', disabledAt: after, updatedAt: after })
        .where(eq(webhookEndpoints.id, endpointId));
    });
    deps.log.warn({ endpointId }, 'webhook endpoint disabled: it answered 410 Gone');
  }

  function deliveryIdOf(payload: Record<string, unknown>): string {
    if (typeof payload.deliveryId !== 'string') throw new Error('job payload has no deliveryId');
    return payload.deliveryId;
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
      run: (job) => attempt(deliveryIdOf(job.payload)),
      backoffMs: (attempts, error) =>
        error instanceof DeliveryAttemptError && error.delayMs !== null
          ? error.delayMs
          : RETRY_SCHEDULE_MS[Math.min(attempts, RETRY_SCHEDULE_MS.length) - 1]!,
      async onExhausted(job, error) {
        await markFailed(deliveryIdOf(job.payload), error.message);
      },
    };
    handlers[EVENTS_PURGE_JOB] = {
      async run() {
        try {
          const purged = await outbox.purge();
          if (purged > 0) deps.log.info({ purged }, 'events older than 30 days purged');
        } finally {
          await schedulePurge(new Date(clock.now().getTime() + PURGE_INTERVAL_MS));
        }
      },
    };
  }

  return { create, list, find, remove, ping, attempt, registerJobs, schedulePurge };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
