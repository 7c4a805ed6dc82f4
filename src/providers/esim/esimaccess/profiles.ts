import type { EsimProvider } from '../types.js';
import type { EsimAccessClient } from './client.js';

/** esim/order, esim/query, usage, top-up, cancel. Owned by the orders/fulfillment work. */
export function createEsimAccessProfiles(
  _client: EsimAccessClient,
  _options: { allocationWaitMs: number },
): Omit<EsimProvider, 'name' | 'listPackages'> {
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
