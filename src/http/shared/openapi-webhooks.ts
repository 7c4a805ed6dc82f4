import { EVENT_TYPES } from '../../domain/events/outbox.js';
import type { ComponentRegistry } from './openapi-components.js';
import type { Json } from './openapi-surfaces.js';

// ---------------------------------------------------------------------------------------------
// Outbound webhooks (Partner API): what a partner's endpoint receives, as OpenAPI 3.1 `webhooks`

/** Every type a delivery can carry: the subscribable ones (domain/events) and `ping`. */
const DELIVERED_EVENT_TYPES = [...EVENT_TYPES, 'ping'];

const WEBHOOK_EVENT_SCHEMA: Json = {
  title: 'WebhookEvent',
  type: 'object',
  description: 'An event, as delivered to webhook endpoints and listed by GET /events.',
  required: ['id', 'type', 'createdAt', 'livemode', 'data'],
  properties: {
    id: { type: 'string', description: 'evt_…; equals the webhook-id header. Deduplicate on it.' },
    type: {
      type: 'string',
      enum: DELIVERED_EVENT_TYPES,
      description: 'More types may be added: ignore unknown ones.',
    },
    createdAt: { type: 'string', format: 'date-time' },
    livemode: { type: 'boolean', description: 'false for events of test keys' },
    data: {
      type: 'object',
      additionalProperties: true,
      description:
        'The object the Partner API returns for the resource: the Order for order.*, { esim, thresholdPercent } ' +
        'for esim.usage_threshold, the wallet for wallet.*.',
    },
  },
};

const WEBHOOK_HEADERS: Json[] = [
  ['webhook-id', 'The event id (evt_…); the same on every retry of the event.'],
  ['webhook-timestamp', 'Unix seconds of this attempt; reject deliveries more than 5 minutes away from now.'],
  [
    'webhook-signature',
    'Space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">`, keyed by ' +
      'the base64-decoded part of the endpoint secret after `whsec_` (Standard Webhooks).',
  ],
].map(([name, description]) => ({
  in: 'header',
  name,
  required: true,
  description,
  schema: { type: 'string' },
}));

export function partnerWebhooks(registry: ComponentRegistry): Json {
  return {
    event: {
      post: {
        operationId: 'receiveEvent',
        summary: 'Event delivery to your endpoint',
        description:
          'Sent to every enabled endpoint subscribed to the event type. Verify the signature over the raw ' +
          'body, deduplicate on webhook-id and answer 2xx within 10 s; anything else is retried with growing ' +
          'delays for at least 24 h. See docs/partners.md.',
        tags: ['Webhooks'],
        security: [],
        parameters: WEBHOOK_HEADERS,
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: registry.hoist(structuredClone(WEBHOOK_EVENT_SCHEMA)),
              example: {
                id: 'evt_5Kq2Wm8Xz1Lp4Tb7',
                type: 'order.completed',
                createdAt: '2026-11-23T10:00:00.000Z',
                livemode: true,
                data: { id: 'ord_8Hc3Kq1Wz5Ty7Lp2Nb4M', status: 'COMPLETED' },
              },
            },
          },
        },
        responses: {
          '200': { description: 'Received (any 2xx)' },
          '400': { description: 'Signature or timestamp did not verify: the delivery is retried' },
        },
      },
    },
  };
}
