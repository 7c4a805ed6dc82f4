import { and, eq, ne, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { autoTopUpAttempts, autoTopUps, esims } from '../../db/schema/index.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import { usagePercent } from '../events/partner-events.js';
import type { AutoTopUpAnnouncer } from './announce.js';
import { monthOf } from './settings.js';

export const AUTO_TOP_UP_JOB = 'esim.auto-topup';
export const autoTopUpJobKey = (esimId: string, crossing: number) => `auto-topup:${esimId}:${crossing}`;
/** Enough attempts to wait out the top-up order's own fulfillment retries (see ./purchase.ts). */
export const AUTO_TOP_UP_MAX_ATTEMPTS = 30;

/**
 * The esimChanges observer (src/domain/events/esim-changes.ts), in the transaction that stored
 * the eSIM's usage or status:
 * - below the threshold: arms the trigger again (the top-up's data brought the share down);
 * - at or above it, armed and enabled: disarms it and counts the crossing with one conditional
 *   UPDATE (of concurrent readings exactly one wins; a replayed notification finds it disarmed),
 *   then either refuses it (the month's maxPerMonth already bought or pending: attempt `failed`,
 *   `monthly_limit`, told at once) or records it `pending` and queues the purchase job, dedupe
 *   key `auto-topup:<esimId>:<crossing>`.
 */
export function createAutoTopUpTrigger(deps: {
  clock: Clock;
  queue: JobQueue;
  announce: AutoTopUpAnnouncer;
}) {
  const { clock, queue } = deps;

  return async function esimChanged(tx: Tx, esimId: string): Promise<void> {
    const [found] = await tx
      .select({
        settings: autoTopUps,
        status: esims.status,
        dataUsageMb: esims.dataUsageMb,
        totalVolumeMb: esims.totalVolumeMb,
        livemode: esims.livemode,
      })
      .from(autoTopUps)
      .innerJoin(esims, eq(esims.id, autoTopUps.esimId))
      .where(eq(autoTopUps.esimId, esimId));
    // Most eSIMs have no auto top-up: one primary-key miss.
    if (!found) return;
    const { settings } = found;
    const now = clock.now();
    if (usagePercent(found) < settings.whenPercentUsed) {
      if (!settings.armed)
        await tx
          .update(autoTopUps)
          .set({ armed: true, updatedAt: now })
          .where(and(eq(autoTopUps.esimId, esimId), eq(autoTopUps.armed, false)));
      return;
    }
    if (!settings.enabled || !settings.armed || !settings.planId) return;
    if (found.status === 'EXPIRED' || found.status === 'CANCELLED') return;
    const [fired] = await tx
      .update(autoTopUps)
      .set({ armed: false, crossing: sql`${autoTopUps.crossing} + 1`, updatedAt: now })
      .where(and(eq(autoTopUps.esimId, esimId), eq(autoTopUps.armed, true), eq(autoTopUps.enabled, true)))
      .returning();
    if (!fired || !fired.planId) return;
    const month = monthOf(now);
    const [{ count } = { count: 0 }] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(autoTopUpAttempts)
      .where(
        and(
          eq(autoTopUpAttempts.esimId, esimId),
          eq(autoTopUpAttempts.month, month),
          ne(autoTopUpAttempts.status, 'failed'),
        ),
      );
    const limited = count >= fired.maxPerMonth;
    const [attempt] = await tx
      .insert(autoTopUpAttempts)
      .values({
        id: newId('ata'),
        esimId,
        crossing: fired.crossing,
        accountId: fired.accountId,
        planId: fired.planId,
        month,
        status: limited ? 'failed' : 'pending',
        reason: limited ? 'monthly_limit' : null,
        livemode: found.livemode,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing()
      .returning();
    if (!attempt) return;
    if (limited) {
      await deps.announce(tx, attempt);
      return;
    }
    await queue.enqueue(tx, {
      kind: AUTO_TOP_UP_JOB,
      payload: { esimId, crossing: fired.crossing },
      maxAttempts: AUTO_TOP_UP_MAX_ATTEMPTS,
      dedupeKey: autoTopUpJobKey(esimId, fired.crossing),
    });
  };
}
