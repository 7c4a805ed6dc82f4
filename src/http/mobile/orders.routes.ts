import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { MobileOrderSchema, presentMobileOrder } from '../shared/order-presenters.js';
import { mobileErrors } from '../shared/schemas.js';

const security: Array<Record<string, string[]>> = [{ sessionToken: [] }, { sessionCookie: [] }];

export async function ordersRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { orders } = app.container;

  r.get(
    '/user/orders',
    {
      schema: {
        tags: ['Orders'],
        summary: 'My orders, newest first',
        security,
        response: { 200: Type.Object({ orders: Type.Array(MobileOrderSchema) }), ...mobileErrors(401, 403) },
      },
    },
    async (request) => {
      const { orders: list } = await orders.listOrders(request.auth!.account.id);
      const esimIds = await orders.esimIdsByOrder(list);
      return { orders: list.map((o) => presentMobileOrder(o, esimIds.get(o.id) ?? [])) };
    },
  );

  r.get(
    '/user/orders/:id',
    {
      schema: {
        tags: ['Orders'],
        summary: 'One of my orders with the ids of its eSIMs',
        description:
          'Full eSIM data comes from GET /user/esims matched by id. Another account’s order is 404.',
        security,
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
        ),
      };
    },
  );
}
