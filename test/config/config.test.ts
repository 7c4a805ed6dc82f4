import { readFileSync } from 'node:fs';
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
    ['STRIPE_SECRET_KEY', { CARD_PROVIDER: 'stripe' }],
    ['CRYPTOMUS_MERCHANT_ID', { CRYPTO_PROVIDER: 'cryptomus' }],
    ['ESIMACCESS_ACCESS_CODE', { ESIM_PROVIDER: 'esimaccess' }],
  ])('names %s in the error for a bad value', (name, env) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`^${name} `));
  });

  it('documents every variable it reads in .env.example', () => {
    const source = readFileSync(new URL('src/config/index.ts', root), 'utf8');
    const example = readFileSync(new URL('.env.example', root), 'utf8');
    const read = new Set([...source.matchAll(/\(env, '([A-Z0-9_]+)'/g)].map((m) => m[1]!));
    expect(read.size).toBeGreaterThan(20);
    const documented = new Set([...example.matchAll(/^#?\s*([A-Z0-9_]+)=/gm)].map((m) => m[1]!));
    expect([...read].filter((name) => !documented.has(name))).toEqual([]);
  });
});
