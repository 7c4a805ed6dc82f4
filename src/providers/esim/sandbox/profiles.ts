import type { Db } from '../../../db/client.js';
import type { Clock } from '../../../lib/clock.js';
import type { EsimProvider } from '../types.js';

/** Sandbox profile lifecycle with DB-held state. Owned by the orders/fulfillment work. */
export function createSandboxProfiles(_deps: {
  db: Db;
  clock: Clock;
  latencyMs: number;
}): Omit<EsimProvider, 'name' | 'listPackages'> {
  const notYet = async (): Promise<never> => {
    throw new Error('not implemented yet');
  };
  return {
    issueProfiles: notYet,
    queryProfiles: notYet,
    queryUsage: notYet,
    topUp: notYet,
    cancelProfile: notYet,
  };
}
