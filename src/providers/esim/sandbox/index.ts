import type { Db } from '../../../db/client.js';
import type { Clock } from '../../../lib/clock.js';
import { parseEsimAccessWebhook } from '../esimaccess/webhooks.js';
import { EsimWebhookError, type EsimProvider, type EsimProviderWebhook } from '../types.js';
import { sandboxListPackages } from './catalogue.js';
import { createSandboxProfiles, type SandboxNotify, type SandboxNotifyWithin } from './profiles.js';

/**
 * The sandbox's notifications are eSIM Access-shaped (profiles.ts) and travel through a job
 * (`notify`), never over HTTP: they are read like eSIM Access's, and no webhook URL answers.
 */
const sandboxWebhook: EsimProviderWebhook = {
  verify() {
    throw new EsimWebhookError('unknown_url', 'Route not found');
  },
  parse: parseEsimAccessWebhook,
};

/** How the sandbox's notifications read (test mode applies them in the request, not by a job). */
export const parseSandboxNotification = (body: unknown) => parseEsimAccessWebhook(body);

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
    webhook: sandboxWebhook,
    listPackages: async () => sandboxListPackages(),
    ...createSandboxProfiles(deps),
  };
}
