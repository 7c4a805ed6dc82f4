/** Rate limits and per-client/per-account budgets (README "Configuration"). */

import { int, type Env } from './parse.js';

/** Upper bound of the per-period limits. */
const MAX_LIMIT = 10_000_000;

export interface LimitsConfig {
  rateLimits: {
    partnerReadPerMinute: number;
    partnerOrdersPerMinute: number;
    authPerMinute: number;
    /** POST /auth/register per client address per hour. */
    registerPerHour: number;
    /** Wrong passwords per account per hour before addresses that sent one are refused (S10). */
    accountFailuresPerHour: number;
  };
  /** Issue 28 H2, H9: per-client share of password hashing, per-account budgets (see README). */
  abuseLimits: {
    passwordHashQueue: number;
    passwordHashPerClient: number;
    paymentSessionsPerHour: number;
    ticketsPerDay: number;
    ticketMessagesPerHour: number;
    /** Issue 30 T3: contact-form tickets (no account) per address and per client IP, per hour. */
    contactPerEmailPerHour: number;
    contactPerIpPerHour: number;
    /** Issue 30 T10: "Download my data" documents per account per hour (each reads every row). */
    exportsPerHour: number;
  };
  /** Issue 31 L4: self-service cancel and refund of unused eSIM orders. */
  selfRefunds: {
    /** An order can be cancelled by its owner this many days after it was placed. */
    windowDays: number;
    /** Self-service refunds per account (and mode) in any 30 days. */
    per30Days: number;
  };
}

export function limitsConfig(env: Env): LimitsConfig {
  return {
    rateLimits: {
      partnerReadPerMinute: int(env, 'PARTNER_READ_RATE_LIMIT', 120, 1, MAX_LIMIT),
      partnerOrdersPerMinute: int(env, 'PARTNER_ORDER_RATE_LIMIT', 30, 1, MAX_LIMIT),
      authPerMinute: int(env, 'AUTH_RATE_LIMIT', 10, 1, MAX_LIMIT),
      registerPerHour: int(env, 'REGISTER_RATE_LIMIT', 20, 1, MAX_LIMIT),
      accountFailuresPerHour: int(env, 'AUTH_ACCOUNT_FAILURE_LIMIT', 50, 1, MAX_LIMIT),
    },
    abuseLimits: {
      passwordHashQueue: int(env, 'PASSWORD_HASH_QUEUE_LIMIT', 64, 1, 100_000),
      passwordHashPerClient: int(env, 'PASSWORD_HASH_CLIENT_LIMIT', 4, 1, 100_000),
      paymentSessionsPerHour: int(env, 'PAYMENT_SESSION_LIMIT', 20, 1, MAX_LIMIT),
      ticketsPerDay: int(env, 'TICKET_LIMIT', 10, 1, MAX_LIMIT),
      ticketMessagesPerHour: int(env, 'TICKET_MESSAGE_LIMIT', 60, 1, MAX_LIMIT),
      contactPerEmailPerHour: int(env, 'CONTACT_EMAIL_LIMIT', 5, 1, MAX_LIMIT),
      contactPerIpPerHour: int(env, 'CONTACT_IP_LIMIT', 20, 1, MAX_LIMIT),
      exportsPerHour: int(env, 'EXPORT_LIMIT', 10, 1, MAX_LIMIT),
    },
    selfRefunds: {
      windowDays: int(env, 'REFUND_WINDOW_DAYS', 30, 0, 3650),
      per30Days: int(env, 'SELF_REFUNDS_PER_30_DAYS', 3, 0, MAX_LIMIT),
    },
  };
}
