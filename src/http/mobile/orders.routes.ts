import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { OrderRow } from '../../domain/orders/orders.service.js';
import { callerLocale } from '../shared/locale.js';
import { MobileOrderSchema, presentMobileOrder } from '../shared/order-presenters.js';
import { defineList, NextCursorSchema, pageQuery } from '../shared/pagination.js';
import { mobileErrors } from '../shared/schemas.js';

/** Newest first on orders_account_list_idx; unpaged without limit/cursor (specification §4.4). */
export const mobileOrderList = defineList<OrderRow>({
  list: 'mobile.orders',
  key: ['date', 'string'],
  keyOf: (o) => [o.createdAt, o.id],
});

export async function ordersRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { orders, catalog } = app.container;

  r.get(
    '/user/orders',
    {
      schema: {
        operationId: 'listOrders',
        tags: ['Orders'],
        summary: 'My orders, newest first',
        description:
          'Every order without `limit` and `cursor`; with them one page, the next in the `Link` header and `nextCursor`.',
        querystring: pageQuery({
          channel: Type.Optional(
            Type.Union([Type.Literal('web'), Type.Literal('api')], {
              description:
                'Only orders placed in the app or on the web (`web`, SVC-…) or through the Partner API (`api`, SVC-API-…); omit for both',
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
      const { channel } = request.query;
      // The filter is part of the cursor's binding: a page of one list does not continue another.
      const page = mobileOrderList.plan(channel ? [accountId, channel] : [accountId], request.query);
      const { orders: rows } = await orders.listOrders(accountId, {
        limit: page.take,
        after: page.after,
        channel: channel === undefined ? undefined : channel === 'web' ? 'mobile' : 'partner',
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
          'Full eSIM data comes from GET /user/esims matched by id. Another account’s order is 404.',
        params: Type.Object({ id: Type.String({ maxLength: 100 }) }),
        response: { 200: Type.Object({ order: MobileOrderSchema }), ...mobileErrors(401, 403, 404) },
      },
    },
    async (request) => {
      const { order, esims } = await orders.getOrder(request.auth!.account.id, request.params.id);
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
