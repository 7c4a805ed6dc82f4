import type { DbOrTx } from '../../db/client.js';
import type { KeyValue } from '../../db/keyset.js';
import type { JobQueue } from '../../jobs/queue.js';
import { DAY } from '../../lib/clock.js';
import { randomBase62 } from '../../lib/crypto.js';
import type { AuditService } from '../audit/audit.service.js';
import { AppError } from '../errors.js';
import type { EventRow, EventType } from '../events/outbox.js';
import type { PingData } from '../events/partner-objects.js';
import { createWebhookDelivery, resendJob, type DeliveryDeps } from './delivery.js';
import { newWebhookSecret } from './signature.js';
import { resolveSafeTarget, UnsafeUrlError } from './ssrf.js';
import {
  webhooksRepository as repo,
  type DeliveryLogRow,
  type EndpointOwner,
  type WebhookAttemptRow,
  type WebhookEndpointRow,
} from './webhooks.repository.js';

export { RETRY_SCHEDULE_MS } from './retry-policy.js';
export { DELIVERY_TIMEOUT_MS, DISABLE_AFTER_MS } from './delivery.js';
export type { EndpointOwner, WebhookEndpointRow } from './webhooks.repository.js';

export const MAX_ENDPOINTS_PER_ACCOUNT = 10;
/** After a rotation the previous secret keeps signing (second signature) this long. */
export const SECRET_OVERLAP_MS = DAY;

export interface CreateEndpointInput {
  accountId: string;
  url: string;
  events?: EventType[];
  description?: string;
  livemode?: boolean;
}

/** PATCH: only the fields present change. `events: null` = all types. */
export interface UpdateEndpointInput {
  url?: string;
  events?: EventType[] | null;
  description?: string | null;
  enabled?: boolean;
}

/**
 * Who asked, for the partner's audit log: `account:<member id>` from the dashboard, `api_key`
 * from the Partner API. The partner is the endpoint's account.
 */
export interface ChangeActor {
  actor: string;
  requestId?: string;
}

export interface DeliveryWithAttempts extends DeliveryLogRow {
  attemptLog: WebhookAttemptRow[];
}

export interface WebhooksDeps extends DeliveryDeps {
  queue: JobQueue;
  audit: AuditService;
}

/** Partner webhook endpoints: their management, delivery log and resends; delivery is ./delivery.ts. */
export function createWebhooksService(deps: WebhooksDeps) {
  const { db, clock, queue, outbox, audit } = deps;
  const delivery = createWebhookDelivery(deps);

  async function checkUrl(url: string): Promise<void> {
    try {
      await resolveSafeTarget(url, { allowPrivate: deps.allowPrivateUrls, resolve: deps.net.resolve });
    } catch (err) {
      if (err instanceof UnsafeUrlError)
        throw new AppError('VALIDATION_ERROR', err.message, { field: 'url' });
      throw err;
    }
  }

  function auditEntry(owner: EndpointOwner, by: ChangeActor | undefined, action: string, id: string) {
    return {
      action,
      targetType: 'webhook_endpoint',
      targetId: id,
      actor: by?.actor,
      requestId: by?.requestId,
      partnerId: owner.accountId,
    };
  }

  async function create(input: CreateEndpointInput, by?: ChangeActor): Promise<WebhookEndpointRow> {
    await checkUrl(input.url);
    const owner = { accountId: input.accountId, livemode: input.livemode ?? true };
    const types = input.events ? [...new Set(input.events)] : null;
    return db.transaction(async (tx) => {
      // The account row lock serialises concurrent creations, so the limit holds under races.
      await repo.lockAccount(tx, owner.accountId);
      // Each mode has its own limit: test endpoints never crowd out live ones (H5).
      if ((await repo.countEndpoints(tx, owner)) >= MAX_ENDPOINTS_PER_ACCOUNT)
        throw new AppError(
          'CONFLICT',
          `An account can have at most ${MAX_ENDPOINTS_PER_ACCOUNT} webhook endpoints; delete one first`,
          { limit: MAX_ENDPOINTS_PER_ACCOUNT },
        );
      const now = clock.now();
      const row = await repo.insertEndpoint(tx, {
        id: `we_${randomBase62(20)}`,
        accountId: owner.accountId,
        url: input.url,
        description: input.description ?? null,
        eventTypes: types,
        secret: newWebhookSecret(),
        livemode: owner.livemode,
        createdAt: now,
        updatedAt: now,
      });
      await audit.record(tx, {
        ...auditEntry(owner, by, 'webhook_endpoint.create', row.id),
        after: { url: row.url, events: row.eventTypes, livemode: row.livemode },
      });
      return row;
    });
  }

  async function list(accountId: string, livemode = true): Promise<WebhookEndpointRow[]> {
    return repo.listEndpoints(db, { accountId, livemode });
  }

  async function find(accountId: string, id: string, livemode = true): Promise<WebhookEndpointRow> {
    const row = await repo.findEndpoint(db, { accountId, livemode }, id);
    if (!row) throw new AppError('NOT_FOUND', 'Webhook endpoint not found');
    return row;
  }

  async function locked(tx: DbOrTx, owner: EndpointOwner, id: string) {
    const row = await repo.findEndpoint(tx, owner, id, true);
    if (!row) throw new AppError('NOT_FOUND', 'Webhook endpoint not found');
    return row;
  }

  /** PATCH: url (checked like at creation), event types, description, enabled. */
  async function update(
    owner: EndpointOwner,
    id: string,
    input: UpdateEndpointInput,
    by?: ChangeActor,
  ): Promise<WebhookEndpointRow> {
    if (input.url !== undefined) await checkUrl(input.url);
    return db.transaction(async (tx) => {
      const before = await locked(tx, owner, id);
      const now = clock.now();
      const changes: Parameters<typeof repo.updateEndpoint>[2] = { updatedAt: now };
      if (input.url !== undefined) changes.url = input.url;
      if (input.events !== undefined) changes.eventTypes = input.events ? [...new Set(input.events)] : null;
      if (input.description !== undefined) changes.description = input.description;
      if (input.enabled === true && before.status !== 'enabled')
        // A partner who enables an endpoint gives it a fresh start: 5 more days before auto-disable.
        Object.assign(changes, { status: 'enabled', disabledAt: null, failingSince: null });
      if (input.enabled === false && before.status !== 'disabled')
        Object.assign(changes, { status: 'disabled', disabledAt: now });
      const row = await repo.updateEndpoint(tx, id, changes);
      const fields = (r: WebhookEndpointRow) => ({
        url: r.url,
        events: r.eventTypes,
        description: r.description,
        status: r.status,
      });
      const was = fields(before);
      const is = fields(row);
      const changed = (Object.keys(is) as Array<keyof typeof is>).filter(
        (k) => JSON.stringify(was[k]) !== JSON.stringify(is[k]),
      );
      if (changed.length > 0) {
        const action =
          changed.length === 1 && changed[0] === 'status'
            ? `webhook_endpoint.${row.status === 'enabled' ? 'enable' : 'disable'}`
            : 'webhook_endpoint.update';
        await audit.record(tx, {
          ...auditEntry(owner, by, action, id),
          before: Object.fromEntries(changed.map((k) => [k, was[k]])),
          after: Object.fromEntries(changed.map((k) => [k, is[k]])),
        });
      }
      return row;
    });
  }

  /**
   * A new secret (answered once). The replaced one keeps signing for 24 h (a second signature in
   * webhook-signature), so receivers switch without a failed delivery; a secret older than that
   * (a second rotation within the 24 h) stops at once.
   */
  async function rotateSecret(
    owner: EndpointOwner,
    id: string,
    by?: ChangeActor,
  ): Promise<WebhookEndpointRow> {
    return db.transaction(async (tx) => {
      const before = await locked(tx, owner, id);
      const now = clock.now();
      const expiresAt = new Date(now.getTime() + SECRET_OVERLAP_MS);
      const row = await repo.updateEndpoint(tx, id, {
        secret: newWebhookSecret(),
        previousSecret: before.secret,
        previousSecretExpiresAt: expiresAt,
        updatedAt: now,
      });
      await audit.record(tx, {
        ...auditEntry(owner, by, 'webhook_endpoint.secret.rotate', id),
        after: { previousSecretExpiresAt: expiresAt.toISOString() },
      });
      return row;
    });
  }

  async function remove(accountId: string, id: string, livemode = true, by?: ChangeActor): Promise<void> {
    const owner = { accountId, livemode };
    await db.transaction(async (tx) => {
      const row = await locked(tx, owner, id);
      // Its deliveries go with it (cascade); their queued jobs then find nothing to do.
      await repo.deleteEndpoint(tx, id);
      await audit.record(tx, {
        ...auditEntry(owner, by, 'webhook_endpoint.delete', id),
        before: { url: row.url, events: row.eventTypes },
      });
    });
  }

  /** Queues a `ping` event to this endpoint only (also to a disabled one: a success re-enables it). */
  async function ping(accountId: string, id: string, livemode = true): Promise<EventRow> {
    const endpoint = await find(accountId, id, livemode);
    return db.transaction((tx) =>
      outbox.emitEvent(tx, {
        accountId,
        type: 'ping',
        livemode: endpoint.livemode,
        onlyEndpointId: endpoint.id,
        data: { endpointId: endpoint.id, message: 'Webhook test from the eSIM service' } satisfies PingData,
      }),
    );
  }

  /** An endpoint's deliveries, newest first, each with its attempts (oldest first). */
  async function deliveries(
    owner: EndpointOwner,
    id: string,
    page: { after?: readonly KeyValue[] | undefined; take: number; deliveryId?: string },
  ): Promise<DeliveryWithAttempts[]> {
    await find(owner.accountId, id, owner.livemode);
    const rows = await repo.listDeliveries(db, id, page);
    const attempts = await repo.attemptsOf(
      db,
      rows.map((r) => r.id),
    );
    return rows.map((r) => ({ ...r, attemptLog: attempts.filter((a) => a.deliveryId === r.id) }));
  }

  async function deliveryOf(
    owner: EndpointOwner,
    id: string,
    deliveryId: string,
  ): Promise<DeliveryWithAttempts> {
    const [found] = await deliveries(owner, id, { take: 1, deliveryId });
    if (!found) throw new AppError('NOT_FOUND', 'Delivery not found');
    return found;
  }

  /**
   * Sends a delivery again, with the same event (so the same webhook-id). A delivery waiting for
   * its next retry has that retry brought forward; a finished one (succeeded or failed) gets one
   * new attempt. The delivery row is locked and becomes `pending` in the same transaction, so a
   * double click finds it pending with its attempt already queued and adds nothing.
   */
  async function resend(owner: EndpointOwner, id: string, deliveryId: string): Promise<DeliveryWithAttempts> {
    await db.transaction(async (tx) => {
      const endpoint = await locked(tx, owner, id);
      const row = await repo.lockDelivery(tx, endpoint.id, deliveryId);
      if (!row) throw new AppError('NOT_FOUND', 'Delivery not found');
      if (endpoint.status === 'disabled')
        throw new AppError('INVALID_STATE', 'The endpoint is disabled; enable it before resending');
      const now = clock.now();
      const job = resendJob(deliveryId, row.attempts, now);
      // Pending: its scheduled retry (or the resend a first click queued) is brought forward, or
      // is running right now; either way no second attempt is queued beside it.
      const queued =
        row.status === 'pending' &&
        ((await repo.hurryDeliveryJob(tx, `deliver:${deliveryId}`, now)) ||
          (await repo.hurryDeliveryJob(tx, job.dedupeKey, now)));
      if (!queued) await queue.enqueue(tx, job);
      await repo.updateDelivery(tx, deliveryId, { status: 'pending', nextAttemptAt: now, updatedAt: now });
    });
    return deliveryOf(owner, id, deliveryId);
  }

  return {
    create,
    list,
    find,
    update,
    rotateSecret,
    remove,
    ping,
    deliveries,
    deliveryOf,
    resend,
    attempt: delivery.attempt,
    registerJobs: delivery.registerJobs,
    schedulePurge: delivery.schedulePurge,
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
