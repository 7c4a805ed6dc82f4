import type { EsimProvider } from '../types.js';
import { createEsimAccessClient, type EsimAccessCredentials } from './client.js';
import { createEsimAccessPackages } from './packages.js';
import { createEsimAccessProfiles } from './profiles.js';
import { createEsimAccessWebhook } from './webhooks.js';

/**
 * The eSIM Access adapter: catalogue operations (packages.ts), profile lifecycle (profiles.ts)
 * and its webhook (webhooks.ts; without `webhook` settings no webhook URL answers).
 */
export function createEsimAccessProvider(
  credentials: EsimAccessCredentials & {
    allocationWaitMs: number;
    timeoutMs?: number;
    webhook?: { token: string | undefined; allowedIps: readonly string[] };
  },
): EsimProvider {
  const client = createEsimAccessClient(credentials, { timeoutMs: credentials.timeoutMs });
  return {
    name: 'esimaccess',
    webhook: createEsimAccessWebhook(credentials.webhook ?? { token: undefined, allowedIps: [] }),
    ...createEsimAccessPackages(client),
    ...createEsimAccessProfiles(client, { allocationWaitMs: credentials.allocationWaitMs }),
  };
}
