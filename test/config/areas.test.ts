import { describe, expect, it } from 'vitest';
import { catalogConfig } from '../../src/config/catalog.js';
import { esimConfig } from '../../src/config/esim.js';
import { ConfigError, loadConfig } from '../../src/config/index.js';
import { legalConfig } from '../../src/config/legal.js';
import { limitsConfig } from '../../src/config/limits.js';
import { mailConfig } from '../../src/config/mail.js';
import type { Env } from '../../src/config/parse.js';
import { paymentsConfig } from '../../src/config/payments.js';
import { pushConfig } from '../../src/config/push.js';
import { sandboxConfig } from '../../src/config/sandbox.js';
import { serverConfig } from '../../src/config/server.js';
import { storageConfig } from '../../src/config/storage.js';
import { webhooksConfig } from '../../src/config/webhooks.js';
import { workerConfig } from '../../src/config/worker.js';

const areas: Record<string, (env: Env) => object> = {
  serverConfig,
  storageConfig,
  paymentsConfig,
  esimConfig,
  sandboxConfig,
  mailConfig,
  pushConfig,
  webhooksConfig,
  catalogConfig,
  workerConfig,
  limitsConfig,
  legalConfig,
};

describe('config areas (issue 29 S6)', () => {
  const env: Env = {
    PORT: '8080',
    PUBLIC_BASE_URL: 'https://esim.example/',
    DATABASE_URL: 'postgres://db/esim',
    CARD_PROVIDER: 'stripe',
    STRIPE_SECRET_KEY: 'sk_x',
    STRIPE_WEBHOOK_SECRET: 'whsec_x',
    CRYPTO_PROVIDER: 'off',
    MAIL_TRANSPORT: 'smtp',
    SMTP_URL: 'smtp://mail.example',
    TRUST_PROXY: '10.0.0.1',
    ESIMACCESS_WEBHOOK_IPS: '3.1.131.226',
    TICKET_LIMIT: '3',
  };

  it('each field of Config comes from exactly one area, and loadConfig is their union', () => {
    const owners = new Map<string, string>();
    for (const [area, read] of Object.entries(areas)) {
      for (const key of Object.keys(read(env))) {
        expect(owners.get(key), `${key} read by ${owners.get(key)} and ${area}`).toBeUndefined();
        owners.set(key, area);
      }
    }
    const config = loadConfig(env);
    expect([...owners.keys()].sort()).toEqual(Object.keys(config).sort());
    const merged = Object.assign({}, ...Object.values(areas).map((read) => read(env)));
    expect(config).toEqual(merged);
  });

  it('keeps each cross-field rule in the area it protects', () => {
    expect(() => paymentsConfig({ CARD_PROVIDER: 'stripe', ...env, CRYPTO_PROVIDER: 'sandbox' })).toThrow(
      /^CRYPTO_PROVIDER=sandbox cannot run beside CARD_PROVIDER=stripe/,
    );
    expect(() => webhooksConfig({ ESIMACCESS_WEBHOOK_IPS: '3.1.131.226', TRUST_PROXY: 'true' })).toThrow(
      /^ESIMACCESS_WEBHOOK_IPS needs TRUST_PROXY unset/,
    );
    expect(() => mailConfig({ MAIL_TRANSPORT: 'smtp' })).toThrow(/^SMTP_URL is required/);
    expect(() => esimConfig({ ESIM_PROVIDER: 'esimaccess' })).toThrow(ConfigError);
    expect(() => pushConfig({ APNS_KEY_FILE: '/k.p8' })).toThrow(/^APNS_KEY_ID is required/);
    expect(() => pushConfig({ VAPID_PUBLIC_KEY: 'B' })).toThrow(/^VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY/);
    expect(() => pushConfig({ VAPID_SUBJECT: 'http://x' })).toThrow(/^VAPID_SUBJECT must be/);
    expect(() => pushConfig({ PUSH_TRANSPORT: 'fcm' })).toThrow(/^PUSH_TRANSPORT must be one of/);
    // An area reads only its own variables: another area's bad value does not stop it.
    expect(catalogConfig({ PORT: 'abc', PRICE_MARKUP_PERCENT: '50' })).toEqual({
      catalog: { markupPercent: 50, syncIntervalMinutes: 360 },
    });
  });
});
