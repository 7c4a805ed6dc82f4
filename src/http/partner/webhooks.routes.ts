import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../domain/errors.js';
import { EVENT_TYPES } from '../../domain/events/outbox.js';
import type { WebhookEndpointRow } from '../../domain/webhooks/webhooks.service.js';
import { IsoDate, Nullable } from '../shared/schemas.js';
import { errorResponse, partnerCommonErrors } from './openapi-examples.js';
import { PartnerEventSchema, eventExamples } from './events.routes.js';

const EventTypeSchema = Type.Union(
  EVENT_TYPES.map((t) => Type.Literal(t)),
  { description: 'An event type' },
);

const endpointExample = {
  id: 'we_5Tg7Hj2Kl9Qw3Er6Ty1U',
  url: 'https://partner.example.com/hooks/esim',
  events: ['order.completed', 'esim.usage_threshold'],
  description: 'Production order sync',
  status: 'enabled',
  createdAt: '2026-11-22T04:30:12.345Z',
};

const EndpointSchema = Type.Object(
  {
    id: Type.String(),
    url: Type.String(),
    events: Nullable(Type.Array(EventTypeSchema, { description: 'Subscribed types; null = all' })),
    description: Nullable(Type.String()),
    status: Type.Union([Type.Literal('enabled'), Type.Literal('disabled')], {
      description: 'disabled after 5 days of failed deliveries; a successful test ping enables it again',
    }),
    createdAt: IsoDate,
  },
  { title: 'WebhookEndpoint', examples: [endpointExample] },
);

const CreatedEndpointSchema = Type.Composite(
  [
    EndpointSchema,
    Type.Object({
      secret: Type.String({
        description: 'whsec_<base64>: the Standard Webhooks signing secret. Shown only in this response.',
      }),
    }),
  ],
  {
    title: 'WebhookEndpointWithSecret',
    examples: [{ ...endpointExample, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw0pS1dGdp9mE=' }],
  },
);

const CreateBody = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description: 'https URL on a public address (checked at creation and at every delivery)',
    }),
    events: Type.Optional(
      Type.Array(EventTypeSchema, {
        minItems: 1,
        maxItems: EVENT_TYPES.length,
        uniqueItems: true,
        description: 'Event types to receive; omit for all',
      }),
    ),
    description: Type.Optional(Type.String({ maxLength: 500 })),
  },
  {
    additionalProperties: false,
    examples: [{ url: 'https://partner.example.com/hooks/esim', events: ['order.completed'] }],
  },
);

const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

function present(row: WebhookEndpointRow): Static<typeof EndpointSchema> {
  return {
    id: row.id,
    url: row.url,
    events: (row.eventTypes as Static<typeof EndpointSchema>['events']) ?? null,
    description: row.description,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * A wrong item of `events` fails every branch of the type union, and the validator reports each
 * (one "must be equal to constant" per type). Answer once instead: which value, and what is allowed.
 */
function unknownEventType(validation: unknown, body: unknown): AppError | null {
  for (const issue of Array.isArray(validation) ? (validation as unknown[]) : []) {
    const match = /^\/events\/(\d+)$/.exec((issue as { instancePath?: string }).instancePath ?? '');
    if (!match) continue;
    const value = (body as { events?: unknown[] } | null)?.events?.[Number(match[1])];
    if ((EVENT_TYPES as readonly unknown[]).includes(value)) continue;
    const field = `events.${match[1]}`;
    return new AppError(
      'VALIDATION_ERROR',
      `body.${field} ${JSON.stringify(value)} is not an event type you can subscribe to; allowed: ` +
        EVENT_TYPES.join(', '),
      { field, value, allowed: [...EVENT_TYPES] },
    );
  }
  return null;
}

/** Partner webhook endpoints (Standard Webhooks signatures; docs/partner-reference.md, "Webhooks and events"). */
export async function webhookEndpointsRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { webhooks } = app.container;

  r.post(
    '/webhook-endpoints',
    {
      schema: {
        operationId: 'createWebhookEndpoint',
        tags: ['Webhooks'],
        summary: 'Create a webhook endpoint',
        description:
          'Registers a URL that receives events as signed POSTs (Standard Webhooks: webhook-id, ' +
          'webhook-timestamp, webhook-signature). The url must be https and resolve only to public ' +
          'addresses. At most 10 endpoints per account. The secret is returned only here.',
        body: CreateBody,
        response: {
          201: CreatedEndpointSchema,
          400: errorResponse(
            'Invalid url (not https, private address, does not resolve) or event type',
            'VALIDATION_ERROR',
          ),
          409: { ...errorResponse('The account already has 10 endpoints', 'CONFLICT') },
          ...partnerCommonErrors,
        },
      },
      // The handler answers validation failures itself (one message for an unknown event type).
      attachValidation: true,
    },
    async (request, reply) => {
      if (request.validationError) {
        throw unknownEventType(request.validationError.validation, request.body) ?? request.validationError;
      }
      const row = await webhooks.create({
        accountId: request.partner!.id,
        url: request.body.url,
        events: request.body.events,
        description: request.body.description,
        livemode: request.livemode,
      });
      return reply.code(201).send({ ...present(row), secret: row.secret });
    },
  );

  r.get(
    '/webhook-endpoints',
    {
      schema: {
        operationId: 'listWebhookEndpoints',
        tags: ['Webhooks'],
        summary: 'List webhook endpoints',
        description: 'Oldest first, without secrets.',
        response: {
          200: Type.Object({ data: Type.Array(EndpointSchema) }, { examples: [{ data: [endpointExample] }] }),
          ...partnerCommonErrors,
        },
      },
    },
    async (request) => ({ data: (await webhooks.list(request.partner!.id, request.livemode)).map(present) }),
  );

  r.delete(
    '/webhook-endpoints/:id',
    {
      schema: {
        operationId: 'deleteWebhookEndpoint',
        tags: ['Webhooks'],
        summary: 'Delete a webhook endpoint',
        description: 'Stops deliveries to it at once, including pending retries.',
        params: IdParams,
        response: {
          204: Type.Null({ description: 'Deleted' }),
          404: errorResponse('No endpoint with this id belongs to your account', 'NOT_FOUND'),
          ...partnerCommonErrors,
        },
      },
    },
    async (request, reply) => {
      await webhooks.remove(request.partner!.id, request.params.id, request.livemode);
      return reply.code(204).send(null);
    },
  );

  r.post(
    '/webhook-endpoints/:id/test',
    {
      schema: {
        operationId: 'testWebhookEndpoint',
        tags: ['Webhooks'],
        summary: 'Send a test ping',
        description:
          'Queues a `ping` event to this endpoint only, signed like every event. It is not listed by ' +
          'GET /events. A successful ping enables a disabled endpoint again.',
        params: IdParams,
        response: {
          202: { ...PartnerEventSchema, examples: [eventExamples.ping] },
          404: errorResponse('No endpoint with this id belongs to your account', 'NOT_FOUND'),
          ...partnerCommonErrors,
        },
      },
    },
    async (request, reply) => {
      const event = await webhooks.ping(request.partner!.id, request.params.id, request.livemode);
      return reply.code(202).send({
        id: event.id,
        type: event.type,
        createdAt: event.createdAt.toISOString(),
        livemode: event.livemode,
        data: event.data,
      });
    },
  );
}
