import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/index.js';

const root = new URL('../../', import.meta.url);

describe('config', () => {
  it('runs with no variables at all on sensible defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      publicBaseUrl: 'http://localhost:3000',
      databaseUrl: undefined,
      dataDir: './data',
      redisUrl: undefined,
      adminToken: undefined,
      logLevel: 'info',
      cardProvider: 'sandbox',
      cryptoProvider: 'sandbox',
      esimProvider: 'sandbox',
      mail: { transport: 'outbox', smtpUrl: undefined },
      supportEmail: 'support@localhost',
      usageCacheSeconds: 60,
      rateLimits: { partnerReadPerMinute: 120, partnerOrdersPerMinute: 30, authPerMinute: 10 },
      shutdownGraceSeconds: 10,
      metricsToken: undefined,
      jobRetentionDays: 7,
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('derives PUBLIC_BASE_URL from PORT and drops a trailing slash', () => {
    expect(loadConfig({ PORT: '8080' }).publicBaseUrl).toBe('http://localhost:8080');
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://esim.example/' }).publicBaseUrl).toBe(
      'https://esim.example',
    );
  });

  it.each([
    ['PORT', { PORT: 'abc' }],
    ['PORT', { PORT: '70000' }],
    ['PUBLIC_BASE_URL', { PUBLIC_BASE_URL: 'ftp://example.com' }],
    ['PUBLIC_BASE_URL', { PUBLIC_BASE_URL: 'not a url' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://localhost/x' }],
    ['REDIS_URL', { REDIS_URL: 'http://localhost:6379' }],
    ['ADMIN_TOKEN', { ADMIN_TOKEN: 'short' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'loud' }],
    ['MAIL_TRANSPORT', { MAIL_TRANSPORT: 'pigeon' }],
    ['SMTP_URL', { MAIL_TRANSPORT: 'smtp' }],
    ['SMTP_URL', { SMTP_URL: 'http://mail.example' }],
    ['AUTH_RATE_LIMIT', { AUTH_RATE_LIMIT: '0' }],
    ['AUTH_RATE_LIMIT', { AUTH_RATE_LIMIT: '1.5' }],
    ['WORKER_ENABLED', { WORKER_ENABLED: 'maybe' }],
    ['METRICS_TOKEN', { METRICS_TOKEN: 'short' }],
    ['SHUTDOWN_GRACE_SECONDS', { SHUTDOWN_GRACE_SECONDS: '-1' }],
    ['SHUTDOWN_GRACE_SECONDS', { SHUTDOWN_GRACE_SECONDS: 'ten' }],
    ['JOB_RETENTION_DAYS', { JOB_RETENTION_DAYS: '0' }],
    ['STRIPE_SECRET_KEY', { CARD_PROVIDER: 'stripe', CRYPTO_PROVIDER: 'off' }],
    ['CRYPTOMUS_MERCHANT_ID', { CRYPTO_PROVIDER: 'cryptomus', CARD_PROVIDER: 'off' }],
    ['CARD_PROVIDER', { CARD_PROVIDER: 'paypal' }],
    ['APP_URL_SCHEMES', { APP_URL_SCHEMES: 'myapp,javascript' }],
    ['APP_URL_SCHEMES', { APP_URL_SCHEMES: 'https' }],
    ['TRUST_PROXY', { TRUST_PROXY: 'everyone' }],
    ['TRUST_PROXY', { TRUST_PROXY: '10.0.0.0/8,not-an-ip' }],
    ['SANDBOX_WEBHOOK_SECRET', { SANDBOX_WEBHOOK_SECRET: 'sandbox-webhook-secret-change-me' }],
    ['SANDBOX_WEBHOOK_SECRET', { SANDBOX_WEBHOOK_SECRET: 'short' }],
    ['REGISTER_RATE_LIMIT', { REGISTER_RATE_LIMIT: '0' }],
    ['ESIMACCESS_ACCESS_CODE', { ESIM_PROVIDER: 'esimaccess' }],
    ['WEBHOOK_ALLOW_PRIVATE_URLS', { WEBHOOK_ALLOW_PRIVATE_URLS: 'sometimes' }],
    ['ESIMACCESS_WEBHOOK_TOKEN', { ESIMACCESS_WEBHOOK_TOKEN: 'short' }],
    ['ESIMACCESS_WEBHOOK_TOKEN', { ESIMACCESS_WEBHOOK_TOKEN: 'has/slash/0123456789' }],
    ['ESIMACCESS_WEBHOOK_IPS', { ESIMACCESS_WEBHOOK_IPS: '3.1.131.226, not-an-ip' }],
  ])('names %s in the error for a bad value', (name, env) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`^${name} `));
  });

  describe('sandbox payments never sit beside a real provider (S1)', () => {
    const stripe = { STRIPE_SECRET_KEY: 'sk_live_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' };
    const cryptomus = { CRYPTOMUS_MERCHANT_ID: 'm', CRYPTOMUS_API_KEY: 'k' };

    it('refuses a real card provider beside the default sandbox crypto provider, naming both', () => {
      const start = () => loadConfig({ CARD_PROVIDER: 'stripe', ...stripe });
      expect(start).toThrow(ConfigError);
      expect(start).toThrow(/CRYPTO_PROVIDER=sandbox.*CARD_PROVIDER=stripe/);
    });

    it('refuses a real crypto provider beside a sandbox card provider, naming both', () => {
      const start = () =>
        loadConfig({ CRYPTO_PROVIDER: 'cryptomus', CARD_PROVIDER: 'sandbox', ...cryptomus });
      expect(start).toThrow(ConfigError);
      expect(start).toThrow(/CARD_PROVIDER=sandbox.*CRYPTO_PROVIDER=cryptomus/);
    });

    it('starts with real providers together, or one real and the other off', () => {
      expect(
        loadConfig({ CARD_PROVIDER: 'stripe', CRYPTO_PROVIDER: 'cryptomus', ...stripe, ...cryptomus }),
      ).toMatchObject({ cardProvider: 'stripe', cryptoProvider: 'cryptomus' });
      expect(loadConfig({ CARD_PROVIDER: 'stripe', CRYPTO_PROVIDER: 'off', ...stripe })).toMatchObject({
        cardProvider: 'stripe',
        cryptoProvider: 'off',
      });
      expect(loadConfig({ CARD_PROVIDER: 'off', CRYPTO_PROVIDER: 'sandbox' })).toMatchObject({
        cardProvider: 'off',
        cryptoProvider: 'sandbox',
      });
    });

    it('has no built-in sandbox webhook secret: unset means generated and kept in the database', () => {
      expect(loadConfig({}).sandbox.webhookSecret).toBeUndefined();
      const example = readFileSync(new URL('.env.example', root), 'utf8');
      expect(example).not.toMatch(/^SANDBOX_WEBHOOK_SECRET=\S/m);
    });
  });

  it('parses TRUST_PROXY and APP_URL_SCHEMES', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
    ]);
    expect(loadConfig({}).appUrlSchemes).toEqual([]);
    expect(loadConfig({ APP_URL_SCHEMES: 'MyApp, esim-app://' }).appUrlSchemes).toEqual([
      'myapp',
      'esim-app',
    ]);
  });

  it('documents every variable it reads in .env.example', () => {
    // Every module of src/config: each area reads its own variables (issue 29 S6).
    const dir = new URL('src/config/', root);
    const source = readdirSync(dir)
      .map((file) => readFileSync(new URL(file, dir), 'utf8'))
      .join('\n');
    const example = readFileSync(new URL('.env.example', root), 'utf8');
    const read = new Set([...source.matchAll(/\(env, '([A-Z0-9_]+)'/g)].map((m) => m[1]!));
    expect(read.size).toBeGreaterThan(20);
    const documented = new Set([...example.matchAll(/^#?\s*([A-Z0-9_]+)=/gm)].map((m) => m[1]!));
    expect([...read].filter((name) => !documented.has(name))).toEqual([]);
  });
});
