import { Type, type Static } from '@sinclair/typebox';
import { AppError } from '../../domain/errors.js';
import { EVENT_TYPES, type EventType } from '../../domain/events/outbox.js';
import type {
  DeliveryWithAttempts,
  UpdateEndpointInput,
  WebhookEndpointRow,
} from '../../domain/webhooks/webhooks.service.js';
import { defineList } from './pagination.js';
import { EVENT_PAYLOADS } from './partner-event-schemas.js';
import { IsoDate, Nullable } from './schemas.js';

/**
 * Webhook endpoint and delivery schemas of both surfaces: the Partner API
 * (src/http/partner/webhooks.routes.ts) and the partner dashboard
 * (src/http/mobile/partners/webhooks.routes.ts) answer the same objects.
 */

export const EventTypeSchema = Type.Union(
  EVENT_TYPES.map((t) => Type.Literal(t)),
  { description: 'An event type' },
);

export const endpointExample = {
  id: 'we_5Tg7Hj2Kl9Qw3Er6Ty1U',
  url: 'https://partner.example.com/hooks/esim',
  events: ['order.completed', 'esim.usage_threshold'],
  description: 'Production order sync',
  status: 'enabled',
  failingSince: null,
  previousSecretExpiresAt: null,
  createdAt: '2026-11-22T04:30:12.345Z',
};
const secretExample = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw0pS1dGdp9mE=';

export const EndpointSchema = Type.Object(
  {
    id: Type.String(),
    url: Type.String(),
    events: Nullable(Type.Array(EventTypeSchema, { description: 'Subscribed types; null = all' })),
    description: Nullable(Type.String()),
    status: Type.Union([Type.Literal('enabled'), Type.Literal('disabled')], {
      description:
        'disabled by you (PATCH enabled: false), after 5 days of failed deliveries, or when the receiver answered 410 Gone; PATCH enabled: true or a successful test ping enables it again',
    }),
    failingSince: Nullable(IsoDate),
    previousSecretExpiresAt: Nullable(IsoDate),
    createdAt: IsoDate,
  },
  {
    title: 'WebhookEndpoint',
    description:
      'failingSince: the first failed attempt since the last success (null when healthy). previousSecretExpiresAt: after a rotation, until when deliveries also carry a signature made with the previous secret.',
    examples: [endpointExample],
  },
);

export const EndpointWithSecretSchema = Type.Composite(
  [
    EndpointSchema,
    Type.Object({
      secret: Type.String({
        description:
          'whsec_<base64>: the Standard Webhooks signing secret. Shown only in this response (creation or rotation).',
      }),
    }),
  ],
  { title: 'WebhookEndpointWithSecret', examples: [{ ...endpointExample, secret: secretExample }] },
);

const UrlSchema = Type.String({
  minLength: 1,
  maxLength: 2048,
  description: 'https URL on a public address (checked when set and at every delivery)',
});
const EventsSchema = Type.Array(EventTypeSchema, {
  minItems: 1,
  maxItems: EVENT_TYPES.length,
  uniqueItems: true,
  description: 'Event types to receive; omit for all',
});

export const CreateEndpointBody = Type.Object(
  {
    url: UrlSchema,
    events: Type.Optional(EventsSchema),
    description: Type.Optional(Type.String({ maxLength: 500 })),
  },
  {
    additionalProperties: false,
    examples: [{ url: 'https://partner.example.com/hooks/esim', events: ['order.completed'] }],
  },
);

export const UpdateEndpointBody = Type.Object(
  {
    url: Type.Optional(UrlSchema),
    // null first: the validator coerces types, and would turn null into "" for a string tried first.
    events: Type.Optional(
      Type.Union([Type.Null(), { ...EventsSchema, description: 'Event types to receive; null = all' }]),
    ),
    description: Type.Optional(Type.Union([Type.Null(), Type.String({ maxLength: 500 })])),
    enabled: Type.Optional(
      Type.Boolean({
        description:
          'false: nothing is delivered (pending retries fail); true: deliveries resume and the 5-day failure count starts again',
      }),
    ),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    examples: [{ url: 'https://partner.example.com/hooks/v2' }, { enabled: false }, { events: null }],
  },
);

export const EndpointIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
export const DeliveryParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64 }),
  deliveryId: Type.String({ minLength: 1, maxLength: 64 }),
});

const attemptExample = {
  attempt: 1,
  startedAt: '2026-11-22T04:30:12.400Z',
  responseStatus: 500,
  error: 'endpoint answered HTTP 500',
  durationMs: 184,
  responseBody: '{"error":"database unavailable"}',
  nextRetryAt: '2026-11-22T04:30:17.900Z',
  manual: false,
};

export const AttemptSchema = Type.Object(
  {
    attempt: Type.Integer({ minimum: 1, description: '1 for the first attempt; resends continue the count' }),
    startedAt: IsoDate,
    responseStatus: Nullable(Type.Integer({ description: 'The HTTP status; null when no answer came' })),
    error: Nullable(
      Type.String({ description: 'Why it failed: a non-2xx status, or the network error; null on success' }),
    ),
    durationMs: Type.Integer({
      minimum: 0,
      description: 'From sending the request to the answer (or failure)',
    }),
    responseBody: Nullable(
      Type.String({ description: 'The first 1 KB of the answer as text (control characters removed)' }),
    ),
    nextRetryAt: Nullable(IsoDate),
    manual: Type.Boolean({ description: 'true: a resend you asked for (it gets no automatic retries)' }),
  },
  { title: 'WebhookDeliveryAttempt', examples: [attemptExample] },
);

export const deliveryExample = {
  id: 'whd_0c4a1f9e2b7d3a5c6e8f',
  eventId: 'evt_8Kq2Wm5Zt1Lp7Xc3Vb9N',
  eventType: 'order.completed',
  status: 'pending',
  createdAt: '2026-11-22T04:30:12.345Z',
  lastAttemptAt: '2026-11-22T04:30:12.400Z',
  nextRetryAt: '2026-11-22T04:30:17.900Z',
  attempts: [attemptExample],
};

export const DeliverySchema = Type.Object(
  {
    id: Type.String({ description: 'whd_…' }),
    eventId: Type.String({ description: 'evt_…: also the webhook-id header of every attempt and resend' }),
    eventType: Type.String({ description: 'The event type (or ping for a test)' }),
    status: Type.Union([Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed')], {
      description: 'pending: an attempt is queued or a retry scheduled',
    }),
    createdAt: IsoDate,
    lastAttemptAt: Nullable(IsoDate),
    nextRetryAt: Nullable(IsoDate),
    attempts: Type.Array(AttemptSchema, { description: 'Oldest first' }),
  },
  { title: 'WebhookDelivery', examples: [deliveryExample] },
);

export const DeliveryPageSchema = Type.Object(
  {
    data: Type.Array(DeliverySchema, { description: 'Newest first' }),
    hasMore: Type.Boolean(),
    nextCursor: Nullable(Type.String({ description: 'Pass as cursor for the next page; null on the last' })),
  },
  { examples: [{ data: [deliveryExample], hasMore: false, nextCursor: null }] },
);

/** An endpoint's deliveries, newest first; cursors bound to the account, mode and endpoint. */
export const deliveriesList = defineList<DeliveryWithAttempts>({
  list: 'webhook-deliveries',
  key: ['date', 'string'],
  keyOf: (d) => [d.createdAt, d.id],
  unpagedLimit: 25,
});

export const EventTypeInfoSchema = Type.Object(
  {
    type: EventTypeSchema,
    description: Type.String({ description: 'When it is sent, in one line' }),
  },
  { title: 'WebhookEventType' },
);

/** What each type means: the first sentence of its payload's `when` (one source, partner-event-schemas.ts). */
export function eventTypeCatalogue(): Array<{ type: EventType; description: string }> {
  return EVENT_TYPES.map((type) => ({ type, description: EVENT_PAYLOADS[type].when.split(' data:')[0]! }));
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function presentEndpoint(row: WebhookEndpointRow): Static<typeof EndpointSchema> {
  return {
    id: row.id,
    url: row.url,
    events: (row.eventTypes as Static<typeof EndpointSchema>['events']) ?? null,
    description: row.description,
    status: row.status,
    failingSince: iso(row.failingSince),
    previousSecretExpiresAt: iso(row.previousSecretExpiresAt),
    createdAt: row.createdAt.toISOString(),
  };
}

export function presentDelivery(d: DeliveryWithAttempts): Static<typeof DeliverySchema> {
  return {
    id: d.id,
    eventId: d.eventId,
    eventType: d.eventType,
    status: d.status,
    createdAt: d.createdAt.toISOString(),
    lastAttemptAt: iso(d.lastAttemptAt),
    nextRetryAt: iso(d.nextAttemptAt),
    attempts: d.attemptLog.map((a) => ({
      attempt: a.attempt,
      startedAt: a.startedAt.toISOString(),
      responseStatus: a.responseStatus,
      error: a.error,
      durationMs: a.durationMs,
      responseBody: a.responseBody,
      nextRetryAt: iso(a.nextRetryAt),
      manual: a.manual,
    })),
  };
}

/** The PATCH body as the service takes it (TypeBox's optional fields, without undefined ones). */
export function updateInput(body: Static<typeof UpdateEndpointBody>): UpdateEndpointInput {
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
}

/**
 * A wrong item of `events` fails every branch of the type union, and the validator reports each
 * (one "must be equal to constant" per type). Answer once instead: which value, and what is allowed.
 */
export function unknownEventType(validation: unknown, body: unknown): AppError | null {
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
