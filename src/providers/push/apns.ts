import { readFileSync } from 'node:fs';
import { connect, constants, type ClientHttp2Session } from 'node:http2';
import { importPKCS8, SignJWT } from 'jose';
import {
  isTransientStatus,
  PUSH_TIMEOUT_MS,
  retryAfterMs,
  safeReason,
  type PushSender,
  type PushSendResult,
} from './types.js';

/**
 * Apple limits how often a provider token may change (at most every 20 minutes) and rejects one
 * older than an hour: one token is signed and reused for 40 minutes.
 */
const TOKEN_LIFETIME_MS = 40 * 60 * 1000;

/** Reasons APNs answers for a token that will never work again (410, and 400 BadDeviceToken). */
const GONE_REASONS = new Set(['BadDeviceToken', 'Unregistered', 'DeviceTokenNotForTopic']);

/**
 * Apple Push Notification service over HTTP/2 (`POST /3/device/<token>`) with a .p8 token key: an
 * ES256 JWT (`kid` the key id, `iss` the team id) signed with jose. One HTTP/2 session is kept
 * open and reused, as Apple asks; a closed one is reopened on the next send.
 */
export function createApnsSender(options: {
  keyFile: string;
  keyId: string;
  teamId: string;
  /** The app's bundle id (`apns-topic`). */
  topic: string;
  /** https://api.push.apple.com or https://api.sandbox.push.apple.com, or a test's fake. */
  baseUrl: string;
  now?: () => number;
}): PushSender {
  const now = options.now ?? Date.now;
  let session: ClientHttp2Session | undefined;
  let providerToken: { value: string; issuedAt: number } | undefined;

  async function bearer(): Promise<string> {
    if (providerToken && now() - providerToken.issuedAt < TOKEN_LIFETIME_MS) return providerToken.value;
    const key = await importPKCS8(readFileSync(options.keyFile, 'utf8'), 'ES256');
    const issuedAt = now();
    const value = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: options.keyId })
      .setIssuer(options.teamId)
      .setIssuedAt(Math.floor(issuedAt / 1000))
      .sign(key);
    providerToken = { value, issuedAt };
    return value;
  }

  function open(): ClientHttp2Session {
    if (session && !session.closed && !session.destroyed) return session;
    const opened = connect(options.baseUrl);
    // A broken session is dropped; the request on it fails on its own and is retried.
    opened.on('error', () => opened.destroy());
    opened.on('close', () => {
      if (session === opened) session = undefined;
    });
    opened.unref();
    session = opened;
    return opened;
  }

  function post(path: string, headers: Record<string, string>, body: string) {
    return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
      (resolve, reject) => {
        const request = open().request({
          [constants.HTTP2_HEADER_METHOD]: 'POST',
          [constants.HTTP2_HEADER_PATH]: path,
          ...headers,
        });
        let status = 0;
        let responseHeaders: Record<string, unknown> = {};
        const chunks: Buffer[] = [];
        request.setTimeout(PUSH_TIMEOUT_MS, () => {
          request.close(constants.NGHTTP2_CANCEL);
          reject(new Error(`no answer within ${PUSH_TIMEOUT_MS} ms`));
        });
        request.on('response', (h) => {
          status = Number(h[constants.HTTP2_HEADER_STATUS]);
          responseHeaders = h;
        });
        request.on('data', (chunk: Buffer) => chunks.push(chunk));
        request.on('end', () =>
          resolve({ status, headers: responseHeaders, body: Buffer.concat(chunks).toString() }),
        );
        request.on('error', reject);
        request.end(body);
      },
    );
  }

  return {
    name: 'apns',
    async send(target, payload): Promise<PushSendResult> {
      let response: Awaited<ReturnType<typeof post>>;
      try {
        response = await post(
          `/3/device/${encodeURIComponent(target.token)}`,
          {
            authorization: `bearer ${await bearer()}`,
            'apns-topic': options.topic,
            'apns-push-type': 'alert',
            'apns-priority': '10',
            'content-type': 'application/json',
          },
          JSON.stringify({
            aps: { alert: { title: payload.title, body: payload.body }, sound: 'default' },
            ...payload.data,
          }),
        );
      } catch (err) {
        return { outcome: 'retry', reason: safeReason('APNs request failed', err, [target.token]) };
      }
      if (response.status === 200) return { outcome: 'sent' };
      let apnsReason = '';
      try {
        const parsed = JSON.parse(response.body) as { reason?: unknown };
        apnsReason = typeof parsed.reason === 'string' ? parsed.reason : '';
      } catch {
        // no JSON body: the status alone says it
      }
      const reason = `APNs ${response.status} ${apnsReason}`.trim();
      if (response.status === 410 || GONE_REASONS.has(apnsReason)) return { outcome: 'gone', reason };
      if (response.status === 403 && /ProviderToken/.test(apnsReason)) {
        // ExpiredProviderToken / InvalidProviderToken: sign a new one for the next attempt.
        providerToken = undefined;
        return { outcome: 'retry', reason };
      }
      if (isTransientStatus(response.status)) {
        const header = response.headers['retry-after'];
        const after = retryAfterMs(typeof header === 'string' ? header : undefined);
        return { outcome: 'retry', reason, ...(after !== undefined ? { retryAfterMs: after } : {}) };
      }
      return { outcome: 'rejected', reason };
    },
    async close() {
      const current = session;
      session = undefined;
      if (current && !current.closed) await new Promise<void>((resolve) => current.close(() => resolve()));
    },
  };
}
