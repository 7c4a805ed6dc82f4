import type { KeyValue } from '../../db/keyset.js';
import { AppError } from '../errors.js';
import { createEsimReads } from './esims.js';
import { createFulfillment } from './fulfillment.js';
import { createInstallLinks } from './install-links.js';
import type { OrderChannel } from './order-numbers.js';
import { createOrdersRepository } from './orders.repository.js';
import { createOrderPlacing, type PlaceOrderInput } from './place-order.js';
import type { EsimRow, OrderDeps, OrderRow } from './ports.js';

export type { EsimRow, OrderRow } from './ports.js';
export { MAX_QUANTITY, type PlaceOrderInput } from './place-order.js';

export interface PlacedOrder {
  order: OrderRow;
  esims: EsimRow[];
  /** card/crypto: the hosted payment page. */
  paymentUrl?: string;
}

/**
 * The order core shared by Mobile checkout and Partner orders: placing (./place-order.ts: the
 * order, its money and its jobs in one statement), then the provider after commit
 * (./fulfillment.ts), and the account's reads. SQL lives in ./orders.repository.ts.
 */
export function createOrderService(deps: OrderDeps) {
  const { db, clock } = deps;
  const repository = createOrdersRepository(db);
  const fulfillment = createFulfillment(deps, repository);
  const esimReads = createEsimReads(deps);
  const installLinks = createInstallLinks(esimReads);
  const { insertOrder } = createOrderPlacing(deps, repository);
  const cancelUnpaid = (orderId: string) => repository.cancelUnpaid(orderId, clock.now());

  async function startPayment(order: OrderRow, input: PlaceOrderInput): Promise<string> {
    const payments = deps.payments;
    try {
      if (!payments) throw new AppError('SERVICE_UNAVAILABLE', 'Card and crypto payments are not available');
      const common = { accountId: order.accountId, purpose: 'order' as const, orderId: order.id };
      const created =
        input.paymentMethod === 'card'
          ? await payments.createCardPayment({
              ...common,
              amountMinor: order.amountCents,
              currency: 'USD',
              successUrl: input.successUrl,
              cancelUrl: input.cancelUrl,
            })
          : await payments.createCryptoPayment({
              ...common,
              amountCents: order.amountCents,
              currency: 'USD',
              returnUrl: input.successUrl,
            });
      const url = 'url' in created ? created.url : created.invoice.url;
      await repository.setPaymentId(order.id, created.paymentId);
      return url;
    } catch (err) {
      // No payment page, no way to pay: the order is cancelled (nothing was charged).
      await cancelUnpaid(order.id);
      throw err;
    }
  }

  async function placeOrder(input: PlaceOrderInput): Promise<PlacedOrder> {
    const { order, plan } = await insertOrder(input);
    if (order.status === 'AWAITING_PAYMENT') {
      const paymentUrl = await startPayment(order, input);
      return { order: await fulfillment.loadOrder(order.id), esims: [], paymentUrl };
    }
    // The row just written and the plan just read: the attempt reads neither again.
    const result = await fulfillment.attempt(order, 'request', plan);
    if (result.ok) return { order: result.order, esims: result.esims };
    await fulfillment.notifySupportOnce(result.order, result.error);
    throw new AppError(
      'FULFILLMENT_FAILED',
      'Payment was taken but the eSIM provider failed to issue the eSIM; it is retried automatically. Do not pay again.',
      { orderId: order.id },
    );
  }

  /**
   * The account's orders of one mode (live unless `livemode: false`), newest first (created_at,
   * id). `after` is a keyset position [createdAt, id] (cursor pagination): the rows after it, read
   * on orders_account_list_idx, so a page costs the same however many orders came before.
   */
  async function listOrders(
    accountId: string,
    options: {
      limit?: number | undefined;
      startingAfter?: string | undefined;
      after?: readonly KeyValue[] | undefined;
      livemode?: boolean;
      /** Only orders placed through this channel (the Partner API sees its own only). */
      channel?: OrderChannel | undefined;
    } = {},
  ): Promise<{ orders: OrderRow[]; hasMore: boolean }> {
    const listed = await repository.listOrders(accountId, options);
    if (!listed) throw new AppError('VALIDATION_ERROR', 'startingAfter does not name one of your orders');
    const rows = listed.rows;
    const hasMore = options.limit !== undefined && rows.length > options.limit;
    return { orders: hasMore ? rows.slice(0, options.limit) : rows, hasMore };
  }

  /**
   * One order of the account with its eSIMs; another account's order, or one of the other mode
   * (a test order read live, or the reverse), or of another `channel` when one is given, is
   * ORDER_NOT_FOUND.
   */
  async function getOrder(
    accountId: string,
    orderId: string,
    livemode = true,
    channel?: OrderChannel,
  ): Promise<{ order: OrderRow; esims: EsimRow[] }> {
    const order = await repository.findOwnOrder(accountId, orderId, livemode, channel);
    if (!order) throw new AppError('ORDER_NOT_FOUND', 'Order not found');
    return { order, esims: await fulfillment.esimsOfOrder(order) };
  }

  /** eSIM ids of many orders at once (order lists). */
  async function esimIdsByOrder(list: OrderRow[]): Promise<Map<string, string[]>> {
    const result = new Map<string, string[]>(list.map((o) => [o.id, o.topUpEsimId ? [o.topUpEsimId] : []]));
    if (list.length === 0) return result;
    // Only the listed orders' eSIMs (esims_order_idx): a page costs the same however long the history.
    const rows = await repository.esimIdsOfOrders(list.map((o) => o.id));
    for (const row of rows) result.get(row.orderId)?.push(row.id);
    return result;
  }

  return {
    placeOrder,
    listOrders,
    getOrder,
    esimIdsByOrder,
    listEsims: esimReads.listForAccount,
    refreshUsage: esimReads.refreshUsage,
    refreshStatuses: esimReads.refreshStatuses,
    findEsimByQrToken: esimReads.findByQrToken,
    getOwnEsim: installLinks.getOwnEsim,
    replaceInstallLink: installLinks.replaceInstallLink,
    installPage: installLinks.installPage,
    cancelUnpaid,
    repository,
    fulfillment,
  };
}

export type OrderService = ReturnType<typeof createOrderService>;
