import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { pushDevices } from '../../db/schema/index.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';

export type PushPlatform = 'IOS' | 'ANDROID';
export type PushDevice = typeof pushDevices.$inferSelect;

/**
 * Push device registry. Delivery is not built yet (specification §1); the rows carry what a sender
 * needs: platform, token, app version and when the app last checked in.
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
      input: { platform: PushPlatform; pushToken: string; appVersion?: string | null | undefined },
    ): Promise<PushDevice> {
      const now = clock.now();
      const appVersion = input.appVersion ?? null;
      const [device] = await db
        .insert(pushDevices)
        .values({
          id: newId('dev'),
          accountId,
          platform: input.platform,
          pushToken: input.pushToken,
          appVersion,
          createdAt: now,
          lastSeenAt: now,
        })
        .onConflictDoUpdate({
          target: pushDevices.pushToken,
          set: {
            accountId,
            platform: input.platform,
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
