/**
 * The only reader of process.env. Every variable is parsed and validated once at start-up;
 * a bad value throws a ConfigError naming the variable, and `main` stops with that message.
 *
 * Each area reads its own variables in its module (`xxxConfig(env)` and its part of `Config`);
 * a rule that ties two variables together lives in the area it protects.
 */

import { catalogConfig, type CatalogConfig } from './catalog.js';
import { esimConfig, type EsimConfig } from './esim.js';
import { legalConfig, type LegalConfig } from './legal.js';
import { limitsConfig, type LimitsConfig } from './limits.js';
import { mailConfig, type MailConfig } from './mail.js';
import type { Env } from './parse.js';
import { paymentsConfig, type PaymentsConfig } from './payments.js';
import { pushConfig, type PushConfig } from './push.js';
import { sandboxConfig, type SandboxConfig } from './sandbox.js';
import { serverConfig, type ServerConfig } from './server.js';
import { storageConfig, type StorageConfig } from './storage.js';
import { webhooksConfig, type WebhooksConfig } from './webhooks.js';
import { workerConfig, type WorkerConfig } from './worker.js';

export { ConfigError } from './parse.js';
export type { CardProviderName, CryptoProviderName } from './payments.js';
export type { EsimProviderName } from './esim.js';

export interface Config
  extends
    ServerConfig,
    StorageConfig,
    PaymentsConfig,
    EsimConfig,
    SandboxConfig,
    MailConfig,
    PushConfig,
    WebhooksConfig,
    CatalogConfig,
    WorkerConfig,
    LimitsConfig,
    LegalConfig {}

export function loadConfig(env: Env = process.env): Readonly<Config> {
  const config: Config = {
    ...serverConfig(env),
    ...storageConfig(env),
    ...paymentsConfig(env),
    ...esimConfig(env),
    ...mailConfig(env),
    ...pushConfig(env),
    ...webhooksConfig(env),
    ...sandboxConfig(env),
    ...catalogConfig(env),
    ...workerConfig(env),
    ...limitsConfig(env),
    ...legalConfig(env),
  };
  return Object.freeze(config);
}
