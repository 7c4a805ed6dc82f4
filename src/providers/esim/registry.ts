import type { Config } from '../../config/index.js';
import type { EsimProviderName } from '../../config/esim.js';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { createEsimAccessProvider } from './esimaccess/index.js';
import { createSandboxEsimProvider } from './sandbox/index.js';
import type { SandboxNotify, SandboxNotifyWithin } from './sandbox/profiles.js';
import type { EsimProvider } from './types.js';

/** What the providers may need besides the configuration (the sandbox: its state and its "webhooks"). */
export interface EsimProviderDeps {
  db: Db;
  clock: Clock;
  notify?: SandboxNotify;
  notifyWithin?: SandboxNotifyWithin;
}

/** The eSIM providers of a deployment. */
export interface EsimProviderRegistry {
  /** The provider live orders are fulfilled by and the catalog is synced from (ESIM_PROVIDER). */
  esim: EsimProvider;
  /**
   * Every provider whose webhooks are received, `esim` among them, whichever one is live: eSIMs
   * issued before a change of ESIM_PROVIDER keep reporting. Names are unique.
   */
  known: readonly EsimProvider[];
}

/**
 * Every provider this build knows, under the ESIM_PROVIDER value that selects it. Adding a
 * provider is one line here (plus its folder and its configuration, docs/architecture.md).
 */
const PROVIDERS: Record<
  EsimProviderName,
  (config: Readonly<Config>, deps: EsimProviderDeps) => EsimProvider
> = {
  esimaccess: (config) =>
    createEsimAccessProvider({
      ...config.esimAccess,
      webhook: { token: config.webhooks.esimAccessToken, allowedIps: config.webhooks.esimAccessAllowedIps },
    }),
  sandbox: (config, deps) => createSandboxEsimProvider({ ...deps, latencyMs: config.sandbox.esimLatencyMs }),
};

/** Builds every known provider (cheap: no I/O until called) and picks the configured one. */
export function createEsimProviders(config: Readonly<Config>, deps: EsimProviderDeps): EsimProviderRegistry {
  const known = Object.entries(PROVIDERS).map(([name, create]) => ({ name, provider: create(config, deps) }));
  const esim = known.find((entry) => entry.name === config.esimProvider)!.provider;
  return { esim, known: known.map((entry) => entry.provider) };
}
