import type { EsimProvider } from '../types.js';
import { createEsimAccessClient, type EsimAccessCredentials } from './client.js';
import { createEsimAccessPackages } from './packages.js';
import { createEsimAccessProfiles } from './profiles.js';

/** The eSIM Access adapter: catalogue operations (packages.ts) + profile lifecycle (profiles.ts). */
export function createEsimAccessProvider(
  credentials: EsimAccessCredentials & { allocationWaitMs: number; timeoutMs?: number },
): EsimProvider {
  const client = createEsimAccessClient(credentials, { timeoutMs: credentials.timeoutMs });
  return {
    name: 'esimaccess',
    ...createEsimAccessPackages(client),
    ...createEsimAccessProfiles(client, { allocationWaitMs: credentials.allocationWaitMs }),
  };
}
