/** The built-in sandbox providers (payments and eSIMs), used when no real provider is configured. */

import { ConfigError, int, secret, type Env } from './parse.js';

export interface SandboxConfig {
  /** webhookSecret undefined: a random secret generated once and kept in the database (app_secrets). */
  sandbox: { webhookSecret: string | undefined; esimLatencyMs: number };
}

/** The value the repository once shipped as a default; refused so it can never sign real webhooks. */
const PUBLISHED_SANDBOX_SECRET = 'sandbox-webhook-secret-change-me';

export function sandboxConfig(env: Env): SandboxConfig {
  const webhookSecret = secret(env, 'SANDBOX_WEBHOOK_SECRET', 16);
  if (webhookSecret === PUBLISHED_SANDBOX_SECRET) {
    throw new ConfigError(
      'SANDBOX_WEBHOOK_SECRET must not be the value published in the repository; leave it unset for a random one',
    );
  }
  return {
    sandbox: {
      webhookSecret,
      esimLatencyMs: int(env, 'SANDBOX_ESIM_LATENCY_MS', 0, 0, 60_000),
    },
  };
}
