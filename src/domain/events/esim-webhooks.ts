import type { JobHandlers } from '../../jobs/worker.js';
import type { Logger } from '../../lib/logger.js';
import {
  EsimWebhookError,
  type EsimNotification,
  type EsimProvider,
  type EsimProviderWebhook,
  type EsimWebhookRequest,
} from '../../providers/esim/types.js';
import { AppError } from '../errors.js';
import {
  SANDBOX_NOTIFY_JOB,
  type NotificationOutcome,
  type ProviderNotifications,
} from './provider-notifications.js';

/**
 * Inbound eSIM provider webhooks, for any provider: the one named in the URL verifies the request
 * and reads the body (its `webhook`, src/providers/esim/types.ts), the neutral notifications are
 * applied by ./provider-notifications.ts. Nothing here knows a vendor: a new provider only needs
 * its adapter and a line in src/providers/esim/registry.ts.
 */
export function createEsimWebhooks(deps: {
  /** The registry's providers; read at each call. */
  providers: { known: readonly EsimProvider[] };
  notifications: ProviderNotifications;
}) {
  const { notifications } = deps;

  function webhookOf(provider: string): EsimProviderWebhook | undefined {
    return deps.providers.known.find((p) => p.name === provider)?.webhook;
  }

  /** The provider's refusal as our answer. */
  function refusal(
    provider: string,
    error: EsimWebhookError,
    request: EsimWebhookRequest,
    log: Logger,
  ): AppError {
    switch (error.kind) {
      case 'unknown_url':
        return new AppError('NOT_FOUND', 'Route not found');
      case 'forbidden':
        log.warn(
          { provider, ip: request.peerAddress },
          error.options.logReason ?? 'eSIM provider webhook from a sender it does not vouch for',
        );
        return new AppError('FORBIDDEN', error.message);
      case 'invalid':
        return new AppError(
          'VALIDATION_ERROR',
          error.message,
          error.options.field ? { field: error.options.field } : undefined,
        );
    }
  }

  async function applyAll(provider: string, received: EsimNotification[]): Promise<NotificationOutcome[]> {
    const outcomes: NotificationOutcome[] = [];
    // In the order the provider sent them, as one connection delivers them.
    for (const notification of received) outcomes.push(await notifications.apply(provider, notification));
    return outcomes;
  }

  return {
    /** Alias path segments the providers declared (`/webhooks/<alias>/<token>`), with their provider. */
    aliases(): Array<{ alias: string; provider: string }> {
      return deps.providers.known.flatMap((p) =>
        (p.webhook?.aliases ?? []).map((alias) => ({ alias, provider: p.name })),
      );
    },

    /**
     * One HTTP delivery to `provider`'s webhook: verified, read, applied once per notification.
     * An unknown provider and a refused token answer alike (404): the URL does not exist.
     */
    async receive(
      provider: string,
      request: EsimWebhookRequest & { body: unknown },
      log: Logger,
    ): Promise<NotificationOutcome[]> {
      const webhook = webhookOf(provider);
      if (!webhook) throw new AppError('NOT_FOUND', 'Route not found');
      let received: EsimNotification[];
      try {
        await webhook.verify(request);
        received = webhook.parse(request.body);
      } catch (error) {
        // Anything but a refusal is a fault of ours or the adapter's: 500.
        if (error instanceof EsimWebhookError) throw refusal(provider, error, request, log);
        throw error;
      }
      return applyAll(provider, received);
    },

    /**
     * The sandbox's deliveries (`providerNotifications.sandboxNotify`): a job whose bodies are read
     * by the sandbox's webhook, with nothing to verify: they never left the process.
     */
    registerJobs(handlers: JobHandlers): void {
      handlers[SANDBOX_NOTIFY_JOB] = {
        run: async (job) => {
          const webhook = webhookOf('sandbox');
          if (!webhook) throw new Error('no sandbox eSIM provider to read its notifications');
          const batch = Array.isArray(job.payload.notifications) ? job.payload.notifications : [job.payload];
          for (const body of batch) await applyAll('sandbox', webhook.parse(body));
        },
      };
    },
  };
}

export type EsimWebhooks = ReturnType<typeof createEsimWebhooks>;
