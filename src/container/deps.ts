import type { Config } from '../config/index.js';
import type { Database } from '../db/client.js';
import type { Clock } from '../lib/clock.js';
import type { Logger } from '../lib/logger.js';
import type { EsimProviderRegistry } from '../providers/esim/registry.js';

export interface ContainerDeps {
  config: Readonly<Config>;
  /** Opened (and migrated) by the caller, who also closes it: see `openContainer`. */
  database: Database;
  clock: Clock;
  log: Logger;
  /**
   * Replaces the eSIM providers the configuration selects (src/providers/esim/registry.ts), given
   * them: a provider is anything implementing the contract of src/providers/esim/types.ts, and
   * nothing else in the container, the domain or http/ names one (test/providers/second-provider.test.ts).
   */
  esimProviders?: (configured: EsimProviderRegistry) => EsimProviderRegistry;
}
