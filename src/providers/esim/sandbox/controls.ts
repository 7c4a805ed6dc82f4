import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { sandboxEsimProfiles, sandboxSettings } from '../../../db/schema/index.js';
import type { Clock } from '../../../lib/clock.js';
import type { ProviderProfile } from '../types.js';
import {
  DAY_MS,
  effectiveStatus,
  FAIL_NEXT,
  MB,
  notification,
  toProfile,
  VENDOR_STATUS,
  type SandboxNotify,
} from './profiles.js';

/** Operator controls of the sandbox provider (admin API, decisions §6). */
export function createSandboxEsimControls(deps: { db: Db; clock: Clock; notify?: SandboxNotify }) {
  const { db, clock } = deps;
  return {
    /** The next `n` issue/top-up calls fail with a retryable outage. */
    async setFailNext(n: number): Promise<void> {
      await db
        .insert(sandboxSettings)
        .values({ name: FAIL_NEXT, value: n })
        .onConflictDoUpdate({ target: sandboxSettings.name, set: { value: n } });
    },

    /**
     * Marks the newest profile with this ICCID as downloaded to a device (eSIM Access smdpStatus
     * ENABLED), without using data: it can no longer be cancelled. Null when unknown.
     */
    async setInstalled(iccid: string): Promise<ProviderProfile | null> {
      const [row] = await db
        .select()
        .from(sandboxEsimProfiles)
        .where(eq(sandboxEsimProfiles.iccid, iccid))
        .orderBy(desc(sandboxEsimProfiles.createdAt))
        .limit(1);
      if (!row) return null;
      const [updated] = await db
        .update(sandboxEsimProfiles)
        .set({ installedAt: row.installedAt ?? clock.now() })
        .where(eq(sandboxEsimProfiles.esimTranNo, row.esimTranNo))
        .returning();
      return toProfile(updated!, clock.now());
    },

    /**
     * Sets the data used by the profile with this ICCID (the newest one: ICCIDs can be reused).
     * First use activates it (validity starts); using it all depletes it. Null when unknown.
     */
    async setUsage(iccid: string, usedMb: number): Promise<ProviderProfile | null> {
      const [row] = await db
        .select()
        .from(sandboxEsimProfiles)
        .where(eq(sandboxEsimProfiles.iccid, iccid))
        .orderBy(desc(sandboxEsimProfiles.createdAt))
        .limit(1);
      if (!row) return null;
      const now = clock.now();
      const activating = usedMb > 0 && !row.activatedAt;
      const final = row.status === 'CANCELLED' || row.status === 'EXPIRED';
      const status = final
        ? row.status
        : usedMb >= row.totalMb
          ? 'DEPLETED'
          : usedMb > 0
            ? 'ACTIVE'
            : row.status;
      const [updated] = await db
        .update(sandboxEsimProfiles)
        .set({
          usedMb,
          status,
          ...(activating
            ? { activatedAt: now, expiresAt: new Date(now.getTime() + row.durationDays * DAY_MS) }
            : {}),
        })
        .where(eq(sandboxEsimProfiles.esimTranNo, row.esimTranNo))
        .returning();
      const profile = toProfile(updated!, now);
      if (deps.notify) {
        const ids = { orderNo: row.orderRef, transactionId: row.orderRef, esimTranNo: row.esimTranNo, iccid };
        // Like eSIM Access: a usage report, then a status change when the profile's state moved.
        const usage = notification('DATA_USAGE', now, {
          ...ids,
          totalVolume: profile.totalVolumeMb * MB,
          orderUsage: profile.dataUsageMb * MB,
          remain: Math.max(0, profile.totalVolumeMb - profile.dataUsageMb) * MB,
          lastUpdateTime: now.toISOString(),
        });
        const moved = profile.status !== effectiveStatus(row, now);
        const status = notification('ESIM_STATUS', now, {
          ...ids,
          esimStatus: VENDOR_STATUS[profile.status],
          smdpStatus: profile.status === 'PENDING' ? 'RELEASED' : 'ENABLED',
        });
        await deps.notify(usage, ...(moved ? [status] : []));
      }
      return profile;
    },
  };
}
