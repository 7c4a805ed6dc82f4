import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { webhookDeliveries, webhookEndpoints } from '../../db/schema/index.js';

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
