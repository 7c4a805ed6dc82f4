/** The eSIM provider, its credentials, and how long its usage figures are reused. */

import { int, oneOf, optional, required, url, type Env } from './parse.js';

export type EsimProviderName = 'sandbox' | 'esimaccess';

export interface EsimConfig {
  esimProvider: EsimProviderName;
  esimAccess: {
    accessCode: string;
    secretKey: string;
    baseUrl: string;
    allocationWaitMs: number;
    timeoutMs: number;
  };
  usageCacheSeconds: number;
  /** The scheduled poll of eSIM state (docs/operations.md "eSIM poll"). */
  esimPoll: { intervalSeconds: number; ratePerSecond: number; batch: number };
}

export function esimConfig(env: Env): EsimConfig {
  const esimProvider = oneOf(env, 'ESIM_PROVIDER', ['sandbox', 'esimaccess'] as const, 'sandbox');
  const esimAccess = {
    accessCode: optional(env, 'ESIMACCESS_ACCESS_CODE') ?? '',
    secretKey: optional(env, 'ESIMACCESS_SECRET_KEY') ?? '',
    baseUrl: url(env, 'ESIMACCESS_BASE_URL', 'https://api.esimaccess.com', ['http:', 'https:'])!,
    allocationWaitMs: int(env, 'ESIMACCESS_ALLOCATION_WAIT_MS', 20_000, 0, 600_000),
    timeoutMs: int(env, 'ESIMACCESS_TIMEOUT_MS', 15_000, 100, 120_000),
  };
  if (esimProvider === 'esimaccess') {
    required('ESIMACCESS_ACCESS_CODE', esimAccess.accessCode, 'ESIM_PROVIDER=esimaccess');
    required('ESIMACCESS_SECRET_KEY', esimAccess.secretKey, 'ESIM_PROVIDER=esimaccess');
  }
  return {
    esimProvider,
    esimAccess,
    usageCacheSeconds: int(env, 'USAGE_CACHE_SECONDS', 60, 0, 86_400),
    esimPoll: {
      intervalSeconds: int(env, 'ESIM_POLL_INTERVAL_SECONDS', 300, 10, 86_400),
      // eSIM Access allows 8 requests/s per account: the poll takes half, orders and top-ups the rest.
      ratePerSecond: int(env, 'ESIM_POLL_RATE_PER_SECOND', 4, 1, 100),
      batch: int(env, 'ESIM_POLL_BATCH', 600, 1, 100_000),
    },
  };
}
