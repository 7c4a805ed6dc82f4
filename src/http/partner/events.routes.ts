import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { IsoDate } from '../shared/schemas.js';
import { errorResponse, orderExamples, partnerCommonErrors } from './openapi-examples.js';

const wallet = { balanceUsd: 42.5, currency: 'USD', lowBalanceThreshold: 50 };

export const eventExamples = {
  orderCompleted: {
    id: 'evt_7Yh3Lm9Qx2Wc5Vb8Nk4J',
    type: 'order.completed',
    createdAt: '2026-11-22T04:30:13.012Z',
    livemode: true,
    data: orderExamples.detail,
  },
  usage: {
    id: 'evt_2Ks8Df5Gh1Jk4Lq7Wz3X',
    type: 'esim.usage_threshold',
    createdAt: '2026-11-24T18:02:44.120Z',
    livemode: true,
    data: {
      esim: orderExamples.detail.esims[0],
      thresholdPercent: 80,
      usageUpdatedAt: '2026-11-24T18:00:00.000Z',
    },
  },
  lowBalance: {
    id: 'evt_9Pq4Rs7Tu2Vw5Xy8Za1B',
    type: 'wallet.low_balance',
    createdAt: '2026-11-22T04:30:12.345Z',
    livemode: true,
    data: wallet,
  },
  ping: {
    id: 'evt_3Cd6Ef9Gh2Ij5Kl8Mn1O',
    type: 'ping',
    createdAt: '2026-11-22T04:31:00.000Z',
    livemode: true,
    data: { endpointId: 'we_5Tg7Hj2Kl9Qw3Er6Ty1U', message: 'Webhook test from the eSIM service' },
  },
};

/** The event envelope: webhook bodies and GET /events items. */
export const PartnerEventSchema = Type.Object(
  {
    id: Type.String({ description: 'evt_…; also the webhook-id header of its deliveries' }),
    type: Type.String({
      description:
        'order.completed | order.fulfillment_failed | order.refunded | esim.usage_threshold | ' +
        'esim.expiring | esim.status_changed | esim.auto_topup_succeeded | esim.auto_topup_failed | ' +
        'wallet.topup_succeeded | wallet.low_balance (ping: test deliveries only)',
    }),
    createdAt: IsoDate,
    livemode: Type.Boolean({ description: 'false for test-mode objects' }),
    data: Type.Record(Type.String(), Type.Unknown(), {
      description:
        'order.*: the order as GET /orders/{id} returns it; esim.usage_threshold: { esim, thresholdPercent: ' +
        '50 | 80 | 90 | 100, usageUpdatedAt }; esim.expiring: { esim, daysLeft: 3 | 1, expiresAt }; ' +
        'esim.status_changed: { esim, installState, previousInstallState }; ' +
        'esim.auto_topup_succeeded: { esim, orderId, planId, amountUsd }; esim.auto_topup_failed: { esim, planId, reason, orderId }; ' +
        'wallet.topup_succeeded: { paymentId, amountUsd, wallet }; wallet.low_balance: the wallet as GET /wallet ' +
        "returns it. Each type has its named schema in the document's webhooks section.",
    }),
  },
  { title: 'PartnerEvent', examples: [eventExamples.orderCompleted] },
);

/** The filters of both event lists (Partner API and dashboard): type and creation time. */
export const EventFilters = {
  type: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 400,
      pattern: '^[a-z_]+\\.[a-z_]+(,[a-z_]+\\.[a-z_]+)*$',
      description: 'Only events of this type; several separated by commas (order.completed,order.refunded)',
    }),
  ),
  from: Type.Optional({ ...IsoDate, description: 'Only events created at or after this time' }),
  to: Type.Optional({ ...IsoDate, description: 'Only events created before this time' }),
};

/** `type`, `from` and `to` as the outbox's list takes them. */
export function eventFilters(query: { type?: string; from?: string; to?: string }) {
  return {
    types: query.type ? [...new Set(query.type.split(','))] : undefined,
    from: query.from ? new Date(query.from) : undefined,
    to: query.to ? new Date(query.to) : undefined,
  };
}

const ListQuery = Type.Object({
  after: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'Cursor: the id of the last event you have; the page starts after it',
    }),
  ),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 25, description: 'Page size, 1 to 100' }),
  ...EventFilters,
});

/** `GET /events`: everything the webhooks sent (or tried to), for 30 days, oldest first. */
export async function eventsRoutes(app: FastifyInstance): Promise<void> {
  const { outbox } = app.container;
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/events',
    {
      schema: {
        operationId: 'listEvents',
        tags: ['Events'],
        summary: 'List events',
        description:
          'Events of the last 30 days, oldest first, starting after the event named by `after` ' +
          '(omit it for the oldest kept). Keep the last id you processed and pass it as `after` to ' +
          'fetch what you missed; hasMore tells whether another page follows. `type`, `from` and `to` ' +
          'narrow the list (a cursor then continues the narrowed list).',
        querystring: ListQuery,
        response: {
          200: Type.Object(
            { data: Type.Array(PartnerEventSchema), hasMore: Type.Boolean() },
            {
              title: 'PartnerEventList',
              examples: [{ data: [eventExamples.orderCompleted, eventExamples.usage], hasMore: false }],
            },
          ),
          400: errorResponse('limit outside 1–100, or after is not one of your events', 'VALIDATION_ERROR'),
          ...partnerCommonErrors,
        },
      },
    },
    async (request) =>
      outbox.list(request.partner!.id, {
        after: request.query.after,
        limit: request.query.limit,
        livemode: request.livemode,
        ...eventFilters(request.query),
      }),
  );
}
