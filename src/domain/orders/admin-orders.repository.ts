import { and, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { keysetAfter, type KeysetPage } from '../../db/keyset.js';
import { accounts, fulfillmentAttempts, orders } from '../../db/schema/index.js';
import type { OrderChannel } from './order-numbers.js';
import type { OrderRow, OrderStatus, PaymentMethod } from './ports.js';

/** Which modes the operator's order list shows: live only (the default), test only, or both. */
export type OrderListMode = 'live' | 'test' | 'all';

export interface AdminOrderFilters {
  status?: OrderStatus | undefined;
  channel?: OrderChannel | undefined;
  paymentMethod?: PaymentMethod | undefined;
  mode: OrderListMode;
  accountId?: string | undefined;
  /** Only orders with at least one failed fulfillment attempt (retried or not). */
  failed?: boolean | undefined;
  /** created_at at or after. */
  from?: Date | undefined;
  /** created_at before. */
  to?: Date | undefined;
}

/** An order of the operator's list with its buyer's e-mail (one join, no per-row reads). */
export type AdminOrderListRow = OrderRow & { accountEmail: string };

/**
 * The operator's order list across every account (issue 33 O3). Its own module: the SQL of the
 * orders aggregate's customer-facing reads and writes lives in ./orders.repository.ts.
 */
export function createAdminOrdersRepository(db: Db) {
  return {
    /**
     * Orders newest first (created_at, id), keyset-paged. Without `accountId` the walk runs on
     * orders_created_list_idx and the other filters are checked row by row along it; with it on
     * orders_account_list_idx (one mode) or by sorting the account's orders (mode `all`).
     */
    async list(filters: AdminOrderFilters, page: KeysetPage): Promise<AdminOrderListRow[]> {
      const conditions: Array<SQL | undefined> = [
        filters.mode === 'all' ? undefined : eq(orders.livemode, filters.mode === 'live'),
        filters.status ? eq(orders.status, filters.status) : undefined,
        filters.channel ? eq(orders.channel, filters.channel) : undefined,
        filters.paymentMethod ? eq(orders.paymentMethod, filters.paymentMethod) : undefined,
        filters.accountId ? eq(orders.accountId, filters.accountId) : undefined,
        // On fulfillment_attempts_order_idx, per order along the walk.
        filters.failed
          ? sql`exists (select 1 from ${fulfillmentAttempts} where ${fulfillmentAttempts.orderId} = ${orders.id} and ${fulfillmentAttempts.outcome} = 'failure')`
          : undefined,
        filters.from ? gte(orders.createdAt, filters.from) : undefined,
        filters.to ? lt(orders.createdAt, filters.to) : undefined,
        page.after ? keysetAfter([orders.createdAt, orders.id], page.after, 'desc') : undefined,
      ];
      const query = db
        .select({ order: orders, accountEmail: accounts.email })
        .from(orders)
        .innerJoin(accounts, eq(accounts.id, orders.accountId))
        .where(and(...conditions))
        .orderBy(desc(orders.createdAt), desc(orders.id));
      const rows = page.limit === undefined ? await query : await query.limit(page.limit);
      return rows.map((r) => ({ ...r.order, accountEmail: r.accountEmail }));
    },

    /** One order with its buyer's e-mail (an order's timeline looks for mail sent to it). */
    async findWithEmail(orderId: string): Promise<AdminOrderListRow | undefined> {
      const [row] = await db
        .select({ order: orders, accountEmail: accounts.email })
        .from(orders)
        .innerJoin(accounts, eq(accounts.id, orders.accountId))
        .where(eq(orders.id, orderId));
      return row ? { ...row.order, accountEmail: row.accountEmail } : undefined;
    },
  };
}

export type AdminOrdersRepository = ReturnType<typeof createAdminOrdersRepository>;
