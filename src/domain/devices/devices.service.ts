import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.js';
import { pushDevices, type WebPushSubscription } from '../../db/schema/index.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import { AppError } from '../errors.js';

export type PushPlatform = 'IOS' | 'ANDROID' | 'WEB';
export type PushDevice = typeof pushDevices.$inferSelect;
export type { WebPushSubscription };

/** The devices a push to `accountId` goes to (src/domain/push/), in the sender's transaction. */
export function accountDevices(tx: DbOrTx, accountId: string) {
  return tx
    .select({ id: pushDevices.id, platform: pushDevices.platform })
    .from(pushDevices)
    .where(eq(pushDevices.accountId, accountId))
    .orderBy(pushDevices.id);
}

export async function findDevice(db: DbOrTx, id: string): Promise<PushDevice | undefined> {
  const [device] = await db.select().from(pushDevices).where(eq(pushDevices.id, id));
  return device;
}

/** Removes a device whose token the push service reported gone (only while it still has that token). */
export async function removeGoneDevice(
  tx: DbOrTx,
  device: Pick<PushDevice, 'id' | 'pushToken'>,
): Promise<void> {
  await tx
    .delete(pushDevices)
    .where(and(eq(pushDevices.id, device.id), eq(pushDevices.pushToken, device.pushToken)));
}

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;
const decodedLength = (value: string) => Buffer.from(value, 'base64url').length;

/**
 * A browser's subscription Web Push can encrypt to: an https endpoint that is the device's push
 * token, a P-256 public key (65 bytes, uncompressed) and a 16-byte auth secret, both base64url.
 */
function checkSubscription(
  platform: PushPlatform,
  pushToken: string,
  subscription: WebPushSubscription | undefined,
) {
  if (platform !== 'WEB') {
    if (subscription) throw new AppError('VALIDATION_ERROR', 'subscription is only for platform WEB');
    return;
  }
  if (!subscription) throw new AppError('VALIDATION_ERROR', 'platform WEB requires subscription');
  let endpoint: URL | undefined;
  try {
    endpoint = new URL(subscription.endpoint);
  } catch {
    endpoint = undefined;
  }
  if (endpoint?.protocol !== 'https:') {
    throw new AppError('VALIDATION_ERROR', 'subscription.endpoint must be an https URL');
  }
  if (pushToken !== subscription.endpoint) {
    throw new AppError('VALIDATION_ERROR', 'pushToken must be the subscription endpoint');
  }
  const { p256dh, auth } = subscription.keys;
  if (!BASE64URL.test(p256dh) || decodedLength(p256dh) !== 65) {
    throw new AppError('VALIDATION_ERROR', 'subscription.keys.p256dh must be a base64url P-256 public key');
  }
  if (!BASE64URL.test(auth) || decodedLength(auth) !== 16) {
    throw new AppError('VALIDATION_ERROR', 'subscription.keys.auth must be a base64url 16-byte secret');
  }
}

/**
 * Push device registry: what a sender (src/domain/push/) needs: platform, token (for WEB the
 * subscription's endpoint, with its keys), app version and when the app last checked in.
 */
export function createDevicesService(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;

  return {
    /**
     * Called on every app launch. A token is one physical install, so when another account
     * registered it earlier the device now belongs to the caller (the phone changed hands or users).
     */
    async register(
      accountId: string,
      input: {
        platform: PushPlatform;
        pushToken: string;
        subscription?: WebPushSubscription | undefined;
        appVersion?: string | null | undefined;
      },
    ): Promise<PushDevice> {
      checkSubscription(input.platform, input.pushToken, input.subscription);
      const subscription = input.subscription
        ? {
            endpoint: input.subscription.endpoint,
            keys: { p256dh: input.subscription.keys.p256dh, auth: input.subscription.keys.auth },
          }
        : null;
      const now = clock.now();
      const appVersion = input.appVersion ?? null;
      const [device] = await db
        .insert(pushDevices)
        .values({
          id: newId('dev'),
          accountId,
          platform: input.platform,
          pushToken: input.pushToken,
          subscription,
          appVersion,
          createdAt: now,
          lastSeenAt: now,
        })
        .onConflictDoUpdate({
          target: pushDevices.pushToken,
          set: {
            accountId,
            platform: input.platform,
            subscription,
            // An app that does not send its version keeps the one it reported before.
            appVersion: input.appVersion === undefined ? sql`${pushDevices.appVersion}` : appVersion,
            lastSeenAt: now,
            // A device that moved to another account is a new registration for that account.
            createdAt: sql`case when ${pushDevices.accountId} = excluded.account_id then ${pushDevices.createdAt} else excluded.created_at end`,
          },
        })
        .returning();
      return device!;
    },

    async list(accountId: string): Promise<PushDevice[]> {
      return db
        .select()
        .from(pushDevices)
        .where(eq(pushDevices.accountId, accountId))
        .orderBy(desc(pushDevices.lastSeenAt), desc(pushDevices.id));
    },

    /**
     * Idempotent: an unknown token, or one registered by another account, changes nothing and is
     * not reported (the answer must not reveal whether a token belongs to someone else).
     */
    async unregister(accountId: string, pushToken: string): Promise<{ removed: boolean }> {
      const removed = await db
        .delete(pushDevices)
        .where(and(eq(pushDevices.accountId, accountId), eq(pushDevices.pushToken, pushToken)))
        .returning({ id: pushDevices.id });
      return { removed: removed.length > 0 };
    },
  };
}

export type DevicesService = ReturnType<typeof createDevicesService>;
