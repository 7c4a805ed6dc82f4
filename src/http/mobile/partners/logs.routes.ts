import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../../domain/errors.js';
import { EventFilters, eventFilters, PartnerEventSchema } from '../../partner/events.routes.js';
import { RequestLogListSchema, RequestLogQuery, requestLogPage } from '../../shared/request-log.js';
import { IsoDate, Nullable } from '../../shared/schemas.js';

const TAGS = ['Partner dashboard'];

const DeliverySchema = Type.Object(
  {
    id: Type.String(),
    endpointId: Type.String(),
    endpointUrl: Type.String(),
    status: Type.Union([Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed')]),
    attempts: Type.Integer({ description: 'Attempts made so far' }),
    lastAttemptAt: Nullable(IsoDate),
    nextAttemptAt: Nullable({ ...IsoDate, description: 'When the next retry runs (pending only)' }),
    responseStatus: Nullable(Type.Integer({ description: 'HTTP status of the last attempt' })),
    lastError: Nullable(Type.String({ description: 'Network error or reason of the last failure' })),
  },
  { title: 'PartnerEventDelivery' },
);

/**
 * The dashboard's developer logs (issue 32 C3): the request log and the events browser of the
 * partner's mode (`?mode=`). Permissions requests.read and events.read.
 */
export async function partnerLogsRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { requestLog, outbox, eventDeliveries } = app.container;

  r.get(
    '/requests',
    {
      config: { permission: 'requests.read' },
      schema: {
        operationId: 'listPartnerRequests',
        tags: TAGS,
        summary: 'The request log of the partner’s API keys',
        description:
          'As GET /api/public/v1/requests: the Partner API calls of this mode in the last 30 days, ' +
          'newest first, filtered by status class, path prefix or request id.',
        querystring: RequestLogQuery,
        response: { 200: RequestLogListSchema },
      },
    },
    async (request, reply) =>
      requestLogPage(requestLog, request, reply, request.partnerAccess!.partnerId, request.query),
  );

  r.get(
    '/events',
    {
      config: { permission: 'events.read' },
      schema: {
        operationId: 'listPartnerEvents',
        tags: TAGS,
        summary: 'The partner’s events, newest first',
        description:
          'Events of this mode in the last 30 days, newest first; `after` (the last id of the page ' +
          'shown) gives the older ones. Filters: `type` (one or several, comma-separated), `from` and `to`.',
        querystring: Type.Object({
          after: Type.Optional(
            Type.String({ minLength: 1, maxLength: 64, description: 'Cursor: an event id' }),
          ),
          limit: Type.Integer({ minimum: 1, maximum: 100, default: 25 }),
          ...EventFilters,
        }),
        response: {
          200: Type.Object({ data: Type.Array(PartnerEventSchema), hasMore: Type.Boolean() }),
        },
      },
    },
    async (request) =>
      outbox.list(request.partnerAccess!.partnerId, {
        after: request.query.after,
        limit: request.query.limit,
        livemode: request.livemode,
        newestFirst: true,
        ...eventFilters(request.query),
      }),
  );

  r.get(
    '/events/:eventId',
    {
      config: { permission: 'events.read' },
      schema: {
        operationId: 'getPartnerEvent',
        tags: TAGS,
        summary: 'One event with the webhook deliveries it caused',
        params: Type.Object({ eventId: Type.String({ minLength: 1, maxLength: 64 }) }),
        response: {
          200: Type.Object({ event: PartnerEventSchema, deliveries: Type.Array(DeliverySchema) }),
        },
      },
    },
    async (request) => {
      const event = await outbox.find(
        request.partnerAccess!.partnerId,
        request.params.eventId,
        request.livemode,
      );
      if (!event) throw new AppError('NOT_FOUND', 'Event not found');
      return { event, deliveries: await eventDeliveries(event.id) };
    },
  );
}
