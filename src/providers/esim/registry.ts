import type { Config } from '../../config/index.js';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { createEsimAccessProvider } from './esimaccess/index.js';
import { createSandboxEsimProvider } from './sandbox/index.js';
import type { SandboxNotify, SandboxNotifyWithin } from './sandbox/profiles.js';
import type { EsimProvider } from './types.js';

export function createEsimProvider(
  config: Readonly<Config>,
  deps: { db: Db; clock: Clock; notify?: SandboxNotify; notifyWithin?: SandboxNotifyWithin },
): EsimProvider {
  if (config.esimProvider === 'esimaccess') return createEsimAccessProvider(config.esimAccess);
  return createSandboxEsimProvider({ ...deps, latencyMs: config.sandbox.esimLatencyMs });
}
