/**
 * The only reader of process.env. Every variable is parsed and validated once at start-up;
 * a bad value throws a ConfigError naming the variable, and `main` stops with that message.
 */

export class ConfigError extends Error {}

export type CardProviderName = 'sandbox' | 'stripe';
export type CryptoProviderName = 'sandbox' | 'cryptomus';
export type EsimProviderName = 'sandbox' | 'esimaccess';

export interface Config {
  port: number;
  host: string;
  publicBaseUrl: string;
  databaseUrl: string | undefined;
  dataDir: string;
  redisUrl: string | undefined;
  redisKeyPrefix: string;
  adminToken: string | undefined;
  logLevel: string;
  cardProvider: CardProviderName;
  stripe: { secretKey: string; webhookSecret: string; apiBaseUrl: string | undefined };
  cryptoProvider: CryptoProviderName;
  cryptomus: { merchantId: string; apiKey: string; baseUrl: string };
  esimProvider: EsimProviderName;
  esimAccess: { accessCode: string; secretKey: string; baseUrl: string; allocationWaitMs: number };
  sandbox: { webhookSecret: string; esimLatencyMs: number };
  mail: { transport: 'outbox' | 'smtp'; smtpUrl: string | undefined; from: string };
  supportEmail: string;
  usageCacheSeconds: number;
  catalog: { markupPercent: number; syncIntervalMinutes: number };
  worker: { enabled: boolean; pollIntervalMs: number; concurrency: number };
  fulfillment: { maxAttempts: number; retryBaseSeconds: number };
  rateLimits: {
    partnerReadPerMinute: number;
    partnerOrdersPerMinute: number;
    authPerMinute: number;
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

export function loadConfig(env: Env = process.env): Readonly<Config> {
  const port = int(env, 'PORT', 3000, 0, 65535);
  const publicBaseUrl = url(env, 'PUBLIC_BASE_URL', `http://localhost:${port}`, ['http:', 'https:'])!.replace(
    /\/+$/,
    '',
  );
  const databaseUrl = url(env, 'DATABASE_URL', undefined, ['postgres:', 'postgresql:', 'memory:']);
  const cardProvider = oneOf(env, 'CARD_PROVIDER', ['sandbox', 'stripe'] as const, 'sandbox');
  const cryptoProvider = oneOf(env, 'CRYPTO_PROVIDER', ['sandbox', 'cryptomus'] as const, 'sandbox');
  const esimProvider = oneOf(env, 'ESIM_PROVIDER', ['sandbox', 'esimaccess'] as const, 'sandbox');
  const mailTransport = oneOf(env, 'MAIL_TRANSPORT', ['outbox', 'smtp'] as const, 'outbox');
  const smtpUrl = url(env, 'SMTP_URL', undefined, ['smtp:', 'smtps:']);
  const adminToken = optional(env, 'ADMIN_TOKEN');
  if (adminToken !== undefined && adminToken.length < 16) {
    throw new ConfigError('ADMIN_TOKEN must be at least 16 characters');
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
  };
  if (esimProvider === 'esimaccess') {
    required('ESIMACCESS_ACCESS_CODE', esimAccess.accessCode, 'ESIM_PROVIDER=esimaccess');
    required('ESIMACCESS_SECRET_KEY', esimAccess.secretKey, 'ESIM_PROVIDER=esimaccess');
  }
  if (mailTransport === 'smtp') required('SMTP_URL', smtpUrl, 'MAIL_TRANSPORT=smtp');

  const config: Config = {
    port,
    host: str(env, 'HOST', '127.0.0.1'),
    publicBaseUrl,
    databaseUrl,
    dataDir: str(env, 'DATA_DIR', './data'),
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
      webhookSecret: str(env, 'SANDBOX_WEBHOOK_SECRET', 'sandbox-webhook-secret-change-me'),
      esimLatencyMs: int(env, 'SANDBOX_ESIM_LATENCY_MS', 0, 0, 60_000),
    },
    mail: {
      transport: mailTransport,
      smtpUrl,
      from: str(env, 'MAIL_FROM', 'eSIM Service <no-reply@localhost>'),
    },
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
    fulfillment: {
      maxAttempts: int(env, 'FULFILLMENT_MAX_ATTEMPTS', 5, 1, 100),
      retryBaseSeconds: int(env, 'FULFILLMENT_RETRY_BASE_SECONDS', 30, 0, 86_400),
    },
    rateLimits: {
      partnerReadPerMinute: int(env, 'PARTNER_READ_RATE_LIMIT', 120, 1, 10_000_000),
      partnerOrdersPerMinute: int(env, 'PARTNER_ORDER_RATE_LIMIT', 30, 1, 10_000_000),
      authPerMinute: int(env, 'AUTH_RATE_LIMIT', 10, 1, 10_000_000),
    },
  };
  return Object.freeze(config);
}
