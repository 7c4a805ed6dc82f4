import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DAY, HOUR } from '../../lib/clock.js';
import { createRateLimitGuard, type RateLimitGuard } from '../shared/rate-limit.js';

/**
 * Per-account budgets of the writes that cost something outside the database (issue 28 H9): a
 * payment session is a call to the card or crypto provider (Stripe, Cryptomus), a ticket and
 * its messages land in the support team's queue and mailbox. Built once per surface and handed
 * to the route files, so the card top-up, the crypto invoice and a card/crypto checkout spend
 * one shared budget. Past it: 429 RATE_LIMITED with Retry-After (src/http/shared/rate-limit.ts;
 * counters in Redis when REDIS_URL is set).
 */
export interface AccountLimits {
  paymentSession: RateLimitGuard;
  ticket: RateLimitGuard;
  ticketMessage: RateLimitGuard;
}

const accountOf = (request: FastifyRequest) => request.auth?.account.id;

export async function createAccountLimits(app: FastifyInstance): Promise<AccountLimits> {
  const limits = app.container.config.abuseLimits;
  return {
    paymentSession: await createRateLimitGuard(app, [
      {
        name: 'payment-session:account',
        max: limits.paymentSessionsPerHour,
        windowMs: HOUR,
        // A wallet checkout opens no payment session: it spends nothing here.
        key: (request) =>
          (request.body as { paymentMethod?: unknown } | undefined)?.paymentMethod === 'wallet'
            ? undefined
            : accountOf(request),
      },
    ]),
    ticket: await createRateLimitGuard(app, [
      { name: 'ticket:account', max: limits.ticketsPerDay, windowMs: DAY, key: accountOf },
    ]),
    ticketMessage: await createRateLimitGuard(app, [
      { name: 'ticket-message:account', max: limits.ticketMessagesPerHour, windowMs: HOUR, key: accountOf },
    ]),
  };
}
