import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { OrderRow } from '../../domain/orders/orders.service.js';
import { callerLocale } from '../shared/locale.js';
import { MobileOrderSchema, presentMobileOrder } from '../shared/order-presenters.js';
import type { IdempotencyRouteOptions } from '../shared/idempotency.js';
import { defineList, NextCursorSchema, pageQuery } from '../shared/pagination.js';
import { mobileErrors } from '../shared/schemas.js';
import { IDEMPOTENCY_KEY } from './checkout.routes.js';

const CANCELLABLE_DESCRIPTION =
  'The order can be cancelled and refunded by POST /user/orders/{id}/cancel as far as the service ' +
  'knows without asking the eSIM provider (COMPLETED, not a top-up, within REFUND_WINDOW_DAYS, eSIMs ' +
  'unused by the last reading, under SELF_REFUNDS_PER_30_DAYS); the provider is asked on the POST.';

/** Newest first on orders_account_list_idx; unpaged without limit/cursor (specification §4.4). */
export const mobileOrderList = defineList<OrderRow>({
  list: 'mobile.orders',
  key: ['date', 'string'],
  keyOf: (o) => [o.createdAt, o.id],
});

export async function ordersRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { orders, orderCancels, catalog, config } = app.container;

  r.get(
    '/user/orders',
    {
      schema: {
        operationId: 'listOrders',
        tags: ['Orders'],
        summary: 'My orders, newest first',
        description:
          'The orders placed in the app or on the web (SVC-…); orders placed through the Partner API ' +
          '(SVC-API-…) are the partner dashboard’s (GET /partners/{partnerId}/orders), never listed here. ' +
          'Every order without `limit` and `cursor`; with them one page, the next in the `Link` header and `nextCursor`.',
        querystring: pageQuery({
          channel: Type.Optional(
            Type.Literal('web', {
              description:
                'web (the only value, kept for older clients): orders placed in the app or on the web',
            }),
          ),
        }),
        response: {
          200: Type.Object({
            orders: Type.Array(MobileOrderSchema),
            nextCursor: Type.Optional(NextCursorSchema),
          }),
          ...mobileErrors(401, 403),
        },
      },
    },
    async (request, reply) => {
      const accountId = request.auth!.account.id;
      // Web purchases only (issue 32 C7): Partner API orders belong to the partner dashboard.
      const page = mobileOrderList.plan([accountId, 'web'], request.query);
      const { orders: rows } = await orders.listOrders(accountId, {
        limit: page.take,
        after: page.after,
        channel: 'mobile',
      });
      const { items, nextCursor } = page.finish(request, reply, rows);
      const esimIds = await orders.esimIdsByOrder(items);
      const names = await catalog.planNames(
        items.map((o) => o.planId),
        callerLocale(request),
      );
      return {
        orders: items.map((o) => presentMobileOrder(o, esimIds.get(o.id) ?? [], names)),
        ...(page.paged ? { nextCursor } : {}),
      };
    },
  );

  r.get(
    '/user/orders/:id',
    {
      schema: {
        operationId: 'getOrder',
        tags: ['Orders'],
        summary: 'One of my orders with the ids of its eSIMs',
        description:
          'Full eSIM data comes from GET /user/esims matched by id. Another account’s order, or one ' +
          'placed through the Partner API, is 404.',
        params: Type.Object({ id: Type.String({ maxLength: 100 }) }),
        response: {
          200: Type.Object({
            order: MobileOrderSchema,
            cancellable: Type.Boolean({ description: CANCELLABLE_DESCRIPTION }),
          }),
          ...mobileErrors(401, 403, 404),
        },
      },
    },
    async (request) => {
      const { order, esims } = await orders.getOrder(
        request.auth!.account.id,
        request.params.id,
        true,
        'mobile',
      );
      return {
        order: presentMobileOrder(
          order,
          esims.map((e) => e.id),
          await catalog.planNames([order.planId], callerLocale(request)),
        ),
        cancellable: await orderCancels.cancellable(order, esims),
      };
    },
  );

  /** Idempotency-Key: per account; the key names one order's cancel (another order → REUSED). */
  const idempotency: IdempotencyRouteOptions = {
    scope: 'mobile.orders.cancel',
    principal: (request) => request.auth!.account.id,
    fingerprint: (request) => ({ orderId: (request.params as { id: string }).id }),
    keyPattern: IDEMPOTENCY_KEY,
    keyMessage: 'Idempotency-Key must be 1–255 printable ASCII characters',
  };

  r.post(
    '/user/orders/:id/cancel',
    {
      config: { idempotency },
      schema: {
        operationId: 'cancelOrder',
        tags: ['Orders'],
        summary: 'Cancel an unused eSIM order and refund it to the wallet',
        description:
          'Allowed while every eSIM of the order was never installed and used no data (asked of the eSIM ' +
          `provider now) and the order is at most ${config.selfRefunds.windowDays} days old, at most ` +
          `${config.selfRefunds.per30Days} times per account in 30 days. The eSIMs are cancelled at the provider ` +
          'and become CANCELLED, the order REFUNDED, and the whole amount returns to the wallet, whatever paid ' +
          'for it (card and crypto included). Refused → 409 ORDER_NOT_CANCELLABLE, ESIM_INSTALLED, ESIM_USED, ' +
          'REFUND_WINDOW_PASSED or SELF_REFUND_LIMIT (the message says how to reach support; `supportEmail`). ' +
          'Provider unreachable while cancelling → 503 CANCELLATION_PENDING: it finishes in the background. ' +
          'A repeat of a finished cancel answers the refunded order. Optional Idempotency-Key.',
        params: Type.Object({ id: Type.String({ maxLength: 100 }) }),
        headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String({ maxLength: 255 })) }),
        response: {
          200: Type.Object({ order: MobileOrderSchema }),
          ...mobileErrors(401, 403, 404, 409, 502, 503),
        },
      },
    },
    async (request) => {
      const { order, esims } = await orderCancels.cancel({
        accountId: request.auth!.account.id,
        orderId: request.params.id,
        livemode: true,
        requestId: request.id,
      });
      return {
        order: presentMobileOrder(
          order,
          esims.map((e) => e.id),
          await catalog.planNames([order.planId], callerLocale(request)),
        ),
      };
    },
  );
}
