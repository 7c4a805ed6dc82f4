import type { Db } from '../../../db/client.js';
import type { Clock } from '../../../lib/clock.js';
import type { EsimProvider } from '../types.js';
import { sandboxListPackages } from './catalogue.js';
import { createSandboxProfiles, type SandboxNotify, type SandboxNotifyWithin } from './profiles.js';

/**
 * The built-in sandbox eSIM provider: a deterministic catalogue (catalogue.ts) and profile
 * lifecycle whose state lives in the database (profiles.ts), with latency and failures on demand.
 */
export function createSandboxEsimProvider(deps: {
  db: Db;
  clock: Clock;
  latencyMs: number;
  notify?: SandboxNotify;
  notifyWithin?: SandboxNotifyWithin;
}): EsimProvider {
  return {
    name: 'sandbox',
    listPackages: async () => sandboxListPackages(),
    ...createSandboxProfiles(deps),
  };
}
