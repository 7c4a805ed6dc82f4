import { and, asc, count, desc, eq, getTableColumns, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import type { WithSubqueryWithSelection } from 'drizzle-orm/pg-core';
import type { Db, DbOrTx, Tx } from '../../db/client.js';
import { keysetAfter, type KeyValue } from '../../db/keyset.js';
import { columnList, typedValueRows, type InsertRow } from '../../db/reusable.js';
import { esims, fulfillmentAttempts, orders, plans } from '../../db/schema/index.js';
import { produced, rowsOf, step, type Step } from '../../db/steps.js';
import { newId } from '../../lib/ids.js';
import type { OrderChannel } from './order-numbers.js';
import type { EsimRow, OrderRow } from './ports.js';

/**
 * The orders aggregate's SQL: orders, their eSIMs and their fulfillment attempts. Reads and the
 * aggregate's own writes are functions of `createOrdersRepository`; the steps below are its writes
 * inside the placing and completing statements (./place-order.ts, ./complete-order.ts), which
 * compose them with the other aggregates' steps (src/db/steps.ts).
 */

/** The columns an order is placed with; the rest take their defaults. */
export const ORDER_COLUMNS = [
  'id',
  'orderNumber',
  'accountId',
  'channel',
  'planId',
  'quantity',
  'topUpIccid',
  'topUpEsimId',
  'amountCents',
  'paymentMethod',
  'status',
  'createdAt',
  'updatedAt',
  'livemode',
] as const satisfies ReadonlyArray<keyof typeof orders.$inferInsert>;

export type NewOrderRow = InsertRow<typeof orders, typeof ORDER_COLUMNS>;

export const ESIM_COLUMNS = [
  'id',
  'orderId',
  'accountId',
  'planId',
  'iccid',
  'providerRef',
  'smdpAddress',
  'matchingId',
  'activationCode',
  'qrToken',
  'installToken',
  'status',
  'dataUsageMb',
  'totalVolumeMb',
  'usageCheckedAt',
  'activatedAt',
  'expiresAt',
  'createdAt',
  'updatedAt',
  'livemode',
] as const satisfies ReadonlyArray<keyof typeof esims.$inferInsert>;

export type NewEsimRow = InsertRow<typeof esims, typeof ESIM_COLUMNS>;

/** The typed CTEs of `orderSteps.placed` and `orderSteps.done`, for the statements selecting them. */
export type PlacedCte = WithSubqueryWithSelection<typeof orders._.columns, 'placed'>;
export type DoneCte = WithSubqueryWithSelection<typeof orders._.columns, 'done'>;

/** A completion's values: which order, when. */
export type CompletionValues = { orderId: string; now: Date };
/** A completion attempt's values. */
export type AttemptValues = { attemptId: string; source: string };
/** A top-up completion's values: the eSIM and what its profile now says. */
export type TopUpValues = Pick<NewEsimRow, 'status' | 'totalVolumeMb' | 'dataUsageMb' | 'expiresAt'> & {
  esimId: string;
};

const list = <F extends string>(p: (field: F) => SQL, fields: readonly F[]) =>
  sql.join(
    fields.map((f) => p(f)),
    sql`, `,
  );

export const orderSteps = {
  /**
   * `placed`: the new order (values: NewOrderRow), once per row of the earlier step `source`
   * when given, else once; only where `where` holds.
   */
  placed: (source: Step<object> | undefined, where?: SQL) =>
    step<NewOrderRow, unknown>('placed', (db, p, name) => {
      const rows = source ? sql`from ${rowsOf(source)}` : sql``;
      const only = where ? sql`where ${where}` : sql``;
      return db
        .$with(name, getTableColumns(orders))
        .as(
          sql`insert into ${orders} (${columnList(orders, ORDER_COLUMNS)}) select ${list(p, ORDER_COLUMNS)} ${rows} ${only} returning *`,
        );
    }),

  /**
   * `done`: the order completed and this attempt counted, only while it is PROCESSING (a refund
   * or a concurrent attempt that won leaves no row: nothing else in the statement is written).
   */
  done: step<CompletionValues, unknown>('done', (db, p, name) =>
    db.$with(name).as(
      db
        .update(orders)
        .set({
          status: 'COMPLETED',
          completedAt: p('now'),
          updatedAt: p('now'),
          lastError: null,
          fulfillmentAttempts: sql`${orders.fulfillmentAttempts} + 1`,
        })
        .where(and(eq(orders.id, p('orderId')), eq(orders.status, 'PROCESSING')))
        .returning(),
    ),
  ),

  /** `attempt`: the successful attempt's row, from `done`. */
  attempt: (done: Step<object>) =>
    step<AttemptValues, unknown>('attempt', (db, p, name) =>
      db.$with(name, {}).as(
        sql`insert into ${fulfillmentAttempts} (id, order_id, attempt, outcome, source, error, created_at)
          select ${p('attemptId')}, d.id, d.fulfillment_attempts, 'success', ${p('source')}, null, d.updated_at
          from ${rowsOf(done)} d`,
      ),
    ),

  /**
   * `stored`: `count` new eSIM rows (values `<i>.<column>`, bound with `rowValues`), written only
   * when `done` produced a row. A provider_ref already stored fails the whole statement.
   */
  storedEsims: (count: number, done: Step<object>) =>
    step<Record<string, unknown>, unknown>('stored', (db, p, name) =>
      db.$with(name, getTableColumns(esims)).as(
        sql`insert into ${esims} (${columnList(esims, ESIM_COLUMNS)})
          select * from (values ${typedValueRows(esims, ESIM_COLUMNS, count, p)}) as v where ${produced(done)} returning *`,
      ),
    ),

  /** `stored`: the topped-up eSIM updated from its profile, only when `done` produced a row. */
  toppedUp: (done: Step<object>) =>
    step<TopUpValues & { now: Date }, unknown>('stored', (db, p, name) =>
      db.$with(name).as(
        db
          .update(esims)
          .set({
            status: p('status'),
            totalVolumeMb: p('totalVolumeMb'),
            dataUsageMb: p('dataUsageMb'),
            expiresAt: p('expiresAt'),
            usageCheckedAt: p('now'),
            updatedAt: p('now'),
          })
          .where(and(eq(esims.id, p('esimId')), produced(done)))
          .returning(),
      ),
    ),
};

/** The order of `esimsOfOrder` (created_at, id) for rows held in memory. */
export function byCreationThenId(a: EsimRow, b: EsimRow): number {
  return a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

export interface ListOptions {
  limit?: number | undefined;
  startingAfter?: string | undefined;
  after?: readonly KeyValue[] | undefined;
  livemode?: boolean;
  /** Only orders placed through this channel (the Partner API sees its own only). */
  channel?: OrderChannel | undefined;
}

export function createOrdersRepository(db: Db) {
  return {
    async findOrder(orderId: string, reader: DbOrTx = db): Promise<OrderRow | undefined> {
      const [order] = await reader.select().from(orders).where(eq(orders.id, orderId));
      return order;
    },

    /** The account's order of one mode (and channel when given). */
    async findOwnOrder(
      accountId: string,
      orderId: string,
      livemode: boolean,
      channel?: OrderChannel,
    ): Promise<OrderRow | undefined> {
      const [order] = await db
        .select()
        .from(orders)
        .where(
          and(
            eq(orders.id, orderId),
            eq(orders.accountId, accountId),
            eq(orders.livemode, livemode),
            channel ? eq(orders.channel, channel) : undefined,
          ),
        );
      return order;
    },

    /**
     * The account's orders, newest first (created_at, id), by keyset on orders_account_list_idx:
     * a page costs the same however many orders came before. null: `startingAfter` names none of
     * these orders.
     */
    async listOrders(accountId: string, options: ListOptions): Promise<{ rows: OrderRow[] } | null> {
      const conditions = [eq(orders.accountId, accountId), eq(orders.livemode, options.livemode ?? true)];
      if (options.channel) conditions.push(eq(orders.channel, options.channel));
      if (options.after) conditions.push(keysetAfter([orders.createdAt, orders.id], options.after, 'desc'));
      if (options.startingAfter) {
        const [cursor] = await db
          .select()
          .from(orders)
          .where(and(eq(orders.id, options.startingAfter), ...conditions));
        if (!cursor) return null;
        conditions.push(
          or(
            lt(orders.createdAt, cursor.createdAt),
            and(eq(orders.createdAt, cursor.createdAt), lt(orders.id, cursor.id)),
          )!,
        );
      }
      const query = db
        .select()
        .from(orders)
        .where(and(...conditions))
        .orderBy(desc(orders.createdAt), desc(orders.id));
      return { rows: options.limit ? await query.limit(options.limit + 1) : await query };
    },

    /** The eSIM rows of these orders (esims_order_idx), oldest first. */
    esimIdsOfOrders(orderIds: string[]): Promise<Array<{ id: string; orderId: string }>> {
      return db
        .select({ id: esims.id, orderId: esims.orderId })
        .from(esims)
        .where(inArray(esims.orderId, orderIds))
        .orderBy(asc(esims.createdAt), asc(esims.id));
    },

    /** How many orders the account has of one mode and channel (orders_account_list_idx). */
    async countOrders(accountId: string, livemode: boolean, channel: OrderChannel): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(orders)
        .where(
          and(eq(orders.accountId, accountId), eq(orders.livemode, livemode), eq(orders.channel, channel)),
        );
      return row?.n ?? 0;
    },

    /** The eSIM rows of these orders (esims_order_idx), oldest first: the dashboard's order list. */
    esimsOfOrders(orderIds: string[]): Promise<EsimRow[]> {
      if (orderIds.length === 0) return Promise.resolve([]);
      return db
        .select()
        .from(esims)
        .where(inArray(esims.orderId, orderIds))
        .orderBy(asc(esims.createdAt), asc(esims.id));
    },

    /** The order's eSIMs: the topped-up one for a top-up, else its own, oldest first. */
    esimsOfOrder(order: Pick<OrderRow, 'id' | 'topUpEsimId'>): Promise<EsimRow[]> {
      if (order.topUpEsimId) return db.select().from(esims).where(eq(esims.id, order.topUpEsimId));
      return db.select().from(esims).where(eq(esims.orderId, order.id)).orderBy(esims.createdAt, esims.id);
    },

    async esimById(esimId: string): Promise<EsimRow | undefined> {
      const [row] = await db.select().from(esims).where(eq(esims.id, esimId));
      return row;
    },

    /** The account's newest eSIM of this ICCID and mode (a top-up's target). */
    async ownEsimByIccid(accountId: string, iccid: string, livemode: boolean) {
      const [row] = await db
        .select({ id: esims.id, status: esims.status })
        .from(esims)
        .where(and(eq(esims.accountId, accountId), eq(esims.iccid, iccid), eq(esims.livemode, livemode)))
        .orderBy(desc(esims.createdAt))
        .limit(1);
      return row;
    },

    /** The plan fields a fulfillment attempt needs. */
    async planForFulfillment(planId: string) {
      const [row] = await db
        .select({
          id: plans.id,
          providerPackageCode: plans.providerPackageCode,
          wholesaleCents: plans.wholesaleCents,
        })
        .from(plans)
        .where(eq(plans.id, planId));
      return row;
    },

    async setPaymentId(orderId: string, paymentId: string): Promise<void> {
      await db.update(orders).set({ paymentId }).where(eq(orders.id, orderId));
    },

    /** AWAITING_PAYMENT → CANCELLED; null when the order was not awaiting payment. */
    async cancelUnpaid(orderId: string, now: Date, tx: DbOrTx = db): Promise<OrderRow | null> {
      const [order] = await tx
        .update(orders)
        .set({ status: 'CANCELLED', updatedAt: now })
        .where(and(eq(orders.id, orderId), eq(orders.status, 'AWAITING_PAYMENT')))
        .returning();
      return order ?? null;
    },

    /** AWAITING_PAYMENT → PROCESSING with its payment, in the settling transaction. */
    async markPaid(tx: Tx, orderId: string, paymentId: string, now: Date): Promise<OrderRow | undefined> {
      const [order] = await tx
        .update(orders)
        .set({ status: 'PROCESSING', paymentId, updatedAt: now })
        .where(and(eq(orders.id, orderId), eq(orders.status, 'AWAITING_PAYMENT')))
        .returning();
      return order;
    },

    /** A failed attempt, counted on the order and recorded, in one statement; the order as it now is. */
    async recordFailure(orderId: string, source: string, error: string, now: Date): Promise<OrderRow> {
      const counted$ = db.$with('counted').as(
        db
          .update(orders)
          .set({
            fulfillmentAttempts: sql`${orders.fulfillmentAttempts} + 1`,
            lastError: error,
            updatedAt: now,
          })
          .where(eq(orders.id, orderId))
          .returning(),
      );
      const attempt$ = db.$with('failed_attempt').as(
        db.insert(fulfillmentAttempts).select(
          db
            .select({
              id: sql`${newId('att')}`.as('id'),
              orderId: counted$.id,
              attempt: counted$.fulfillmentAttempts,
              outcome: sql`'failure'`.as('outcome'),
              source: sql`${source}`.as('source'),
              error: sql`${error}`.as('error'),
              createdAt: counted$.updatedAt,
            })
            .from(counted$),
        ),
      );
      const [counted] = await db.with(counted$, attempt$).select().from(counted$);
      return counted!;
    },

    /** PROCESSING → REFUNDED in the refunding transaction; undefined when it was not PROCESSING. */
    async markRefunded(tx: Tx, orderId: string, reason: string, now: Date): Promise<OrderRow | undefined> {
      const [order] = await tx
        .update(orders)
        .set({ status: 'REFUNDED', updatedAt: now, lastError: reason.slice(0, 500) })
        .where(and(eq(orders.id, orderId), eq(orders.status, 'PROCESSING')))
        .returning();
      return order;
    },

    /** Claims the order's one support notice; undefined when it was already claimed. */
    async claimSupportNotice(tx: Tx, orderId: string, now: Date): Promise<OrderRow | undefined> {
      const [row] = await tx
        .update(orders)
        .set({ supportNotifiedAt: now })
        .where(and(eq(orders.id, orderId), sql`${orders.supportNotifiedAt} is null`))
        .returning();
      return row;
    },

    /** The order's attempts, oldest first (operator view). */
    attemptsOf(orderId: string) {
      return db
        .select()
        .from(fulfillmentAttempts)
        .where(eq(fulfillmentAttempts.orderId, orderId))
        .orderBy(asc(fulfillmentAttempts.attempt), asc(fulfillmentAttempts.createdAt));
    },

    async statusOf(orderId: string): Promise<OrderRow['status'] | undefined> {
      const [row] = await db.select({ status: orders.status }).from(orders).where(eq(orders.id, orderId));
      return row?.status;
    },
  };
}

export type OrdersRepository = ReturnType<typeof createOrdersRepository>;
