import type { Db } from '../../db/client.js';
import type { KeysetPage } from '../../db/keyset.js';
import { deleteInBatches } from '../../db/purge.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { JobHandlers } from '../../jobs/worker.js';
import { DAY, type Clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import type { Logger } from '../../lib/logger.js';
import type { PushSender, PushSendResult } from '../../providers/push/types.js';
import type { PushPort } from '../alerts/ports.js';
import { accountDevices, findDevice, removeGoneDevice, type PushDevice } from '../devices/devices.service.js';
import {
  deleteSettledBefore,
  findPush,
  listAccountPushesBetween,
  listAllAccountPushes,
  listPushes,
  recordPushes,
  seenDedupeKey,
  settleAttempt,
  type PushRecord,
} from './push-messages.js';

export const PUSH_SEND_JOB = 'push.send';

/** Sent, failed and skipped pushes are kept this long: the console's outbox and the timelines. */
export const PUSH_RETENTION_DAYS = 90;

/** About 20 minutes of retries (5 s, 10 s, … 10 min), then the message is marked failed. */
const MAX_ATTEMPTS = 9;
const backoff = (attempts: number) => Math.min(5_000 * 2 ** (attempts - 1), 60 * 60 * 1000);

/** Thrown by the send job for a transient failure: the queue retries it after the backoff. */
export class PushRetryError extends Error {
  constructor(
    message: string,
    readonly retryAfterMs: number | undefined,
  ) {
    super(message);
    this.name = 'PushRetryError';
  }
}

/** The push services the live transport sends through; a missing one leaves its devices unsent. */
export interface PushSenders {
  fcm?: PushSender | undefined;
  apns?: PushSender | undefined;
  webPush: PushSender;
}

/** An APNs device token: 32 bytes in hex. Anything else an iOS app registers is a Firebase token. */
const APNS_TOKEN = /^[0-9a-f]{64}$/i;

function senderFor(senders: PushSenders, device: PushDevice): PushSender | undefined {
  if (device.platform === 'WEB') return senders.webPush;
  if (device.platform === 'IOS' && senders.apns && APNS_TOKEN.test(device.pushToken)) return senders.apns;
  return senders.fcm;
}

/**
 * Push delivery (issue 31 L1), the PushPort of src/domain/alerts/ports.ts. `toAccount` records one
 * push per device of the account in the caller's transaction; with PUSH_TRANSPORT=outbox that
 * record is all, with `live` each row also gets its own `push.send` job, so a device is never sent
 * a message twice because another device's send failed and was retried. A token the push service
 * reports gone removes its device; transient failures retry with backoff through the job queue.
 */
export function createPushService(deps: {
  db: Db;
  clock: Clock;
  queue: JobQueue;
  log: Logger;
  transport: 'outbox' | 'live';
  senders: PushSenders;
}) {
  const { db, clock, queue, log, senders } = deps;
  const live = deps.transport === 'live';

  const toAccount: PushPort['toAccount'] = async (tx, accountId, message, dedupeKey) => {
    if (await seenDedupeKey(tx, accountId, dedupeKey)) return;
    const devices = await accountDevices(tx, accountId);
    const now = clock.now();
    const ids = await recordPushes(
      tx,
      devices.map((device) => ({
        id: newId('push'),
        accountId,
        deviceId: device.id,
        platform: device.platform,
        title: message.title,
        body: message.body,
        data: { ...message.data },
        dedupeKey,
        status: live ? ('pending' as const) : ('recorded' as const),
        createdAt: now,
      })),
    );
    if (!live) return;
    for (const messageId of ids) {
      await queue.enqueue(tx, {
        kind: PUSH_SEND_JOB,
        payload: { messageId },
        dedupeKey: `push:${messageId}`,
        maxAttempts: MAX_ATTEMPTS,
      });
    }
  };

  async function settle(record: PushRecord, device: PushDevice, result: PushSendResult): Promise<void> {
    switch (result.outcome) {
      case 'sent':
        await settleAttempt(db, record.id, { status: 'sent', error: null, sentAt: clock.now() });
        return;
      case 'gone':
        await db.transaction(async (tx) => {
          if (await settleAttempt(tx, record.id, { status: 'gone', error: result.reason })) {
            await removeGoneDevice(tx, device);
          }
        });
        log.info(
          { pushId: record.id, deviceId: device.id, reason: result.reason },
          'push token gone; device removed',
        );
        return;
      case 'rejected':
        await settleAttempt(db, record.id, { status: 'failed', error: result.reason });
        log.warn({ pushId: record.id, deviceId: device.id, reason: result.reason }, 'push rejected');
        return;
      case 'retry':
        // Still pending; the record keeps the count and the last answer for the operator.
        await settleAttempt(db, record.id, { status: 'pending', error: result.reason });
        throw new PushRetryError(result.reason, result.retryAfterMs);
    }
  }

  /** One device's send: the job of one push_messages row. */
  async function sendOne(messageId: string): Promise<void> {
    const record = await findPush(db, messageId);
    if (!record || record.status !== 'pending') return;
    const device = await findDevice(db, record.deviceId);
    if (!device) {
      await settleAttempt(db, record.id, { status: 'skipped', error: 'device removed before sending' });
      return;
    }
    const sender = senderFor(senders, device);
    if (!sender) {
      await settleAttempt(db, record.id, {
        status: 'failed',
        error: `no push service configured for ${device.platform}`,
      });
      return;
    }
    const result = await sender.send(
      { platform: device.platform, token: device.pushToken, subscription: device.subscription },
      { title: record.title, body: record.body, data: record.data },
    );
    await settle(record, device, result);
  }

  const jobs: JobHandlers = {
    [PUSH_SEND_JOB]: {
      run: (job) => sendOne(String(job.payload.messageId)),
      backoffMs: (attempts, error) =>
        Math.max(backoff(attempts), error instanceof PushRetryError ? (error.retryAfterMs ?? 0) : 0),
      async onExhausted(job, error, settleJob) {
        await db.transaction(async (tx) => {
          // The failed attempt was counted when it asked for a retry.
          const id = String(job.payload.messageId);
          await settleAttempt(tx, id, { status: 'failed', error: error.message }, false);
          await settleJob(tx);
        });
      },
    },
  };

  return {
    toAccount,
    /** Newest first; `accountId` filters (GET /api/admin/v1/push). */
    list: (filter: { accountId?: string | undefined } & KeysetPage) => listPushes(db, filter),
    /** Every push recorded for the account, newest first (its data export). */
    listAll: (accountId: string) => listAllAccountPushes(db, accountId),
    /** The account's pushes in [from, until), oldest first (an order's timeline). */
    listBetween: (filter: { accountId: string; from: Date; until: Date; limit: number }) =>
      listAccountPushesBetween(db, filter),
    jobs,
    /**
     * Deletes pushes settled and older than PUSH_RETENTION_DAYS (bounded per run); the retention
     * job calls it. Their dedupe keys go with them: every alert's key names its own crossing,
     * reply or order, which does not come round again after 90 days.
     */
    async purge(): Promise<number> {
      const cutoff = new Date(clock.now().getTime() - PUSH_RETENTION_DAYS * DAY);
      return deleteInBatches((limit) => deleteSettledBefore(db, cutoff, limit));
    },
    async close(): Promise<void> {
      await Promise.all([senders.fcm?.close(), senders.apns?.close(), senders.webPush.close()]);
    },
  };
}

export type PushService = ReturnType<typeof createPushService> & PushPort;
export type { PushRecord };
