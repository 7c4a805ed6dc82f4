import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ChangeActor, EndpointOwner } from '../../../domain/webhooks/webhooks.service.js';
import { pageQuery } from '../../shared/pagination.js';
import { mobileErrors, SuccessSchema } from '../../shared/schemas.js';
import {
  CreateEndpointBody,
  DeliveryPageSchema,
  DeliveryParams,
  DeliverySchema,
  EndpointIdParams,
  EndpointSchema,
  EndpointWithSecretSchema,
  EventTypeInfoSchema,
  UpdateEndpointBody,
  deliveriesList,
  eventTypeCatalogue,
  presentDelivery,
  presentEndpoint,
  unknownEventType,
  updateInput,
} from '../../shared/webhook-schemas.js';

const TAGS = ['Partner dashboard'];
const READ = { permission: 'webhooks.read' } as const;
const WRITE = { permission: 'webhooks.write' } as const;

/** The partner the scope authorised, in the request's mode (`?mode=test`: test endpoints only). */
const ownerOf = (request: FastifyRequest): EndpointOwner => ({
  accountId: request.partnerAccess!.partnerId,
  livemode: request.livemode,
});
/** The member who made the change, for the partner's audit log. */
const byMember = (request: FastifyRequest): ChangeActor => ({
  actor: `account:${request.partnerAccess!.memberAccountId}`,
  requestId: request.id,
});

/**
 * Webhooks in the partner dashboard (issue 32 C2): the Partner API's endpoint management and
 * delivery log for a partner's team, under /api/v1/partners/{partnerId}/. Reading needs
 * webhooks.read (no secret is ever read back); changes need webhooks.write and are audited.
 */
export async function partnerWebhooksRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { webhooks } = app.container;

  r.get(
    '/webhook-event-types',
    {
      config: READ,
      schema: {
        operationId: 'listPartnerWebhookEventTypes',
        tags: TAGS,
        summary: 'Event types an endpoint can subscribe to',
        response: { 200: Type.Object({ data: Type.Array(EventTypeInfoSchema) }) },
      },
    },
    async () => ({ data: eventTypeCatalogue() }),
  );

  r.get(
    '/webhook-endpoints',
    {
      config: READ,
      schema: {
        operationId: 'listPartnerWebhookEndpoints',
        tags: TAGS,
        summary: "The partner's webhook endpoints in this mode",
        response: { 200: Type.Object({ data: Type.Array(EndpointSchema) }) },
      },
    },
    async (request) => ({
      data: (await webhooks.list(request.partnerAccess!.partnerId, request.livemode)).map(presentEndpoint),
    }),
  );

  r.post(
    '/webhook-endpoints',
    {
      config: WRITE,
      schema: {
        operationId: 'createPartnerWebhookEndpoint',
        tags: TAGS,
        summary: 'Create a webhook endpoint (its secret is answered once)',
        body: CreateEndpointBody,
        response: { 201: EndpointWithSecretSchema, ...mobileErrors(409) },
      },
      attachValidation: true,
    },
    async (request, reply) => {
      if (request.validationError)
        throw unknownEventType(request.validationError.validation, request.body) ?? request.validationError;
      const row = await webhooks.create(
        {
          accountId: request.partnerAccess!.partnerId,
          url: request.body.url,
          events: request.body.events,
          description: request.body.description,
          livemode: request.livemode,
        },
        byMember(request),
      );
      return reply.code(201).send({ ...presentEndpoint(row), secret: row.secret });
    },
  );

  r.get(
    '/webhook-endpoints/:id',
    {
      config: READ,
      schema: {
        operationId: 'getPartnerWebhookEndpoint',
        tags: TAGS,
        summary: 'One webhook endpoint (without its secret)',
        params: EndpointIdParams,
        response: { 200: EndpointSchema },
      },
    },
    async (request) =>
      presentEndpoint(
        await webhooks.find(request.partnerAccess!.partnerId, request.params.id, request.livemode),
      ),
  );

  r.patch(
    '/webhook-endpoints/:id',
    {
      config: WRITE,
      schema: {
        operationId: 'updatePartnerWebhookEndpoint',
        tags: TAGS,
        summary: 'Change the URL, event types, description, or enable / disable',
        params: EndpointIdParams,
        body: UpdateEndpointBody,
        response: { 200: EndpointSchema },
      },
      attachValidation: true,
    },
    async (request) => {
      if (request.validationError)
        throw unknownEventType(request.validationError.validation, request.body) ?? request.validationError;
      return presentEndpoint(
        await webhooks.update(
          ownerOf(request),
          request.params.id,
          updateInput(request.body),
          byMember(request),
        ),
      );
    },
  );

  r.delete(
    '/webhook-endpoints/:id',
    {
      config: WRITE,
      schema: {
        operationId: 'deletePartnerWebhookEndpoint',
        tags: TAGS,
        summary: 'Delete a webhook endpoint (its pending retries stop)',
        params: EndpointIdParams,
        response: { 200: SuccessSchema },
      },
    },
    async (request) => {
      const { partnerId } = request.partnerAccess!;
      await webhooks.remove(partnerId, request.params.id, request.livemode, byMember(request));
      return { success: true as const };
    },
  );

  r.post(
    '/webhook-endpoints/:id/rotate-secret',
    {
      config: WRITE,
      schema: {
        operationId: 'rotatePartnerWebhookSecret',
        tags: TAGS,
        summary: 'New signing secret (answered once); the previous one keeps signing for 24 h',
        params: EndpointIdParams,
        response: { 200: EndpointWithSecretSchema },
      },
    },
    async (request) => {
      const row = await webhooks.rotateSecret(ownerOf(request), request.params.id, byMember(request));
      return { ...presentEndpoint(row), secret: row.secret };
    },
  );

  r.post(
    '/webhook-endpoints/:id/test',
    {
      config: WRITE,
      schema: {
        operationId: 'testPartnerWebhookEndpoint',
        tags: TAGS,
        summary: 'Send a test ping to this endpoint',
        params: EndpointIdParams,
        response: {
          202: Type.Object({ eventId: Type.String({ description: 'evt_…: the ping, in the delivery log' }) }),
        },
      },
    },
    async (request, reply) => {
      const event = await webhooks.ping(
        request.partnerAccess!.partnerId,
        request.params.id,
        request.livemode,
      );
      return reply.code(202).send({ eventId: event.id });
    },
  );

  r.get(
    '/webhook-endpoints/:id/deliveries',
    {
      config: READ,
      schema: {
        operationId: 'listPartnerWebhookDeliveries',
        tags: TAGS,
        summary: "An endpoint's delivery log, newest first, with every attempt",
        params: EndpointIdParams,
        querystring: pageQuery({}),
        response: { 200: DeliveryPageSchema },
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
      config: WRITE,
      schema: {
        operationId: 'resendPartnerWebhookDelivery',
        tags: TAGS,
        summary: 'Resend a delivery now (same webhook-id)',
        params: DeliveryParams,
        response: { 202: DeliverySchema, ...mobileErrors(409) },
      },
    },
    async (request, reply) => {
      const delivery = await webhooks.resend(ownerOf(request), request.params.id, request.params.deliveryId);
      return reply.code(202).send(presentDelivery(delivery));
    },
  );
}
