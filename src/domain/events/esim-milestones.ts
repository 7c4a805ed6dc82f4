import { and, eq, gt, isNull, lt, lte, notInArray, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { esims, orders } from '../../db/schema/index.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { JobHandlers } from '../../jobs/worker.js';
import { DAY, type Clock } from '../../lib/clock.js';
import type { AlertPort } from '../alerts/ports.js';
import type { PartnerInstallState } from './partner-objects.js';
import { USAGE_THRESHOLDS, usagePercent, type PartnerEvents } from './partner-events.js';

type EsimRow = typeof esims.$inferSelect;

/** Traveller alerts of usage: 80 % (time to top up) and 100 % (offline now). */
export const ALERT_USAGE_THRESHOLDS = [80, 100] as const;
export const EXPIRY_JOB = 'esims.expiry';
/** How often the expiry scan runs: an eSIM is announced at most this late after crossing 3 / 1 days. */
export const EXPIRY_SCAN_INTERVAL_MS = 15 * 60 * 1000;

const FINAL: EsimRow['status'][] = ['EXPIRED', 'CANCELLED'];
const ANNOUNCED_INSTALL_STATES: readonly string[] = ['INSTALLED', 'ENABLED', 'DISABLED', 'DELETED'];

/**
 * What an eSIM's changes mean to the people who hold it (issue 31 L2, L3): usage thresholds,
 * "expires in 3 days / 1 day" and install-state changes, each announced once per eSIM and
 * crossing. Partner eSIMs (orders placed through the Partner API) are announced by partner events
 * (50/80/90/100 %, esim.expiring, esim.status_changed); the account's own web eSIMs by traveller
 * alerts (80/100 %, expiring). Runs as an esimChanges observer in the writer's transaction, and
 * from the expiry scan (time passing changes nothing in the row).
 *
 * Each announcement is claimed by a conditional UPDATE of its mark, so concurrent readings
 * announce once. A mark is lowered when usage falls below it (a top-up added data) or validity
 * moves beyond 3 days, so the next crossing is announced again: the alert's dedupe key names the
 * crossing (the re-arm count, the expiry time), so a replay is never a second alert.
 */
export function createEsimMilestones(deps: {
  db: Db;
  clock: Clock;
  queue: JobQueue;
  partnerEvents: PartnerEvents;
  alerts: AlertPort;
}) {
  const { clock, partnerEvents, alerts } = deps;

  async function usage(tx: Tx, esim: EsimRow, partner: boolean): Promise<void> {
    const thresholds: readonly number[] = partner ? USAGE_THRESHOLDS : ALERT_USAGE_THRESHOLDS;
    const percent = usagePercent(esim);
    const mark = esim.usageThresholdNotified;
    if (mark > 0 && percent < mark) {
      // Re-arm: down to the highest threshold still reached.
      const still = [...thresholds].reverse().find((t) => percent >= t) ?? 0;
      await tx
        .update(esims)
        .set({ usageThresholdNotified: still, usageRearms: sql`${esims.usageRearms} + 1` })
        .where(and(eq(esims.id, esim.id), eq(esims.usageThresholdNotified, mark)));
      return;
    }
    const reached = thresholds.filter((t) => percent >= t && t > mark);
    if (reached.length === 0) return;
    if (partner) {
      // Partners get every threshold crossed, in order (their integrations count on each).
      for (const threshold of reached) {
        const [claimed] = await tx
          .update(esims)
          .set({ usageThresholdNotified: threshold })
          .where(and(eq(esims.id, esim.id), lt(esims.usageThresholdNotified, threshold)))
          .returning();
        if (claimed) await partnerEvents.usageThreshold(tx, claimed, threshold as 50 | 80 | 90 | 100);
      }
      return;
    }
    // A traveller gets the highest one only: "80 % used" next to "used up" is noise.
    const threshold = reached.at(-1)! as 80 | 100;
    const [claimed] = await tx
      .update(esims)
      .set({ usageThresholdNotified: threshold })
      .where(and(eq(esims.id, esim.id), lt(esims.usageThresholdNotified, threshold)))
      .returning();
    if (!claimed) return;
    await alerts.send(
      tx,
      esim.accountId,
      { kind: 'usage', iccid: esim.iccid, percent: threshold },
      `usage:${esim.id}:${threshold}:${claimed.usageRearms}`,
    );
  }

  async function expiry(tx: Tx, esim: EsimRow, partner: boolean): Promise<void> {
    if (!esim.expiresAt || FINAL.includes(esim.status)) return;
    const left = esim.expiresAt.getTime() - clock.now().getTime();
    if (left > 3 * DAY) {
      // Validity extended past 3 days (a top-up): the new end is announced again.
      if (esim.expiryNotified !== null)
        await tx
          .update(esims)
          .set({ expiryNotified: null })
          .where(and(eq(esims.id, esim.id), eq(esims.expiryNotified, esim.expiryNotified)));
      return;
    }
    if (left <= 0) return; // Expired: the provider's status says so (EXPIRED), not an announcement.
    const daysLeft: 3 | 1 = left <= DAY ? 1 : 3;
    const [claimed] = await tx
      .update(esims)
      .set({ expiryNotified: daysLeft })
      .where(and(eq(esims.id, esim.id), or(isNull(esims.expiryNotified), gt(esims.expiryNotified, daysLeft))))
      .returning();
    if (!claimed) return;
    if (partner) await partnerEvents.esimExpiring(tx, claimed, daysLeft);
    else
      await alerts.send(
        tx,
        esim.accountId,
        { kind: 'expiring', iccid: esim.iccid, daysLeft },
        `expiring:${esim.id}:${daysLeft}:${esim.expiresAt.getTime()}`,
      );
  }

  async function installState(tx: Tx, esim: EsimRow, partner: boolean): Promise<void> {
    const state = esim.installState;
    if (!state || state === esim.installStateNotified) return;
    const previous = esim.installStateNotified;
    const [claimed] = await tx
      .update(esims)
      .set({ installStateNotified: state })
      .where(
        and(
          eq(esims.id, esim.id),
          previous === null ? isNull(esims.installStateNotified) : eq(esims.installStateNotified, previous),
        ),
      )
      .returning();
    // RELEASED (downloadable) is where every profile starts: recorded, not announced.
    if (!claimed || !partner || !ANNOUNCED_INSTALL_STATES.includes(state)) return;
    await partnerEvents.esimStatusChanged(
      tx,
      claimed,
      state as PartnerInstallState,
      (previous as PartnerInstallState | 'RELEASED' | null) ?? null,
    );
  }

  /** The esimChanges observer. */
  async function changed(tx: Tx, esimId: string): Promise<void> {
    const [found] = await tx
      .select({ esim: esims, channel: orders.channel })
      .from(esims)
      .innerJoin(orders, eq(orders.id, esims.orderId))
      .where(eq(esims.id, esimId));
    if (!found) return;
    const partner = found.channel === 'partner';
    await usage(tx, found.esim, partner);
    // Each step claims its own mark column, so the row read above serves all three.
    await expiry(tx, found.esim, partner);
    await installState(tx, found.esim, partner);
  }

  /**
   * The periodic scan: eSIMs whose validity ends within 3 days and that have not been announced
   * at their current days-left yet. Returns how many were looked at.
   */
  async function scanExpiring(limit = 500): Promise<number> {
    const now = clock.now();
    const due = await deps.db
      .select({ id: esims.id })
      .from(esims)
      .where(
        and(
          notInArray(esims.status, FINAL),
          gt(esims.expiresAt, now),
          lte(esims.expiresAt, new Date(now.getTime() + 3 * DAY)),
          or(
            isNull(esims.expiryNotified),
            and(gt(esims.expiryNotified, 1), lte(esims.expiresAt, new Date(now.getTime() + DAY))),
          ),
        ),
      )
      .limit(limit);
    for (const { id } of due) await deps.db.transaction((tx) => changed(tx, id));
    return due.length;
  }

  function slotKey(at: Date): string {
    return `${EXPIRY_JOB}:${Math.floor(at.getTime() / EXPIRY_SCAN_INTERVAL_MS)}`;
  }

  async function scheduleScan(at?: Date): Promise<void> {
    const runAt = at ?? clock.now();
    await deps.queue.enqueue(deps.db, { kind: EXPIRY_JOB, runAt, dedupeKey: slotKey(runAt) });
  }

  function registerJobs(handlers: JobHandlers): void {
    handlers[EXPIRY_JOB] = {
      async run() {
        try {
          await scanExpiring();
        } finally {
          // One job per time slot, like esims.refresh: several instances never pile up copies.
          await scheduleScan(new Date(clock.now().getTime() + EXPIRY_SCAN_INTERVAL_MS));
        }
      },
    };
  }

  return { changed, scanExpiring, scheduleScan: () => scheduleScan(), registerJobs };
}

export type EsimMilestones = ReturnType<typeof createEsimMilestones>;
