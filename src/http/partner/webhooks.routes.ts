import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ChangeActor, EndpointOwner } from '../../domain/webhooks/webhooks.service.js';
import { pageQuery } from '../shared/pagination.js';
import {
  CreateEndpointBody,
  DeliveryPageSchema,
  DeliveryParams,
  DeliverySchema,
  EndpointIdParams,
  EndpointSchema,
  EndpointWithSecretSchema,
  UpdateEndpointBody,
  deliveriesList,
  endpointExample,
  presentDelivery,
  presentEndpoint,
  unknownEventType,
  updateInput,
} from '../shared/webhook-schemas.js';
import { errorResponse, partnerCommonErrors } from './openapi-examples.js';
import { PartnerEventSchema, eventExamples } from './events.routes.js';

const notFound = errorResponse(
  'No endpoint with this id belongs to your account (in this mode)',
  'NOT_FOUND',
);
const invalidBody = errorResponse(
  'Invalid url (not https, private address, does not resolve) or event type',
  'VALIDATION_ERROR',
);

/** The key's account in the key's mode: a test key sees only test endpoints. */
const ownerOf = (request: FastifyRequest): EndpointOwner => ({
  accountId: request.partner!.id,
  livemode: request.livemode,
});
/** Partner API changes reach the partner's audit log as the key's. */
const byKey = (request: FastifyRequest): ChangeActor => ({ actor: 'api_key', requestId: request.id });

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
        body: CreateEndpointBody,
        response: {
          201: EndpointWithSecretSchema,
          400: invalidBody,
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
      const row = await webhooks.create(
        {
          accountId: request.partner!.id,
          url: request.body.url,
          events: request.body.events,
          description: request.body.description,
          livemode: request.livemode,
        },
        byKey(request),
      );
      return reply.code(201).send({ ...presentEndpoint(row), secret: row.secret });
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
    async (request) => ({
      data: (await webhooks.list(request.partner!.id, request.livemode)).map(presentEndpoint),
    }),
  );

  r.get(
    '/webhook-endpoints/:id',
    {
      schema: {
        operationId: 'getWebhookEndpoint',
        tags: ['Webhooks'],
        summary: 'Get a webhook endpoint',
        description: 'Without its secret.',
        params: EndpointIdParams,
        response: { 200: EndpointSchema, 404: notFound, ...partnerCommonErrors },
      },
    },
    async (request) =>
      presentEndpoint(await webhooks.find(request.partner!.id, request.params.id, request.livemode)),
  );

  r.patch(
    '/webhook-endpoints/:id',
    {
      schema: {
        operationId: 'updateWebhookEndpoint',
        tags: ['Webhooks'],
        summary: 'Change a webhook endpoint',
        description:
          'Only the fields sent change: url (checked as at creation), events (null = all types), ' +
          'description, enabled (false stops deliveries; true resumes them and clears failingSince).',
        params: EndpointIdParams,
        body: UpdateEndpointBody,
        response: { 200: EndpointSchema, 400: invalidBody, 404: notFound, ...partnerCommonErrors },
      },
      attachValidation: true,
    },
    async (request) => {
      if (request.validationError) {
        throw unknownEventType(request.validationError.validation, request.body) ?? request.validationError;
      }
      const row = await webhooks.update(
        ownerOf(request),
        request.params.id,
        updateInput(request.body),
        byKey(request),
      );
      return presentEndpoint(row);
    },
  );

  r.post(
    '/webhook-endpoints/:id/rotate-secret',
    {
      schema: {
        operationId: 'rotateWebhookEndpointSecret',
        tags: ['Webhooks'],
        summary: 'Rotate the signing secret',
        description:
          'Answers a new secret, once. For 24 h every delivery carries two signatures in ' +
          'webhook-signature (space-separated: the new secret first, then the previous one), so a ' +
          'receiver verifies with either while you deploy the new secret; then only the new one.',
        params: EndpointIdParams,
        response: { 200: EndpointWithSecretSchema, 404: notFound, ...partnerCommonErrors },
      },
    },
    async (request) => {
      const row = await webhooks.rotateSecret(ownerOf(request), request.params.id, byKey(request));
      return { ...presentEndpoint(row), secret: row.secret };
    },
  );

  r.delete(
    '/webhook-endpoints/:id',
    {
      schema: {
        operationId: 'deleteWebhookEndpoint',
        tags: ['Webhooks'],
        summary: 'Delete a webhook endpoint',
        description: 'Stops deliveries to it at once, including pending retries.',
        params: EndpointIdParams,
        response: { 204: Type.Null({ description: 'Deleted' }), 404: notFound, ...partnerCommonErrors },
      },
    },
    async (request, reply) => {
      await webhooks.remove(request.partner!.id, request.params.id, request.livemode, byKey(request));
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
        params: EndpointIdParams,
        response: {
          202: { ...PartnerEventSchema, examples: [eventExamples.ping] },
          404: notFound,
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

  r.get(
    '/webhook-endpoints/:id/deliveries',
    {
      schema: {
        operationId: 'listWebhookDeliveries',
        tags: ['Webhooks'],
        summary: "An endpoint's delivery log",
        description:
          'Newest first, 25 per page unless `limit` says otherwise; each delivery with its event ' +
          'type, status, next retry and every attempt (time, HTTP status or network error, ' +
          'duration, first 1 KB of the answer). Kept 30 days, like events.',
        params: EndpointIdParams,
        querystring: pageQuery({}),
        response: {
          200: DeliveryPageSchema,
          400: errorResponse('limit outside 1–100, or a cursor of another list', 'VALIDATION_ERROR'),
          404: notFound,
          ...partnerCommonErrors,
        },
      },
    },
    async (request, reply) => {
      const owner = ownerOf(request);
      const page = deliveriesList.plan([owner.accountId, owner.livemode, request.params.id], request.query);
      const rows = await webhooks.deliveries(owner, request.params.id, {
        after: page.after,
        take: page.take!,
      });
      const { items, nextCursor } = page.finish(request, reply, rows);
      return { data: items.map(presentDelivery), hasMore: nextCursor !== null, nextCursor };
    },
  );

  r.post(
    '/webhook-endpoints/:id/deliveries/:deliveryId/resend',
    {
      schema: {
        operationId: 'resendWebhookDelivery',
        tags: ['Webhooks'],
        summary: 'Resend a delivery',
        description:
          'Queues a new attempt now, with the same event and so the same webhook-id (deduplicate ' +
          'on it). A delivery waiting for a retry has that retry brought forward; a finished one ' +
          'gets one attempt without automatic retries. Sending it again before the attempt ran ' +
          'queues nothing more. A disabled endpoint answers 409: enable it first.',
        params: DeliveryParams,
        response: {
          202: DeliverySchema,
          404: errorResponse('No such endpoint, or no such delivery of it', 'NOT_FOUND'),
          409: errorResponse('The endpoint is disabled', 'INVALID_STATE'),
          ...partnerCommonErrors,
        },
      },
    },
    async (request, reply) => {
      const delivery = await webhooks.resend(ownerOf(request), request.params.id, request.params.deliveryId);
      return reply.code(202).send(presentDelivery(delivery));
    },
  );
}
