import { createWebhooksService } from '../domain/webhooks/webhooks.service.js';
import type { RandomSource } from '../domain/webhooks/retry-policy.js';
import type { Resolver } from '../domain/webhooks/ssrf.js';
import type { WebhookTransport } from '../domain/webhooks/transport.js';
import type { Infrastructure } from './infrastructure.js';
import type { Events } from './events.js';

/** Webhooks out: partner endpoints, signed deliveries of the outbox's events, their purge. */
export function buildWebhooks(infra: Infrastructure, { outbox }: Events) {
  const { config, db, clock, queue, log, audit, jobHandlers, startupTasks } = infra;
  /** Tests replace DNS resolution, the HTTP transport and the retries' jitter source here. */
  const webhookNet: { resolve?: Resolver; transport?: WebhookTransport; random?: RandomSource } = {};
  const webhooks = createWebhooksService({
    db,
    clock,
    queue,
    outbox,
    audit,
    allowPrivateUrls: config.webhooks.allowPrivateUrls,
    net: webhookNet,
    log,
  });
  webhooks.registerJobs(jobHandlers);
  startupTasks.push(() => webhooks.schedulePurge());
  return { webhooks, webhookNet };
}
