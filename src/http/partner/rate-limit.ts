import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createRateLimitGuard } from '../shared/rate-limit.js';

/** Section 8: two budgets per partner account, each a fixed one-minute window. */
export type PartnerBucket = 'read' | 'orders';

const WINDOW_MS = 60_000;

/** `POST /orders` spends the order budget; every other partner request spends the read budget. */
export function bucketFor(request: FastifyRequest): PartnerBucket {
  return request.method === 'POST' && request.routeOptions.url?.endsWith('/orders') ? 'orders' : 'read';
}

/**
 * Partner rate limiting through the shared guard (src/http/shared/rate-limit.ts: @fastify/rate-limit
 * stores, Redis-backed and shared by every instance when REDIS_URL is set, in-process otherwise;
 * in-process counters with a logged warning while Redis is down).
 *
 * It runs as an onRequest hook registered after the key check, so:
 * - budgets are per account and mode (live, test): an unauthenticated flood gets 401 without spending anyone's budget,
 *   and a regenerated key continues the account's budget instead of resetting it;
 * - a refused request is never parsed and never reaches a handler or the order core;
 * - every authenticated response, errors included, carries X-RateLimit-Limit / -Remaining /
 *   -Reset; 429 RATE_LIMITED adds Retry-After (seconds).
 */
export async function installPartnerRateLimit(app: FastifyInstance): Promise<void> {
  const { rateLimits } = app.container.config;
  const partnerIn = (bucket: PartnerBucket) => (request: FastifyRequest) =>
    request.partner && bucketFor(request) === bucket
      ? budgetKey(request.partner.id, request.livemode)
      : undefined;
  const guard = await createRateLimitGuard(app, [
    {
      name: 'partner-read',
      max: rateLimits.partnerReadPerMinute,
      windowMs: WINDOW_MS,
      key: partnerIn('read'),
    },
    {
      name: 'partner-orders',
      max: rateLimits.partnerOrdersPerMinute,
      windowMs: WINDOW_MS,
      key: partnerIn('orders'),
    },
  ]);
  app.addHook('onRequest', guard);
}

/** Live and test traffic have separate budgets: a load test with a test key never throttles live orders. */
export function budgetKey(accountId: string, livemode: boolean): string {
  return accountId + (livemode ? '' : ':test');
}
