import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { EsimRow, OrderRow } from '../../../domain/orders/orders.service.js';
import { callerLocale } from '../../shared/locale.js';
import {
  EsimStatus,
  PartnerOrderSummarySchema,
  presentPartnerOrderSummary,
} from '../../shared/order-presenters.js';
import { defineList, NextCursorSchema, pageQuery } from '../../shared/pagination.js';
import { PartnerWalletSchema, presentPartnerWallet } from '../../shared/partner-wallet.js';
import { IsoDate, Nullable } from '../../shared/schemas.js';

const TAGS = ['Partner dashboard'];

/** What the overview shows of an eSIM: no activation data (a Viewer reads it too). */
const ConsoleEsimSchema = Type.Object(
  {
    id: Type.String(),
    iccid: Type.String(),
    status: EsimStatus,
    dataUsageMb: Type.Integer(),
    totalVolumeMb: Type.Integer(),
    expiresAt: Nullable(IsoDate),
  },
  { title: 'PartnerConsoleEsim' },
);

const ConsoleOrderSchema = Type.Composite(
  [PartnerOrderSummarySchema, Type.Object({ planName: Type.String(), esims: Type.Array(ConsoleEsimSchema) })],
  { title: 'PartnerConsoleOrder' },
);

/** Newest first on orders_account_list_idx, 25 a page. */
const consoleOrderList = defineList<OrderRow>({
  list: 'console.orders',
  key: ['date', 'string'],
  keyOf: (o) => [o.createdAt, o.id],
  unpagedLimit: 25,
});

function presentEsim(e: EsimRow) {
  return {
    id: e.id,
    iccid: e.iccid,
    status: e.status,
    dataUsageMb: e.dataUsageMb,
    totalVolumeMb: e.totalVolumeMb,
    expiresAt: e.expiresAt?.toISOString() ?? null,
  };
}

/**
 * The console's overview (issue 32 C7): the wallet of the mode and the orders placed through the
 * Partner API in that mode, never the account's web purchases (those are /user/orders').
 */
export async function partnerOverviewRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { orders, wallet, catalog } = app.container;

  r.get(
    '/orders',
    {
      config: { permission: 'partner.read' },
      schema: {
        operationId: 'listPartnerConsoleOrders',
        tags: TAGS,
        summary: 'Orders placed through the Partner API, with their eSIMs',
        description:
          'Orders of this mode placed with the API keys (SVC-API-…), newest first, each with its ' +
          'eSIMs, their status and usage; `total` counts them all. Web purchases are never listed here.',
        querystring: pageQuery({}),
        response: {
          200: Type.Object({
            orders: Type.Array(ConsoleOrderSchema),
            total: Type.Integer({ description: 'All Partner API orders of this mode' }),
            nextCursor: Type.Optional(NextCursorSchema),
          }),
        },
      },
    },
    async (request, reply) => {
      const partnerId = request.partnerAccess!.partnerId;
      const page = consoleOrderList.plan([partnerId, request.livemode], request.query);
      const { orders: rows } = await orders.listOrders(partnerId, {
        limit: page.take,
        after: page.after,
        livemode: request.livemode,
        channel: 'partner',
      });
      const { items, nextCursor } = page.finish(request, reply, rows);
      const own = await orders.repository.esimsOfOrders(items.map((o) => o.id));
      const toppedUp = await Promise.all(
        items.filter((o) => o.topUpEsimId).map((o) => orders.repository.esimById(o.topUpEsimId!)),
      );
      const esims = await orders.refreshUsage([...own, ...toppedUp.filter((e) => e !== undefined)]);
      const byId = new Map(esims.map((e) => [e.id, e]));
      const names = await catalog.planNames(
        items.map((o) => o.planId),
        callerLocale(request),
      );
      return {
        orders: items.map((o) => ({
          ...presentPartnerOrderSummary(o),
          planName: names.get(o.planId) ?? o.planId,
          esims: (o.topUpEsimId ? [byId.get(o.topUpEsimId)] : esims.filter((e) => e.orderId === o.id))
            .filter((e) => e !== undefined)
            .map(presentEsim),
        })),
        total: await orders.repository.countOrders(partnerId, request.livemode, 'partner'),
        ...(page.paged ? { nextCursor } : {}),
      };
    },
  );

  r.get(
    '/wallet',
    {
      config: { permission: 'partner.read' },
      schema: {
        operationId: 'getPartnerConsoleWallet',
        tags: TAGS,
        summary: 'The wallet of the mode: balance and low-balance threshold',
        response: { 200: PartnerWalletSchema },
      },
    },
    async (request) =>
      presentPartnerWallet(await wallet.balances(request.partnerAccess!.partnerId), request.livemode),
  );
}
