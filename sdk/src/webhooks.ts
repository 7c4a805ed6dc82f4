import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Webhook signatures, Standard Webhooks scheme (https://www.standardwebhooks.com):
 *
 *   webhook-id:        evt_…  (the event id; use it to drop duplicates)
 *   webhook-timestamp: Unix seconds
 *   webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<raw body>">  (space-separated list)
 *
 * keyed by the base64-decoded part of the endpoint secret after `whsec_`. Any Standard Webhooks
 * library verifies these deliveries too; this one has no dependencies.
 */

/** An event delivery body, as sent to webhook endpoints and listed by `GET /events`. */
export interface WebhookEvent<T = Record<string, unknown>> {
  id: string;
  type: string;
  createdAt: string;
  livemode: boolean;
  data: T;
}

export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

/** Node's `req.headers`, a fetch `Headers`, or any name → value record (names in any case). */
export type HeadersLike = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** Largest accepted distance between the timestamp and now, in seconds (default 300). */
  toleranceSeconds?: number;
  /** The current time in milliseconds (default `Date.now()`); for tests. */
  now?: () => number;
}

export const DEFAULT_TOLERANCE_SECONDS = 300;

function header(headers: HeadersLike, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? value.join(' ') : value;
  }
  return undefined;
}

function secretKey(secret: string): Buffer {
  const encoded = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret;
  const key = Buffer.from(encoded, 'base64');
  if (key.length === 0) throw new TypeError('the webhook secret is empty');
  return key;
}

function toBuffer(body: string | Uint8Array): Buffer {
  return typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body);
}

/** The `v1,<signature>` value for a delivery; what the service sends in `webhook-signature`. */
export function signWebhook(
  secret: string,
  id: string,
  timestampSeconds: number,
  body: string | Uint8Array,
): string {
  const mac = createHmac('sha256', secretKey(secret))
    .update(`${id}.${timestampSeconds}.`)
    .update(toBuffer(body))
    .digest('base64');
  return `v1,${mac}`;
}

/**
 * Checks a delivery and returns its parsed event; throws `WebhookVerificationError` when a
 * header is missing, the timestamp is further than `toleranceSeconds` from now (a replay), or
 * no `v1` signature matches. Pass the raw request body exactly as received, before any JSON parsing.
 */
export function verifyWebhook<T = Record<string, unknown>>(
  secret: string,
  headers: HeadersLike,
  body: string | Uint8Array,
  options: VerifyOptions = {},
): WebhookEvent<T> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) {
    throw new WebhookVerificationError('missing webhook-id, webhook-timestamp or webhook-signature header');
  }
  if (!/^\d{1,12}$/.test(timestamp)) throw new WebhookVerificationError('invalid webhook-timestamp');
  const seconds = Number(timestamp);
  const now = Math.floor((options.now ?? Date.now)() / 1000);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (seconds < now - tolerance) throw new WebhookVerificationError('webhook-timestamp is too old');
  if (seconds > now + tolerance) throw new WebhookVerificationError('webhook-timestamp is in the future');

  const expected = Buffer.from(signWebhook(secret, id, seconds, body).slice(3), 'base64');
  const matches = signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',', 2);
    if (version !== 'v1' || !signature) return false;
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new WebhookVerificationError('no matching signature');

  try {
    return JSON.parse(toBuffer(body).toString('utf8')) as WebhookEvent<T>;
  } catch {
    throw new WebhookVerificationError('the body is not JSON');
  }
}
