import { and, count, countDistinct, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { fulfillmentAttempts, jobs, orders, supportTickets } from '../../db/schema/index.js';

/** A half-open time range [from, to). */
export interface Period {
  from: Date;
  to: Date;
}

export interface ChannelSales {
  channel: 'mobile' | 'partner';
  orders: number;
  revenueCents: number;
}

/**
 * The figures of the operator console's overview (issue 33 O2/O3). Money and order figures count
 * live orders only: test-mode orders (svc_test_sk_ keys) are sandbox play money.
 */
export function createOverviewRepository(db: Db) {
  return {
    /** Orders completed in the period, by channel (USD cents: every order is priced in USD). */
    async completedByChannel(period: Period): Promise<ChannelSales[]> {
      return db
        .select({
          channel: orders.channel,
          orders: count(),
          revenueCents: sql<number>`coalesce(sum(${orders.amountCents}), 0)`.mapWith(Number),
        })
        .from(orders)
        .where(
          and(
            eq(orders.livemode, true),
            eq(orders.status, 'COMPLETED'),
            gte(orders.completedAt, period.from),
            lt(orders.completedAt, period.to),
          ),
        )
        .groupBy(orders.channel);
    },

    /** Live orders with at least one failed fulfilment attempt in the period. */
    async ordersWithFailedAttempts(period: Period): Promise<number> {
      const [row] = await db
        .select({ n: countDistinct(fulfillmentAttempts.orderId) })
        .from(fulfillmentAttempts)
        .innerJoin(orders, eq(orders.id, fulfillmentAttempts.orderId))
        .where(
          and(
            eq(fulfillmentAttempts.outcome, 'failure'),
            gte(fulfillmentAttempts.createdAt, period.from),
            lt(fulfillmentAttempts.createdAt, period.to),
            eq(orders.livemode, true),
          ),
        );
      return row?.n ?? 0;
    },

    /** Live orders refunded in the period (a refund is the last change of a REFUNDED order). */
    async refundedOrders(period: Period): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(orders)
        .where(
          and(
            eq(orders.livemode, true),
            eq(orders.status, 'REFUNDED'),
            gte(orders.updatedAt, period.from),
            lt(orders.updatedAt, period.to),
          ),
        );
      return row?.n ?? 0;
    },

    /** Dead letters waiting for an operator (jobs_failed_list_idx). */
    async deadJobs(): Promise<number> {
      const [row] = await db.select({ n: count() }).from(jobs).where(eq(jobs.status, 'failed'));
      return row?.n ?? 0;
    },

    /** Tickets by status among OPEN (support's turn) and ANSWERED (the customer's turn). */
    async activeTickets(): Promise<{ open: number; answered: number }> {
      const rows = await db
        .select({ status: supportTickets.status, n: count() })
        .from(supportTickets)
        .where(inArray(supportTickets.status, ['OPEN', 'ANSWERED']))
        .groupBy(supportTickets.status);
      const of = (status: string) => rows.find((r) => r.status === status)?.n ?? 0;
      return { open: of('OPEN'), answered: of('ANSWERED') };
    },
  };
}
