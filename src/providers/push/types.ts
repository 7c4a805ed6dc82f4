/**
 * The contract of a push service adapter (FCM, APNs, Web Push). Adapters import nothing from the
 * domain: the message and the device are restated here, and the answer is one of four outcomes
 * the domain acts on (src/domain/push/push.service.ts).
 */

export interface PushPayload {
  title: string;
  body: string;
  /** String values only (FCM's rule); `url` is the page a tap opens. */
  data: Record<string, string>;
}

export interface PushTarget {
  platform: 'IOS' | 'ANDROID' | 'WEB';
  /** APNs or FCM token; for WEB the subscription's endpoint. */
  token: string;
  /** WEB only. */
  subscription?: { endpoint: string; keys: { p256dh: string; auth: string } } | null;
}

/**
 * - sent: the push service accepted the message;
 * - gone: the service says this token will never work again (the device is removed);
 * - retry: a transient failure (5xx, 429, network, expired credentials): try again later,
 *   not before `retryAfterMs` when the service said so;
 * - rejected: the service refused this message for good (a bad payload, a wrong topic).
 *
 * `reason` is written to the record and the logs: it never holds the token.
 */
export type PushSendResult =
  | { outcome: 'sent' }
  | { outcome: 'gone'; reason: string }
  | { outcome: 'retry'; reason: string; retryAfterMs?: number }
  | { outcome: 'rejected'; reason: string };

export interface PushSender {
  readonly name: 'fcm' | 'apns' | 'webpush';
  send(target: PushTarget, payload: PushPayload): Promise<PushSendResult>;
  /** Closes kept-open connections (APNs' HTTP/2 session). */
  close(): Promise<void>;
}

/** How long a request to a push service may take before it counts as a transient failure. */
export const PUSH_TIMEOUT_MS = 15_000;

/** `Retry-After` (seconds or an HTTP date) in milliseconds, or undefined. */
export function retryAfterMs(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** A status code that is worth another try later. */
export function isTransientStatus(status: number): boolean {
  return status === 429 || status === 408 || status >= 500;
}

/**
 * A thrown error as a reason safe to record and log: the message with every secret the request
 * carried (the token, the endpoint, the subscription's keys) cut out.
 */
export function safeReason(prefix: string, err: unknown, secrets: ReadonlyArray<string | undefined>): string {
  const error = err instanceof Error ? err : new Error(String(err));
  const code = (error as { code?: unknown }).code;
  let message = `${prefix}: ${typeof code === 'string' ? `${code} ` : ''}${error.message}`;
  for (const secret of secrets) if (secret) message = message.split(secret).join('[redacted]');
  return message.slice(0, 500);
}
