import { createEsimProviders } from '../providers/esim/registry.js';
import { createSandboxEsimControls } from '../providers/esim/sandbox/controls.js';
import { createTestModeEsimProvider } from '../domain/testmode/test-provider.js';
import { createEsimWebhooks } from '../domain/events/esim-webhooks.js';
import type { Infrastructure } from './infrastructure.js';
import type { Events } from './events.js';
import type { ContainerDeps } from './deps.js';

/**
 * eSIM providers: the configured one, every one whose webhooks are received, the sandbox for
 * test-mode orders, and the sandbox's operator controls (admin API) when ESIM_PROVIDER is the
 * sandbox. `esimWebhooks` hands inbound webhooks to the provider they name.
 */
export function buildEsimProviders(
  { config, db, clock, jobHandlers }: Infrastructure,
  { providerNotifications }: Events,
  replace: ContainerDeps['esimProviders'],
) {
  const { sandboxNotify: notify, sandboxNotifyWithin: notifyWithin } = providerNotifications;
  const configured = createEsimProviders(config, { db, clock, notify, notifyWithin });
  const registry = replace ? replace(configured) : configured;
  const providers = {
    ...registry,
    /** Test-mode orders (svc_test_sk_ keys): always the sandbox, see docs/partner-reference.md "Test mode". */
    testEsim: createTestModeEsimProvider({ db, clock, latencyMs: config.sandbox.esimLatencyMs }),
  };
  const esimWebhooks = createEsimWebhooks({ providers, notifications: providerNotifications });
  esimWebhooks.registerJobs(jobHandlers);
  // Usage changes "send" DATA_USAGE / ESIM_STATUS webhooks like eSIM Access does.
  const sandboxEsim =
    config.esimProvider === 'sandbox' ? createSandboxEsimControls({ db, clock, notify }) : undefined;
  return { providers, esimWebhooks, sandboxEsim };
}
export type EsimProviders = ReturnType<typeof buildEsimProviders>;
