import { and, asc, count, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { keysetAfter, type KeyValue } from '../../db/keyset.js';
import {
  accounts,
  events,
  jobs,
  webhookDeliveries,
  webhookDeliveryAttempts,
  webhookEndpoints,
} from '../../db/schema/index.js';

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
export type WebhookAttemptRow = typeof webhookDeliveryAttempts.$inferSelect;
type EndpointChanges = Partial<Omit<WebhookEndpointRow, 'id' | 'accountId' | 'livemode' | 'createdAt'>>;
type DeliveryChanges = Partial<Omit<WebhookDeliveryRow, 'id' | 'eventId' | 'endpointId' | 'createdAt'>>;

/** Whose endpoints: an account in one mode (a test key never sees live endpoints, nor the reverse). */
export interface EndpointOwner {
  accountId: string;
  livemode: boolean;
}

/** A delivery as its endpoint's log shows it: with its event's type. */
export interface DeliveryLogRow extends WebhookDeliveryRow {
  eventType: string;
}

const ownedBy = (owner: EndpointOwner) =>
  and(eq(webhookEndpoints.accountId, owner.accountId), eq(webhookEndpoints.livemode, owner.livemode));

/** The SQL of webhook endpoints, their deliveries and the deliveries' attempts. */
export const webhooksRepository = {
  /** Locks the account row: serialises endpoint creations so the per-account limit holds. */
  async lockAccount(tx: DbOrTx, accountId: string): Promise<void> {
    await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId)).for('update');
  },

  async countEndpoints(tx: DbOrTx, owner: EndpointOwner): Promise<number> {
    const [row] = await tx.select({ n: count() }).from(webhookEndpoints).where(ownedBy(owner));
    return row?.n ?? 0;
  },

  async insertEndpoint(
    tx: DbOrTx,
    values: typeof webhookEndpoints.$inferInsert,
  ): Promise<WebhookEndpointRow> {
    const [row] = await tx.insert(webhookEndpoints).values(values).returning();
    return row!;
  },

  async listEndpoints(db: DbOrTx, owner: EndpointOwner): Promise<WebhookEndpointRow[]> {
    return db
      .select()
      .from(webhookEndpoints)
      .where(ownedBy(owner))
      .orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id));
  },

  /** One endpoint of `owner`; `lock` takes its row lock (changes that read before they write). */
  async findEndpoint(
    db: DbOrTx,
    owner: EndpointOwner,
    id: string,
    lock = false,
  ): Promise<WebhookEndpointRow | undefined> {
    const query = db
      .select()
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.id, id), ownedBy(owner)));
    const [row] = lock ? await query.for('update') : await query;
    return row;
  },

  async updateEndpoint(db: DbOrTx, id: string, changes: EndpointChanges): Promise<WebhookEndpointRow> {
    const [row] = await db
      .update(webhookEndpoints)
      .set(changes)
      .where(eq(webhookEndpoints.id, id))
      .returning();
    return row!;
  },

  /** Its deliveries and their attempts go with it (cascade); their queued jobs then find nothing. */
  async deleteEndpoint(db: DbOrTx, id: string): Promise<void> {
    await db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id));
  },

  /** A delivery with its endpoint and event (what an attempt needs). */
  async loadDelivery(db: DbOrTx, deliveryId: string) {
    const [row] = await db
      .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints, event: events })
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
      .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
      .where(eq(webhookDeliveries.id, deliveryId));
    return row;
  },

  /** One delivery of an endpoint, locked (a resend reads its state, then changes it). */
  async lockDelivery(
    tx: DbOrTx,
    endpointId: string,
    deliveryId: string,
  ): Promise<WebhookDeliveryRow | undefined> {
    const [row] = await tx
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, endpointId)))
      .for('update');
    return row;
  },

  async updateDelivery(db: DbOrTx, id: string, changes: DeliveryChanges, onlyPending = false): Promise<void> {
    await db
      .update(webhookDeliveries)
      .set(changes)
      .where(
        onlyPending
          ? and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.status, 'pending'))
          : eq(webhookDeliveries.id, id),
      );
  },

  async insertAttempt(db: DbOrTx, values: typeof webhookDeliveryAttempts.$inferInsert): Promise<void> {
    await db.insert(webhookDeliveryAttempts).values(values);
  },

  /**
   * An endpoint's deliveries, newest first (created_at, id), after the keyset position `after`,
   * with their event's type; `take` rows at most.
   */
  async listDeliveries(
    db: DbOrTx,
    endpointId: string,
    page: { after?: readonly KeyValue[] | undefined; take: number; deliveryId?: string },
  ): Promise<DeliveryLogRow[]> {
    const conditions = [eq(webhookDeliveries.endpointId, endpointId)];
    if (page.deliveryId) conditions.push(eq(webhookDeliveries.id, page.deliveryId));
    if (page.after)
      conditions.push(keysetAfter([webhookDeliveries.createdAt, webhookDeliveries.id], page.after, 'desc'));
    const rows = await db
      .select({ delivery: webhookDeliveries, eventType: events.type })
      .from(webhookDeliveries)
      .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
      .where(and(...conditions))
      .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
      .limit(page.take);
    return rows.map((r) => ({ ...r.delivery, eventType: r.eventType }));
  },

  /** The attempts of these deliveries, oldest first within each. */
  async attemptsOf(db: DbOrTx, deliveryIds: string[]): Promise<WebhookAttemptRow[]> {
    if (deliveryIds.length === 0) return [];
    return db
      .select()
      .from(webhookDeliveryAttempts)
      .where(inArray(webhookDeliveryAttempts.deliveryId, deliveryIds))
      .orderBy(asc(webhookDeliveryAttempts.deliveryId), asc(webhookDeliveryAttempts.attempt));
  },

  /**
   * Brings the delivery's waiting job (a scheduled retry) forward to `now`; answers whether there
   * was one still pending or already running (then no second job may be queued).
   */
  async hurryDeliveryJob(tx: DbOrTx, dedupeKey: string, now: Date): Promise<boolean> {
    await tx
      .update(jobs)
      .set({ runAt: now, updatedAt: now })
      .where(and(eq(jobs.dedupeKey, dedupeKey), sql`${jobs.status} = 'pending'`, gt(jobs.runAt, now)));
    const [active] = await tx
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.dedupeKey, dedupeKey), sql`${jobs.status} in ('pending', 'running')`));
    return active !== undefined;
  },
};
