/**
 * The only reader of process.env. Every variable is parsed and validated once at start-up;
 * a bad value throws a ConfigError naming the variable, and `main` stops with that message.
 */

import ipaddr from 'ipaddr.js';

export class ConfigError extends Error {}

/** `off`: the payment method is switched off (its endpoints answer 503, its webhook 404). */
export type CardProviderName = 'sandbox' | 'stripe' | 'off';
export type CryptoProviderName = 'sandbox' | 'cryptomus' | 'off';
export type EsimProviderName = 'sandbox' | 'esimaccess';

export interface Config {
  port: number;
  host: string;
  publicBaseUrl: string;
  databaseUrl: string | undefined;
  /** PostgreSQL: wait for a connection at most this long, then the request answers 503. */
  databaseConnectTimeoutMs: number;
  dataDir: string;
  /** The built web app (vite build output); not served when the directory has no index.html. */
  webDistDir: string;
  redisUrl: string | undefined;
  redisKeyPrefix: string;
  adminToken: string | undefined;
  logLevel: string;
  cardProvider: CardProviderName;
  stripe: { secretKey: string; webhookSecret: string; apiBaseUrl: string | undefined };
  cryptoProvider: CryptoProviderName;
  cryptomus: { merchantId: string; apiKey: string; baseUrl: string };
  esimProvider: EsimProviderName;
  esimAccess: {
    accessCode: string;
    secretKey: string;
    baseUrl: string;
    allocationWaitMs: number;
    timeoutMs: number;
  };
  /** webhookSecret undefined: a random secret generated once and kept in the database (app_secrets). */
  sandbox: { webhookSecret: string | undefined; esimLatencyMs: number };
  /** Custom URL schemes (lower case, no `:`) accepted as payment redirect targets besides https. */
  appUrlSchemes: readonly string[];
  /** Fastify `trustProxy`: false, true, a hop count, or a list of addresses/CIDRs. */
  trustProxy: boolean | number | string[];
  mail: { transport: 'outbox' | 'smtp'; smtpUrl: string | undefined; from: string };
  supportEmail: string;
  usageCacheSeconds: number;
  catalog: { markupPercent: number; syncIntervalMinutes: number };
  worker: { enabled: boolean; pollIntervalMs: number; concurrency: number };
  /** Seconds SIGTERM waits for requests in flight and running jobs before closing anyway. */
  shutdownGraceSeconds: number;
  /** Bearer token of GET /metrics; the route answers 404 without it. */
  metricsToken: string | undefined;
  /** Retention of finished background jobs, days (failed jobs are kept until an operator acts). */
  jobRetentionDays: number;
  fulfillment: { maxAttempts: number; retryBaseSeconds: number };
  /** Partner webhooks (src/domain/webhooks) and inbound provider webhooks. */
  webhooks: {
    /** WEBHOOK_ALLOW_PRIVATE_URLS: http and private/loopback targets allowed (development, tests). */
    allowPrivateUrls: boolean;
    /** ESIMACCESS_WEBHOOK_TOKEN: secret path segment of POST /webhooks/esimaccess/<token>; unset = route off. */
    esimAccessToken: string | undefined;
    /** ESIMACCESS_WEBHOOK_IPS: peer addresses allowed to call it; empty = any. */
    esimAccessAllowedIps: string[];
  };
  /** Issue 28 (H3, H11): request transport and the origins cookie-authenticated writes may come from. */
  http: {
    /** REQUEST_TIMEOUT_SECONDS, in ms: a request (headers and body) must arrive within it; then 408. */
    requestTimeoutMs: number;
    /** Origins of the web app: PUBLIC_BASE_URL's, or while it is unset every loopback spelling of PORT. */
    trustedOrigins: readonly string[];
  };
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
  };
}

type Env = Record<string, string | undefined>;

function str(env: Env, name: string, fallback: string): string {
  const v = env[name];
  return v === undefined || v === '' ? fallback : v;
}

function optional(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v === '' ? undefined : v;
}

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^-?\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be an integer, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = str(env, name, fallback);
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return raw as T;
}

function url(env: Env, name: string, fallback: string | undefined, protocols: string[]): string | undefined {
  const raw = optional(env, name) ?? fallback;
  if (raw === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL, got a value that does not parse`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must use one of ${protocols.join(', ')}`);
  }
  return raw;
}

function required(name: string, value: string | undefined, why: string): string {
  if (!value) throw new ConfigError(`${name} is required when ${why}`);
  return value;
}

/** The value the repository once shipped as a default; refused so it can never sign real webhooks. */
const PUBLISHED_SANDBOX_SECRET = 'sandbox-webhook-secret-change-me';

function appUrlSchemes(env: Env): string[] {
  const raw = optional(env, 'APP_URL_SCHEMES');
  if (!raw) return [];
  const schemes = raw
    .split(',')
    .map((s) =>
      s
        .trim()
        .toLowerCase()
        .replace(/:(\/\/)?$/, ''),
    )
    .filter(Boolean);
  const forbidden = new Set([
    'http',
    'https',
    'javascript',
    'data',
    'file',
    'intent',
    'vbscript',
    'blob',
    'about',
  ]);
  for (const scheme of schemes) {
    if (!/^[a-z][a-z0-9+.-]{1,31}$/.test(scheme) || forbidden.has(scheme)) {
      throw new ConfigError(`APP_URL_SCHEMES must list custom app schemes such as myapp, got "${scheme}"`);
    }
  }
  return schemes;
}

function trustProxy(env: Env): boolean | number | string[] {
  const raw = optional(env, 'TRUST_PROXY')?.trim();
  if (raw === undefined || ['false', '0', 'no', 'off'].includes(raw.toLowerCase())) return false;
  if (['true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops > 10) throw new ConfigError(`TRUST_PROXY hop count must be between 0 and 10, got ${hops}`);
    return hops;
  }
  const entries = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const ipv4 = /^(\d{1,3})(\.\d{1,3}){3}(\/\d{1,2})?$/;
  const ipv6 = /^[0-9a-f:]+(\/\d{1,3})?$/i;
  const named = new Set(['loopback', 'linklocal', 'uniquelocal']);
  for (const entry of entries) {
    if (!ipv4.test(entry) && !(entry.includes(':') && ipv6.test(entry)) && !named.has(entry)) {
      throw new ConfigError(
        `TRUST_PROXY must be true, false, a hop count or a comma-separated list of addresses/CIDRs, got "${entry}"`,
      );
    }
  }
  return entries;
}

const REAL_CARD = new Set<CardProviderName>(['stripe']);
const REAL_CRYPTO = new Set<CryptoProviderName>(['cryptomus']);

/**
 * A sandbox payment provider credits wallets without money moving; beside a real provider it
 * would let anyone mint credit and spend it on real eSIMs. So either both are sandbox (or off),
 * or none is.
 */
function refuseSandboxBesideRealProvider(card: CardProviderName, crypto: CryptoProviderName): void {
  if (REAL_CARD.has(card) && crypto === 'sandbox') {
    throw new ConfigError(
      `CRYPTO_PROVIDER=sandbox cannot run beside CARD_PROVIDER=${card}: set CRYPTO_PROVIDER to cryptomus or off`,
    );
  }
  if (REAL_CRYPTO.has(crypto) && card === 'sandbox') {
    throw new ConfigError(
      `CARD_PROVIDER=sandbox cannot run beside CRYPTO_PROVIDER=${crypto}: set CARD_PROVIDER to stripe or off`,
    );
  }
}

export function loadConfig(env: Env = process.env): Readonly<Config> {
  const port = int(env, 'PORT', 3000, 0, 65535);
  const publicBaseUrl = url(env, 'PUBLIC_BASE_URL', `http://localhost:${port}`, ['http:', 'https:'])!.replace(
    /\/+$/,
    '',
  );
  const databaseUrl = url(env, 'DATABASE_URL', undefined, ['postgres:', 'postgresql:', 'memory:']);
  const cardProvider = oneOf(env, 'CARD_PROVIDER', ['sandbox', 'stripe', 'off'] as const, 'sandbox');
  const cryptoProvider = oneOf(env, 'CRYPTO_PROVIDER', ['sandbox', 'cryptomus', 'off'] as const, 'sandbox');
  refuseSandboxBesideRealProvider(cardProvider, cryptoProvider);
  const esimProvider = oneOf(env, 'ESIM_PROVIDER', ['sandbox', 'esimaccess'] as const, 'sandbox');
  const mailTransport = oneOf(env, 'MAIL_TRANSPORT', ['outbox', 'smtp'] as const, 'outbox');
  const smtpUrl = url(env, 'SMTP_URL', undefined, ['smtp:', 'smtps:']);
  const adminToken = optional(env, 'ADMIN_TOKEN');
  if (adminToken !== undefined && adminToken.length < 16) {
    throw new ConfigError('ADMIN_TOKEN must be at least 16 characters');
  }
  const metricsToken = optional(env, 'METRICS_TOKEN');
  if (metricsToken !== undefined && metricsToken.length < 16) {
    throw new ConfigError('METRICS_TOKEN must be at least 16 characters');
  }

  const stripe = {
    secretKey: optional(env, 'STRIPE_SECRET_KEY') ?? '',
    webhookSecret: optional(env, 'STRIPE_WEBHOOK_SECRET') ?? '',
    apiBaseUrl: url(env, 'STRIPE_API_BASE_URL', undefined, ['http:', 'https:']),
  };
  if (cardProvider === 'stripe') {
    required('STRIPE_SECRET_KEY', stripe.secretKey, 'CARD_PROVIDER=stripe');
    required('STRIPE_WEBHOOK_SECRET', stripe.webhookSecret, 'CARD_PROVIDER=stripe');
  }
  const cryptomus = {
    merchantId: optional(env, 'CRYPTOMUS_MERCHANT_ID') ?? '',
    apiKey: optional(env, 'CRYPTOMUS_API_KEY') ?? '',
    baseUrl: url(env, 'CRYPTOMUS_BASE_URL', 'https://api.cryptomus.com', ['http:', 'https:'])!,
  };
  if (cryptoProvider === 'cryptomus') {
    required('CRYPTOMUS_MERCHANT_ID', cryptomus.merchantId, 'CRYPTO_PROVIDER=cryptomus');
    required('CRYPTOMUS_API_KEY', cryptomus.apiKey, 'CRYPTO_PROVIDER=cryptomus');
  }
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
  if (mailTransport === 'smtp') required('SMTP_URL', smtpUrl, 'MAIL_TRANSPORT=smtp');
  const esimAccessWebhookToken = optional(env, 'ESIMACCESS_WEBHOOK_TOKEN');
  if (esimAccessWebhookToken !== undefined && !/^[A-Za-z0-9_-]{16,128}$/.test(esimAccessWebhookToken)) {
    throw new ConfigError('ESIMACCESS_WEBHOOK_TOKEN must be 16 to 128 characters of A-Z a-z 0-9 _ -');
  }
  const esimAccessWebhookIps = (optional(env, 'ESIMACCESS_WEBHOOK_IPS') ?? '')
    .split(',')
    .map((ip) => ip.trim())
    .filter((ip) => ip !== '');
  for (const ip of esimAccessWebhookIps) {
    if (!ipaddr.isValid(ip)) {
      throw new ConfigError(
        `ESIMACCESS_WEBHOOK_IPS must be a comma-separated list of IP addresses, got "${ip}"`,
      );
    }
  }
  // The allow-list is checked against request.ip. TRUST_PROXY=true or a hop count believes
  // X-Forwarded-For from any peer, so a sender reaching the service directly could name a listed
  // address; only a list of proxy addresses keeps other peers' headers out (docs/partner.md).
  const proxies = trustProxy(env);
  if (esimAccessWebhookIps.length > 0 && (proxies === true || typeof proxies === 'number')) {
    throw new ConfigError(
      'ESIMACCESS_WEBHOOK_IPS needs TRUST_PROXY unset or a list of proxy addresses/CIDRs, not true or a hop count',
    );
  }
  const sandboxWebhookSecret = optional(env, 'SANDBOX_WEBHOOK_SECRET');
  if (sandboxWebhookSecret !== undefined) {
    if (sandboxWebhookSecret === PUBLISHED_SANDBOX_SECRET) {
      throw new ConfigError(
        'SANDBOX_WEBHOOK_SECRET must not be the value published in the repository; leave it unset for a random one',
      );
    }
    if (sandboxWebhookSecret.length < 16)
      throw new ConfigError('SANDBOX_WEBHOOK_SECRET must be at least 16 characters');
  }

  const config: Config = {
    port,
    host: str(env, 'HOST', '127.0.0.1'),
    publicBaseUrl,
    databaseUrl,
    databaseConnectTimeoutMs: int(env, 'DATABASE_CONNECT_TIMEOUT_MS', 3000, 100, 60_000),
    dataDir: str(env, 'DATA_DIR', './data'),
    webDistDir: str(env, 'WEB_DIST_DIR', './web/dist'),
    redisUrl: url(env, 'REDIS_URL', undefined, ['redis:', 'rediss:']),
    redisKeyPrefix: str(env, 'REDIS_KEY_PREFIX', 'esim:'),
    adminToken,
    logLevel: oneOf(
      env,
      'LOG_LEVEL',
      ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const,
      'info',
    ),
    cardProvider,
    stripe,
    cryptoProvider,
    cryptomus,
    esimProvider,
    esimAccess,
    sandbox: {
      webhookSecret: sandboxWebhookSecret,
      esimLatencyMs: int(env, 'SANDBOX_ESIM_LATENCY_MS', 0, 0, 60_000),
    },
    mail: {
      transport: mailTransport,
      smtpUrl,
      from: str(env, 'MAIL_FROM', 'eSIM Service <no-reply@localhost>'),
    },
    appUrlSchemes: Object.freeze(appUrlSchemes(env)),
    trustProxy: trustProxy(env),
    supportEmail: str(env, 'SUPPORT_EMAIL', 'support@localhost'),
    usageCacheSeconds: int(env, 'USAGE_CACHE_SECONDS', 60, 0, 86_400),
    catalog: {
      markupPercent: int(env, 'PRICE_MARKUP_PERCENT', 35, 0, 1000),
      syncIntervalMinutes: int(env, 'CATALOG_SYNC_MINUTES', 360, 0, 10_080),
    },
    worker: {
      enabled: bool(env, 'WORKER_ENABLED', true),
      pollIntervalMs: int(env, 'WORKER_POLL_MS', 1000, 10, 60_000),
      concurrency: int(env, 'WORKER_CONCURRENCY', 2, 1, 64),
    },
    shutdownGraceSeconds: int(env, 'SHUTDOWN_GRACE_SECONDS', 10, 0, 3600),
    metricsToken,
    jobRetentionDays: int(env, 'JOB_RETENTION_DAYS', 7, 1, 3650),
    fulfillment: {
      maxAttempts: int(env, 'FULFILLMENT_MAX_ATTEMPTS', 5, 1, 100),
      retryBaseSeconds: int(env, 'FULFILLMENT_RETRY_BASE_SECONDS', 30, 0, 86_400),
    },
    webhooks: {
      allowPrivateUrls: bool(env, 'WEBHOOK_ALLOW_PRIVATE_URLS', false),
      esimAccessToken: esimAccessWebhookToken,
      esimAccessAllowedIps: esimAccessWebhookIps,
    },
    http: {
      requestTimeoutMs: int(env, 'REQUEST_TIMEOUT_SECONDS', 30, 1, 3600) * 1000,
      // Unset, the service runs on a developer's machine: whichever of localhost, 127.0.0.1 or
      // [::1] they open (the log prints 127.0.0.1) is the web app's origin (H11).
      trustedOrigins: Object.freeze(
        optional(env, 'PUBLIC_BASE_URL')
          ? [new URL(publicBaseUrl).origin]
          : ['localhost', '127.0.0.1', '[::1]'].map((host) => `http://${host}:${port}`),
      ),
    },
    rateLimits: {
      partnerReadPerMinute: int(env, 'PARTNER_READ_RATE_LIMIT', 120, 1, 10_000_000),
      partnerOrdersPerMinute: int(env, 'PARTNER_ORDER_RATE_LIMIT', 30, 1, 10_000_000),
      authPerMinute: int(env, 'AUTH_RATE_LIMIT', 10, 1, 10_000_000),
      registerPerHour: int(env, 'REGISTER_RATE_LIMIT', 20, 1, 10_000_000),
      accountFailuresPerHour: int(env, 'AUTH_ACCOUNT_FAILURE_LIMIT', 50, 1, 10_000_000),
    },
    abuseLimits: {
      passwordHashQueue: int(env, 'PASSWORD_HASH_QUEUE_LIMIT', 64, 1, 100_000),
      passwordHashPerClient: int(env, 'PASSWORD_HASH_CLIENT_LIMIT', 4, 1, 100_000),
      paymentSessionsPerHour: int(env, 'PAYMENT_SESSION_LIMIT', 20, 1, 10_000_000),
      ticketsPerDay: int(env, 'TICKET_LIMIT', 10, 1, 10_000_000),
      ticketMessagesPerHour: int(env, 'TICKET_MESSAGE_LIMIT', 60, 1, 10_000_000),
    },
  };
  return Object.freeze(config);
}
