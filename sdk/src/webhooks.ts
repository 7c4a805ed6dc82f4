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

/** Canonical standard base64 (RFC 4648 §4, padded): what the service issues after `whsec_`. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function secretKey(secret: string): Buffer {
  const encoded = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret;
  // Node's base64 decoder skips junk and stops at the first '=', so two spellings could make one key.
  if (!BASE64.test(encoded)) throw new TypeError('the webhook secret is not whsec_ followed by base64');
  const key = Buffer.from(encoded, 'base64');
  if (key.length === 0) throw new TypeError('the webhook secret is empty');
  return key;
}

/**
 * The bytes that are signed. Like the `standardwebhooks` reference, a Buffer body is read as
 * UTF-8 text first, so both libraries give the same verdict on any body.
 */
function toBuffer(body: string | Uint8Array): Buffer {
  const text = typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
  return Buffer.from(text, 'utf8');
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
  // Read as the reference library reads it (parseInt): the signature covers the number read.
  const seconds = Number.parseInt(timestamp, 10);
  if (Number.isNaN(seconds)) throw new WebhookVerificationError('invalid webhook-timestamp');
  const now = Math.floor((options.now ?? Date.now)() / 1000);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (seconds < now - tolerance) throw new WebhookVerificationError('webhook-timestamp is too old');
  if (seconds > now + tolerance) throw new WebhookVerificationError('webhook-timestamp is in the future');

  // Compare the text, not decoded bytes: only the exact padded base64 the signer wrote matches,
  // as in the reference (a lenient decoder would also take unpadded, base64url or trailing junk).
  const expected = Buffer.from(signWebhook(secret, id, seconds, body).slice('v1,'.length), 'utf8');
  const matches = signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',', 2);
    if (version !== 'v1' || signature === undefined) return false;
    const given = Buffer.from(signature, 'utf8');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new WebhookVerificationError('no matching signature');

  try {
    return JSON.parse(toBuffer(body).toString('utf8')) as WebhookEvent<T>;
  } catch {
    throw new WebhookVerificationError('the body is not JSON');
  }
}
