import type { Db } from '../../db/client.js';
import type { fulfillmentAttempts } from '../../db/schema/index.js';
import type { AuditService } from '../audit/audit.service.js';
import { AppError } from '../errors.js';
import type { KeysetPage } from '../../db/keyset.js';
import { createAdminOrdersRepository, type AdminOrderFilters } from './admin-orders.repository.js';
import type { OrderService } from './orders.service.js';
import type { EsimRow, OrderRow } from './ports.js';

export type FulfillmentAttemptRow = typeof fulfillmentAttempts.$inferSelect;

export interface AdminOrderView {
  order: OrderRow;
  esims: EsimRow[];
  attempts: FulfillmentAttemptRow[];
}

/** Operator actions on orders (decisions §6); every change writes an audit row in its transaction. */
export function createOrderAdmin(deps: { db: Db; audit: AuditService; orders: OrderService }) {
  const { db, audit, orders: service } = deps;
  const { fulfillment } = service;
  const listing = createAdminOrdersRepository(db);

  /** The operator's order list (GET /orders): every account, newest first, keyset-paged. */
  function list(filters: AdminOrderFilters, page: KeysetPage) {
    return listing.list(filters, page);
  }

  async function view(orderId: string): Promise<AdminOrderView> {
    const order = await fulfillment.loadOrder(orderId);
    const attempts = await service.repository.attemptsOf(orderId);
    return { order, esims: await fulfillment.esimsOfOrder(order), attempts };
  }

  /** Runs one fulfillment attempt now; only a PROCESSING order can be retried. */
  async function retry(orderId: string, requestId?: string): Promise<AdminOrderView & { outcome: string }> {
    const order = await fulfillment.loadOrder(orderId);
    if (order.status !== 'PROCESSING')
      throw new AppError(
        'INVALID_STATE',
        `Only PROCESSING orders can be retried; this one is ${order.status}`,
      );
    const result = await fulfillment.attempt(orderId, 'admin');
    await audit.record(db, {
      action: 'order.retry',
      targetType: 'order',
      targetId: orderId,
      before: { status: order.status },
      after: { status: result.order.status, outcome: result.ok ? 'success' : 'failure' },
      requestId,
    });
    return { ...(await view(orderId)), outcome: result.ok ? 'success' : 'failure' };
  }

  /**
   * Refunds a PROCESSING order to the wallet now (fulfillment abandoned). COMPLETED orders are not
   * refundable here: their eSIMs exist; a goodwill credit is a wallet adjustment instead.
   */
  async function refund(orderId: string, requestId?: string): Promise<AdminOrderView> {
    const before = await fulfillment.loadOrder(orderId);
    const refunded = await fulfillment.refund(orderId, 'refunded by operator', (tx) =>
      audit.record(tx, {
        action: 'order.refund',
        targetType: 'order',
        targetId: orderId,
        before: { status: before.status },
        after: { status: 'REFUNDED', amountCents: before.amountCents },
        requestId,
      }),
    );
    if (!refunded) {
      const current = await service.repository.statusOf(orderId);
      throw new AppError(
        'INVALID_STATE',
        `Only PROCESSING orders can be refunded; this one is ${current ?? before.status}`,
      );
    }
    return view(orderId);
  }

  return { view, list, retry, refund };
}

export type OrderAdmin = ReturnType<typeof createOrderAdmin>;
