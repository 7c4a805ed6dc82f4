import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { SafeTarget } from './ssrf.js';

export interface WebhookResponse {
  status: number;
  /** The Retry-After header, when the receiver sent one (honoured on 429 and 503). */
  retryAfter?: string;
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

const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * node:http(s) POST that connects to `target.address` (TLS still verifies the certificate for the
 * URL's host name, which is also the SNI name and Host header), follows no redirect, reads at most
 * 64 KiB of the answer and gives up after `timeoutMs` in total.
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
        const answer = (): WebhookResponse => ({
          status: res.statusCode ?? 0,
          ...(typeof header === 'string' ? { retryAfter: header } : {}),
        });
        let received = 0;
        res.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > MAX_RESPONSE_BYTES) res.destroy();
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
