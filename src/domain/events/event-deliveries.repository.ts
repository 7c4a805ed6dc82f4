import { and, asc, eq, gte, inArray, like, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  events,
  webhookDeliveries,
  webhookDeliveryAttempts,
  webhookEndpoints,
} from '../../db/schema/index.js';

/** What the dashboard's event detail shows of each delivery an event caused (issue 32 C3). */
export interface EventDelivery {
  id: string;
  endpointId: string;
  endpointUrl: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
  responseStatus: number | null;
  lastError: string | null;
}

/**
 * The deliveries of one event with their endpoint's URL (webhook_deliveries_event_endpoint_unique
 * leads with event_id), oldest first. Reads the delivery row's own columns only: each attempt's
 * detail is the webhook delivery log's.
 */
export async function deliveriesOfEvent(db: Db, eventId: string): Promise<EventDelivery[]> {
  const rows = await db
    .select({
      id: webhookDeliveries.id,
      endpointId: webhookDeliveries.endpointId,
      endpointUrl: webhookEndpoints.url,
      status: webhookDeliveries.status,
      attempts: webhookDeliveries.attempts,
      lastAttemptAt: webhookDeliveries.lastAttemptAt,
      nextAttemptAt: webhookDeliveries.nextAttemptAt,
      responseStatus: webhookDeliveries.responseStatus,
      lastError: webhookDeliveries.lastError,
    })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(eq(webhookDeliveries.eventId, eventId))
    .orderBy(asc(webhookDeliveries.createdAt), asc(webhookDeliveries.id));
  return rows.map((r) => ({
    ...r,
    lastAttemptAt: r.lastAttemptAt?.toISOString() ?? null,
    // A delivery that succeeded or gave up has no next attempt, whatever the row kept.
    nextAttemptAt: r.status === 'pending' ? (r.nextAttemptAt?.toISOString() ?? null) : null,
  }));
}

/** One partner event about an order, with each delivery and its attempts (an order's timeline). */
export interface OrderEventLog {
  id: string;
  type: string;
  createdAt: Date;
  deliveries: Array<{
    id: string;
    endpointUrl: string;
    status: 'pending' | 'succeeded' | 'failed';
    createdAt: Date;
    attempts: Array<{
      attempt: number;
      startedAt: Date;
      responseStatus: number | null;
      error: string | null;
      durationMs: number;
      manual: boolean;
    }>;
  }>;
}

/**
 * The `order.*` events announcing one order (their `data` is the order, so `data.id` is its id),
 * oldest first, with their deliveries and attempts. On events_account_order_idx (the account and
 * mode); events are kept 30 days, so this reads at most a month of the account's events.
 */
export async function orderEventLog(
  db: Db,
  order: { id: string; accountId: string; livemode: boolean; createdAt: Date },
): Promise<OrderEventLog[]> {
  const rows = await db
    .select({ id: events.id, type: events.type, createdAt: events.createdAt })
    .from(events)
    .where(
      and(
        eq(events.accountId, order.accountId),
        eq(events.livemode, order.livemode),
        gte(events.createdAt, order.createdAt),
        like(events.type, 'order.%'),
        sql`${events.data} ->> 'id' = ${order.id}`,
      ),
    )
    .orderBy(asc(events.createdAt), asc(events.seq));
  if (rows.length === 0) return [];
  const deliveries = await db
    .select({
      id: webhookDeliveries.id,
      eventId: webhookDeliveries.eventId,
      endpointUrl: webhookEndpoints.url,
      status: webhookDeliveries.status,
      createdAt: webhookDeliveries.createdAt,
    })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(
      inArray(
        webhookDeliveries.eventId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(webhookDeliveries.createdAt), asc(webhookDeliveries.id));
  const attempts = deliveries.length
    ? await db
        .select()
        .from(webhookDeliveryAttempts)
        .where(
          inArray(
            webhookDeliveryAttempts.deliveryId,
            deliveries.map((d) => d.id),
          ),
        )
        .orderBy(asc(webhookDeliveryAttempts.attempt))
    : [];
  return rows.map((event) => ({
    ...event,
    deliveries: deliveries
      .filter((d) => d.eventId === event.id)
      .map(({ eventId: _eventId, ...d }) => ({
        ...d,
        attempts: attempts
          .filter((a) => a.deliveryId === d.id)
          .map((a) => ({
            attempt: a.attempt,
            startedAt: a.startedAt,
            responseStatus: a.responseStatus,
            error: a.error,
            durationMs: a.durationMs,
            manual: a.manual,
          })),
      })),
  }));
}
