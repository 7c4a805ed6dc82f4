import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { sandboxEsimProfiles, sandboxSettings } from '../../../db/schema/index.js';
import type { Clock } from '../../../lib/clock.js';
import type { ProviderInstallState, ProviderProfile } from '../types.js';
import {
  DAY_MS,
  effectiveStatus,
  FAIL_NEXT,
  MB,
  notification,
  SMDP_STATUS,
  toProfile,
  VENDOR_STATUS,
  type SandboxNotify,
} from './profiles.js';

/** Operator controls of the sandbox provider (admin API, decisions §6). */
export function createSandboxEsimControls(deps: { db: Db; clock: Clock; notify?: SandboxNotify }) {
  const { db, clock } = deps;
  async function newest(iccid: string) {
    const [row] = await db
      .select()
      .from(sandboxEsimProfiles)
      .where(eq(sandboxEsimProfiles.iccid, iccid))
      .orderBy(desc(sandboxEsimProfiles.createdAt))
      .limit(1);
    return row;
  }

  const idsOf = (row: { orderRef: string; esimTranNo: string; iccid: string }) => ({
    orderNo: row.orderRef,
    transactionId: row.orderRef,
    esimTranNo: row.esimTranNo,
    iccid: row.iccid,
  });

  return {
    /**
     * Moves the profile's install state (the device installed, enabled, disabled or deleted it)
     * and sends ESIM_STATUS with its smdpStatus, as eSIM Access does. Null when unknown.
     */
    async setInstallState(iccid: string, state: ProviderInstallState): Promise<ProviderProfile | null> {
      const row = await newest(iccid);
      if (!row) return null;
      const now = clock.now();
      const [updated] = await db
        .update(sandboxEsimProfiles)
        .set({ smdpStatus: SMDP_STATUS[state] })
        .where(eq(sandboxEsimProfiles.esimTranNo, row.esimTranNo))
        .returning();
      const profile = toProfile(updated!, now);
      await deps.notify?.(
        notification('ESIM_STATUS', now, {
          ...idsOf(row),
          esimStatus: VENDOR_STATUS[profile.status],
          smdpStatus: SMDP_STATUS[state],
        }),
      );
      return profile;
    },

    /**
     * Ends the profile's validity `daysLeft` days from now and sends VALIDITY_USAGE; 0 expires it
     * now (then ESIM_STATUS USED_EXPIRED, or UNUSED_EXPIRED for a profile never used). Null when unknown.
     */
    async setExpiry(iccid: string, daysLeft: number): Promise<ProviderProfile | null> {
      const row = await newest(iccid);
      if (!row) return null;
      const now = clock.now();
      const expiresAt = new Date(now.getTime() + daysLeft * DAY_MS);
      const final = row.status === 'CANCELLED' || row.status === 'EXPIRED';
      const [updated] = await db
        .update(sandboxEsimProfiles)
        .set({ expiresAt, ...(daysLeft === 0 && !final ? { status: 'EXPIRED' } : {}) })
        .where(eq(sandboxEsimProfiles.esimTranNo, row.esimTranNo))
        .returning();
      const profile = toProfile(updated!, now);
      const validity = notification('VALIDITY_USAGE', now, {
        ...idsOf(row),
        expiredTime: expiresAt.toISOString().replace(/\.\d{3}Z$/, '+0000'),
      });
      const expired =
        daysLeft === 0 && !final
          ? [
              notification('ESIM_STATUS', now, {
                ...idsOf(row),
                esimStatus: row.usedMb > 0 ? 'USED_EXPIRED' : 'UNUSED_EXPIRED',
                smdpStatus: row.smdpStatus,
              }),
            ]
          : [];
      await deps.notify?.(validity, ...expired);
      return profile;
    },

    /** The next `n` issue/top-up calls fail with a retryable outage. */
    async setFailNext(n: number): Promise<void> {
      await db
        .insert(sandboxSettings)
        .values({ name: FAIL_NEXT, value: n })
        .onConflictDoUpdate({ target: sandboxSettings.name, set: { value: n } });
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
          // Data flowing means the profile is on a device and switched on.
          ...(usedMb > 0 && row.smdpStatus === 'RELEASED' ? { smdpStatus: 'ENABLED' } : {}),
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
          smdpStatus: updated!.smdpStatus,
        });
        await deps.notify(usage, ...(moved ? [status] : []));
      }
      return profile;
    },
  };
}
