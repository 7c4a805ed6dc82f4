import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as GoogleAuth from 'google-auth-library';
import type { JWT } from 'google-auth-library';
import {
  isTransientStatus,
  PUSH_TIMEOUT_MS,
  retryAfterMs,
  safeReason,
  type PushSender,
  type PushSendResult,
} from './types.js';

/** Where google-auth-library sends its token request whatever the credentials file says. */
const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
const FCM_SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';

interface ServiceAccount {
  project_id: string;
  client_email: string;
  private_key: string;
}

interface FcmErrorBody {
  error?: { code?: number; status?: string; message?: string; details?: Array<{ errorCode?: string }> };
}

/**
 * Firebase Cloud Messaging, HTTP v1 API (`POST /v1/projects/{project}/messages:send`), with an
 * OAuth token google-auth-library gets from the service account (a JWT-bearer grant) and renews
 * before it expires. Android devices, and iOS apps that register a Firebase token.
 */
export function createFcmSender(options: {
  credentialsFile: string;
  /** https://fcm.googleapis.com, or a test's fake. */
  baseUrl: string;
  /** The OAuth token endpoint; the library always uses Google's, so requests to it are redirected. */
  tokenUrl: string;
}): PushSender {
  let client: { jwt: JWT; projectId: string } | undefined;

  function auth(): { jwt: JWT; projectId: string } {
    if (client) return client;
    const account = JSON.parse(readFileSync(options.credentialsFile, 'utf8')) as ServiceAccount;
    if (!account.project_id || !account.client_email || !account.private_key) {
      throw new Error(
        'FCM_CREDENTIALS_FILE is not a service-account key (project_id, client_email, private_key)',
      );
    }
    // Loaded on first send only: outbox mode and apps without Android never pay for it.
    const { JWT: Jwt } = createRequire(import.meta.url)('google-auth-library') as typeof GoogleAuth;
    const jwt = new Jwt({ email: account.client_email, key: account.private_key, scopes: [FCM_SCOPE] });
    jwt.transporter.interceptors.request.add({
      resolved: async (request) => {
        if (request.url.href === GOOGLE_TOKEN_URL) request.url = new URL(options.tokenUrl);
        return request;
      },
    });
    client = { jwt, projectId: account.project_id };
    return client;
  }

  return {
    name: 'fcm',
    async send(target, payload): Promise<PushSendResult> {
      const secrets = [target.token];
      let response: Response;
      try {
        const { jwt, projectId } = auth();
        const { token: accessToken } = await jwt.getAccessToken();
        response = await fetch(
          `${options.baseUrl}/v1/projects/${encodeURIComponent(projectId)}/messages:send`,
          {
            method: 'POST',
            headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
            body: JSON.stringify({
              message: {
                token: target.token,
                notification: { title: payload.title, body: payload.body },
                data: payload.data,
                android: { priority: 'high' },
              },
            }),
            signal: AbortSignal.timeout(PUSH_TIMEOUT_MS),
          },
        );
      } catch (err) {
        return { outcome: 'retry', reason: safeReason('FCM request failed', err, secrets) };
      }
      if (response.ok) {
        await response.body?.cancel();
        return { outcome: 'sent' };
      }
      const body = (await response.json().catch(() => ({}))) as FcmErrorBody;
      const errorCode = body.error?.details?.find((d) => d.errorCode)?.errorCode;
      const reason = `FCM ${response.status} ${errorCode ?? body.error?.status ?? ''}`.trim();
      if (errorCode === 'UNREGISTERED' || response.status === 404) return { outcome: 'gone', reason };
      if (response.status === 401) {
        // A revoked or expired access token: the next attempt gets a new one.
        client = undefined;
        return { outcome: 'retry', reason };
      }
      if (isTransientStatus(response.status)) {
        const after = retryAfterMs(response.headers.get('retry-after'));
        return { outcome: 'retry', reason, ...(after !== undefined ? { retryAfterMs: after } : {}) };
      }
      return { outcome: 'rejected', reason };
    },
    async close() {},
  };
}
