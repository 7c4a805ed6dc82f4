import { createRequire } from 'node:module';
import type * as WebPush from 'web-push';
import {
  isTransientStatus,
  PUSH_TIMEOUT_MS,
  retryAfterMs,
  safeReason,
  type PushSender,
  type PushSendResult,
} from './types.js';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

// Loaded when first used: outbox mode with VAPID keys set never loads it.
const load = () => createRequire(import.meta.url)('web-push') as typeof WebPush;

/** A new VAPID key pair (P-256, base64url), for a service whose VAPID_* variables are unset. */
export function generateVapidKeys(): VapidKeys {
  return load().generateVAPIDKeys();
}

/**
 * Web Push (RFC 8030) with VAPID (RFC 8292) and an encrypted payload (RFC 8291) through the
 * web-push library: the browser's subscription endpoint gets `{ title, body, data }` as JSON,
 * which the web app's service worker (web/public/sw.js) shows.
 */
export function createWebPushSender(options: {
  /** The VAPID keys (from the environment, or kept in the database). */
  vapidKeys: () => Promise<VapidKeys>;
  /** mailto: or https: contact for the push service's operator. */
  subject: string;
}): PushSender {
  return {
    name: 'webpush',
    async send(target, payload): Promise<PushSendResult> {
      const subscription = target.subscription;
      const secrets = [
        target.token,
        subscription?.endpoint,
        subscription?.keys.p256dh,
        subscription?.keys.auth,
      ];
      if (!subscription) return { outcome: 'rejected', reason: 'Web Push: the device has no subscription' };
      try {
        const keys = await options.vapidKeys();
        await load().sendNotification(subscription, JSON.stringify(payload), {
          vapidDetails: { subject: options.subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
          TTL: 24 * 60 * 60,
          urgency: 'high',
          timeout: PUSH_TIMEOUT_MS,
        });
        return { outcome: 'sent' };
      } catch (err) {
        const statusCode = (err as { statusCode?: unknown }).statusCode;
        if (typeof statusCode !== 'number') {
          return { outcome: 'retry', reason: safeReason('Web Push request failed', err, secrets) };
        }
        const reason = `Web Push ${statusCode}`;
        if (statusCode === 404 || statusCode === 410) return { outcome: 'gone', reason };
        if (isTransientStatus(statusCode)) {
          const headers = (err as { headers?: Record<string, string | string[] | undefined> }).headers;
          const header = headers?.['retry-after'];
          const after = retryAfterMs(typeof header === 'string' ? header : undefined);
          return { outcome: 'retry', reason, ...(after !== undefined ? { retryAfterMs: after } : {}) };
        }
        return { outcome: 'rejected', reason };
      }
    },
    async close() {},
  };
}
