import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { SafeTarget } from './ssrf.js';

export interface WebhookResponse {
  status: number;
  /** The Retry-After header, when the receiver sent one (honoured on 429 and 503). */
  retryAfter?: string;
  /** The first RESPONSE_BODY_LIMIT bytes of the answer as text (`bodyText`), for the delivery log. */
  body?: string;
}

/** Posts `body` to a checked target; `null` status never happens: failures throw. */
export type WebhookTransport = (
  target: SafeTarget,
  request: { headers: Record<string, string>; body: string; timeoutMs: number },
) => Promise<WebhookResponse>;

/** A lookup that answers with the already-checked address, whatever the host name. */
function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as unknown as LookupFunction;
}

/** The delivery log keeps this much of an answer; the transport reads no more than this. */
export const RESPONSE_BODY_LIMIT = 1024;

// eslint-disable-next-line no-control-regex -- removing control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;

/**
 * Bytes of an answer as text for the log: UTF-8 (a character cut at the limit becomes U+FFFD),
 * without control characters other than tab and line breaks (a receiver's body is shown in the
 * dashboard and must not smuggle terminal escapes or NULs, which PostgreSQL text refuses).
 */
export function bodyText(bytes: Buffer): string {
  return bytes.subarray(0, RESPONSE_BODY_LIMIT).toString('utf8').replace(CONTROL_CHARACTERS, '');
}

/**
 * node:http(s) POST that connects to `target.address` (TLS still verifies the certificate for the
 * URL's host name, which is also the SNI name and Host header), follows no redirect, keeps the
 * first 1 KB of the answer and then closes the connection (a huge or endless body costs nothing),
 * and gives up after `timeoutMs` in total.
 */
export const httpTransport: WebhookTransport = (target, request) =>
  new Promise((resolve, reject) => {
    const { url } = target;
    const client = url.protocol === 'https:' ? https : http;
    let settled = false;
    const finish = (error: Error | null, response?: WebhookResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) reject(error);
      else resolve(response!);
    };
    const req = client.request(
      url,
      {
        method: 'POST',
        headers: { ...request.headers, 'content-length': Buffer.byteLength(request.body).toString() },
        lookup: pinnedLookup(target.address, target.family),
        agent: false,
      },
      (res) => {
        const header = res.headers['retry-after'];
        const chunks: Buffer[] = [];
        let received = 0;
        const answer = (): WebhookResponse => ({
          status: res.statusCode ?? 0,
          ...(typeof header === 'string' ? { retryAfter: header } : {}),
          body: bodyText(Buffer.concat(chunks)),
        });
        res.on('data', (chunk: Buffer) => {
          if (received >= RESPONSE_BODY_LIMIT) return;
          const kept = chunk.subarray(0, RESPONSE_BODY_LIMIT - received);
          chunks.push(kept);
          received += kept.length;
          // Enough for the log: stop reading (the socket's buffered chunk is all we ever hold).
          if (received >= RESPONSE_BODY_LIMIT) res.destroy();
        });
        res.on('end', () => finish(null, answer()));
        res.on('close', () => finish(null, answer()));
        res.on('error', () => finish(null, answer()));
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      finish(new Error(`no answer within ${request.timeoutMs / 1000} s`));
    }, request.timeoutMs);
    req.on('error', (err) => finish(new Error(`request failed: ${err.message}`)));
    req.end(request.body);
  });
