import { createHmac, randomUUID } from 'node:crypto';
import { EsimProviderError } from '../types.js';

/**
 * Signed transport for the eSIM Access wholesale API (POST /api/v1/open/…, JSON, HMAC-SHA256
 * headers). Protocol notes: shared/research/providers-and-peers.md §2.
 */
export interface EsimAccessCredentials {
  accessCode: string;
  secretKey: string;
  baseUrl: string;
}

export interface EsimAccessEnvelope<T> {
  success: boolean | string;
  errorCode: string | null;
  errorMsg?: string | null;
  errorMessage?: string | null;
  obj: T;
}

/** HMAC_SHA256(key = secret, data = timestamp + requestId + accessCode + body), lower-case hex. */
export function esimAccessSignature(
  secretKey: string,
  timestamp: string,
  requestId: string,
  accessCode: string,
  body: string,
): string {
  return createHmac('sha256', secretKey)
    .update(timestamp + requestId + accessCode + body)
    .digest('hex');
}

/** Vendor error codes → our error kinds; anything unknown is treated as a retryable outage. */
export function mapEsimAccessError(code: string, message: string): EsimProviderError {
  switch (code) {
    case '200007':
      return new EsimProviderError('insufficient_funds', `provider balance too low (${code})`, true, code);
    case '200010':
      return new EsimProviderError(
        'allocation_pending',
        `profiles still being allocated (${code})`,
        true,
        code,
      );
    case '200011':
      return new EsimProviderError('unavailable', `provider out of stock (${code})`, true, code);
    case '310241':
    case '310243':
    case '310201':
      return new EsimProviderError('unknown_package', `package does not exist (${code})`, false, code);
    case '310272':
    case '310403':
      return new EsimProviderError('not_found', `not found at the provider (${code})`, false, code);
    case '200002':
    case '200009':
      return new EsimProviderError(
        'not_cancellable',
        `operation not allowed in this state (${code})`,
        false,
        code,
      );
    case '000001':
    case '900001':
      return new EsimProviderError('unavailable', `provider busy (${code})`, true, code);
    default:
      return new EsimProviderError(
        'rejected',
        `provider error ${code}: ${message}`.slice(0, 300),
        false,
        code,
      );
  }
}

export function createEsimAccessClient(
  credentials: EsimAccessCredentials,
  options: { timeoutMs?: number } = {},
) {
  const timeoutMs = options.timeoutMs ?? 15_000;
  return {
    /** POSTs `body` to `/api/v1/open/<path>` and returns `obj`, or throws EsimProviderError. */
    async call<T>(path: string, body: Record<string, unknown>): Promise<T> {
      const payload = JSON.stringify(body);
      const timestamp = String(Date.now());
      const requestId = randomUUID().replace(/-/g, '');
      let response: Response;
      try {
        response = await fetch(`${credentials.baseUrl.replace(/\/+$/, '')}/api/v1/open/${path}`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'RT-AccessCode': credentials.accessCode,
            'RT-Timestamp': timestamp,
            'RT-RequestID': requestId,
            'RT-Signature': esimAccessSignature(
              credentials.secretKey,
              timestamp,
              requestId,
              credentials.accessCode,
              payload,
            ),
          },
          body: payload,
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (err) {
        throw new EsimProviderError('unavailable', `provider unreachable: ${(err as Error).message}`, true);
      }
      if (!response.ok)
        throw new EsimProviderError('unavailable', `provider answered HTTP ${response.status}`, true);
      let envelope: EsimAccessEnvelope<T>;
      try {
        envelope = (await response.json()) as EsimAccessEnvelope<T>;
      } catch {
        throw new EsimProviderError('unavailable', 'provider answered with invalid JSON', true);
      }
      const ok = envelope.success === true || envelope.success === 'true';
      if (!ok || (envelope.errorCode && envelope.errorCode !== '0')) {
        throw mapEsimAccessError(
          envelope.errorCode ?? 'unknown',
          envelope.errorMsg ?? envelope.errorMessage ?? '',
        );
      }
      return envelope.obj;
    },
  };
}

export type EsimAccessClient = ReturnType<typeof createEsimAccessClient>;

/** eSIM Access units: bytes → MB, price × 10 000 → cents, `+0000` timestamps → Date. */
export const esimAccessUnits = {
  bytesToMb: (bytes: number) => Math.round(bytes / 1_048_576),
  priceToCents: (price: number) => Math.round(price / 100),
  centsToPrice: (cents: number) => cents * 100,
  parseTime(value: string | null | undefined): Date | null {
    if (!value) return null;
    const iso = value.replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
    const date = new Date(iso);
    return Number.isNaN(date.getTime()) ? null : date;
  },
};
