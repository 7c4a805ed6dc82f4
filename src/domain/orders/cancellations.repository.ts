import { and, eq, gte, inArray, sql } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../../db/client.js';
import { esims, orderCancellations, orders } from '../../db/schema/index.js';
import type { EsimRow, OrderRow } from './ports.js';

/**
 * The SQL of self-service cancellations (issue 31 L4), part of the orders aggregate (its own
 * file beside ./orders.repository.ts, which is near its size limit). One `order_cancellations`
 * row per order is the claim: only the request (or job) that wrote it `pending` goes to the
 * provider and the wallet.
 */
export type CancellationRow = typeof orderCancellations.$inferSelect;

export type ClaimOutcome =
  | { kind: 'claimed'; cancellation: CancellationRow }
  /** Another cancel of this order holds it (pending) or finished it (done). */
  | { kind: 'taken'; cancellation: CancellationRow }
  | { kind: 'limit' }
  /** The order is no longer COMPLETED. */
  | { kind: 'state' };

/** Statuses that count toward the per-account limit: claimed or refunded, not given up. */
const COUNTED = ['pending', 'done'] as const;

/** The account row, then the order row, locked: the one lock order of every cancellation write. */
async function lockAccountAndOrder(tx: Tx, accountId: string, orderId: string) {
  await tx.execute(sql`select id from accounts where id = ${accountId} for update`);
  const [current] = await tx
    .select({ status: orders.status })
    .from(orders)
    .where(eq(orders.id, orderId))
    .for('update');
  return current;
}

export function createCancellationsRepository(db: Db) {
  async function countRecent(reader: DbOrTx, accountId: string, livemode: boolean, since: Date) {
    const [row] = await reader
      .select({ n: sql<number>`count(*)::int` })
      .from(orderCancellations)
      .where(
        and(
          eq(orderCancellations.accountId, accountId),
          eq(orderCancellations.livemode, livemode),
          inArray(orderCancellations.status, COUNTED),
          gte(orderCancellations.createdAt, since),
        ),
      );
    return row?.n ?? 0;
  }

  return {
    async find(orderId: string, reader: DbOrTx = db): Promise<CancellationRow | undefined> {
      const [row] = await reader
        .select()
        .from(orderCancellations)
        .where(eq(orderCancellations.orderId, orderId));
      return row;
    },

    /** Self-service refunds of the account (one mode) since `since`, pending ones included. */
    countRecent: (accountId: string, livemode: boolean, since: Date) =>
      countRecent(db, accountId, livemode, since),

    /**
     * The claim, in the caller's transaction: the account row is locked first, so two cancels of
     * one account (of different orders) count each other and the limit holds under concurrency;
     * the order must still be COMPLETED; a released claim may be taken again.
     */
    async claim(
      tx: Tx,
      order: Pick<OrderRow, 'id' | 'accountId' | 'livemode'>,
      input: { now: Date; since: Date; limit: number },
    ): Promise<ClaimOutcome> {
      const current = await lockAccountAndOrder(tx, order.accountId, order.id);
      const existing = await this.find(order.id, tx);
      if (existing && existing.status !== 'released') return { kind: 'taken', cancellation: existing };
      if (current?.status !== 'COMPLETED') return { kind: 'state' };
      if ((await countRecent(tx, order.accountId, order.livemode, input.since)) >= input.limit)
        return { kind: 'limit' };
      const values = {
        orderId: order.id,
        accountId: order.accountId,
        livemode: order.livemode,
        status: 'pending' as const,
        error: null,
        createdAt: input.now,
        updatedAt: input.now,
        completedAt: null,
      };
      const [cancellation] = await tx
        .insert(orderCancellations)
        .values(values)
        .onConflictDoUpdate({
          target: orderCancellations.orderId,
          set: values,
          where: eq(orderCancellations.status, 'released'),
        })
        .returning();
      if (cancellation) return { kind: 'claimed', cancellation };
      return { kind: 'taken', cancellation: (await this.find(order.id, tx))! };
    },

    /** pending → released (nothing was refunded); false when it was not pending. */
    async release(orderId: string, error: string, now: Date): Promise<boolean> {
      const rows = await db
        .update(orderCancellations)
        .set({ status: 'released', error: error.slice(0, 500), updatedAt: now })
        .where(and(eq(orderCancellations.orderId, orderId), eq(orderCancellations.status, 'pending')))
        .returning();
      return rows.length > 0;
    },

    /**
     * The refunding transaction's order-side writes: the claim pending → done, the order
     * COMPLETED → REFUNDED, its eSIMs CANCELLED. Undefined (nothing written) unless the claim was
     * pending and the order COMPLETED: a second finisher writes nothing.
     */
    async finish(
      tx: Tx,
      target: Pick<OrderRow, 'id' | 'accountId'>,
      now: Date,
    ): Promise<{ order: OrderRow; esims: EsimRow[] } | undefined> {
      const orderId = target.id;
      // Locks in the claim's order (account, order, then the claim row): a claim racing this
      // finish otherwise holds the order and waits for the claim row while we hold the claim row
      // and wait for the order (or the account, for the refund): a deadlock on PostgreSQL.
      await lockAccountAndOrder(tx, target.accountId, orderId);
      const [done] = await tx
        .update(orderCancellations)
        .set({ status: 'done', updatedAt: now, completedAt: now })
        .where(and(eq(orderCancellations.orderId, orderId), eq(orderCancellations.status, 'pending')))
        .returning();
      if (!done) return undefined;
      const [order] = await tx
        .update(orders)
        .set({ status: 'REFUNDED', updatedAt: now, lastError: 'cancelled and refunded by the customer' })
        .where(and(eq(orders.id, orderId), eq(orders.status, 'COMPLETED')))
        .returning();
      // The claim was taken on a COMPLETED order and nothing else leaves COMPLETED: throwing rolls
      // the claim's change back rather than marking it done without the refund.
      if (!order) throw new Error(`order ${orderId} is not COMPLETED; its cancellation cannot finish`);
      const cancelled = await tx
        .update(esims)
        .set({ status: 'CANCELLED', updatedAt: now })
        .where(eq(esims.orderId, orderId))
        .returning();
      return {
        order,
        esims: cancelled.sort(
          (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1),
        ),
      };
    },
  };
}

export type CancellationsRepository = ReturnType<typeof createCancellationsRepository>;
