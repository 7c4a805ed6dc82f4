import { EVENT_TYPES, type AnyEventType } from '../../domain/events/outbox.js';
import { isJson, pascal, type ComponentRegistry } from './openapi-components.js';
import type { Json } from './openapi-surfaces.js';
import { EVENT_PAYLOADS } from './partner-event-schemas.js';

// ---------------------------------------------------------------------------------------------
// Outbound webhooks (Partner API): what a partner's endpoint receives, as OpenAPI 3.1 `webhooks`

/**
 * One event body per type, each with its named `data` schema (./partner-event-schemas.ts). Plain
 * JSON copies: TypeBox's symbol keys stay behind.
 */
function webhookEventSchema(type: AnyEventType): Json {
  const payload = EVENT_PAYLOADS[type];
  return {
    title: payload.title,
    type: 'object',
    description: `The \`${type}\` event, as delivered to webhook endpoints${type === 'ping' ? '' : ' and listed by GET /events'}.`,
    required: ['id', 'type', 'createdAt', 'livemode', 'data'],
    properties: {
      id: { type: 'string', description: 'evt_…; equals the webhook-id header. Deduplicate on it.' },
      type: { type: 'string', const: type },
      createdAt: { type: 'string', format: 'date-time' },
      livemode: { type: 'boolean', description: 'false for events of test keys' },
      data: constToEnum(JSON.parse(JSON.stringify(payload.data))),
    },
  };
}

/**
 * `const: x` → `enum: [x]`, as @fastify/swagger writes the route schemas: the same object then
 * hoists to the same component (`Order`, `Wallet`) rather than a twin.
 */
function constToEnum(node: unknown): Json {
  if (Array.isArray(node)) return node.map(constToEnum) as unknown as Json;
  if (!isJson(node)) return node as Json;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'const') out.enum = [value];
    else out[key] = ['example', 'examples', 'enum', 'default'].includes(key) ? value : constToEnum(value);
  }
  return out;
}

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

/**
 * One OpenAPI 3.1 webhook per event type, named by the type; more types may be added, so a
 * receiver ignores types it does not know.
 */
export function partnerWebhooks(registry: ComponentRegistry): Json {
  const types: AnyEventType[] = [...EVENT_TYPES, 'ping'];
  return Object.fromEntries(
    types.map((type) => [
      type,
      {
        post: {
          operationId: `receive${pascal(type.replace(/[._]/g, '-'))}Event`,
          summary: `${type} delivered to your endpoint`,
          description:
            `${EVENT_PAYLOADS[type].when} Sent to every enabled endpoint subscribed to the type` +
            `${type === 'ping' ? ' (ping: to the tested endpoint only)' : ''}. Verify the signature over ` +
            'the raw body, deduplicate on webhook-id and answer 2xx within 15 s; anything else is retried ' +
            'with growing delays for at least 24 h (410 Gone disables the endpoint). See docs/partner-guide.md.',
          tags: ['Webhooks'],
          security: [],
          parameters: WEBHOOK_HEADERS,
          requestBody: {
            required: true,
            content: { 'application/json': { schema: registry.hoist(webhookEventSchema(type)) } },
          },
          responses: {
            '200': { description: 'Received (any 2xx)' },
            '400': { description: 'Signature or timestamp did not verify: the delivery is retried' },
            '410': { description: 'The endpoint is gone: it is disabled and receives nothing more' },
          },
        },
      },
    ]),
  );
}
