import { and, asc, desc, eq, inArray, isNull, lte, notInArray, or } from 'drizzle-orm';
import { keysetAfter, type KeysetPage } from '../../db/keyset.js';
import { esims, orders, plans } from '../../db/schema/index.js';
import type { ProviderUsage } from '../../providers/esim/types.js';
import { createRateLimiter } from '../../lib/rate-limiter.js';
import type { OrderChannel } from './order-numbers.js';
import { esimProviderFor, type EsimRow, type OrderDeps } from './ports.js';

const USAGE_BATCH = 10;
/** eSIMs in these states no longer change upstream, so the periodic refresh skips them. */
const FINAL_STATUSES = ['CANCELLED', 'EXPIRED'] as const;

/** eSIM reads and the usage cache (USAGE_CACHE_SECONDS). */
export function createEsimReads(deps: OrderDeps) {
  const { db, clock } = deps;
  const poll = deps.settings.poll;
  const pollLimiter = poll
    ? createRateLimiter({
        clock,
        perSecond: poll.ratePerSecond,
        ...(poll.sleep ? { sleep: poll.sleep } : {}),
      })
    : undefined;

  /**
   * The account's eSIMs of one mode (live unless `livemode` is false), newest first (created_at,
   * id); `page` = keyset position and size (cursor pagination, esims_account_list_idx). With
   * `channel`, only eSIMs of orders placed through it (the web app's own list: issue 28 H12).
   */
  async function listForAccount(
    accountId: string,
    livemode = true,
    page: KeysetPage = {},
    channel?: OrderChannel,
  ): Promise<EsimRow[]> {
    const ofChannel = channel
      ? db
          .select({ id: orders.id })
          .from(orders)
          .where(and(eq(orders.accountId, accountId), eq(orders.channel, channel)))
      : undefined;
    const query = db
      .select()
      .from(esims)
      .where(
        and(
          eq(esims.accountId, accountId),
          eq(esims.livemode, livemode),
          ofChannel ? inArray(esims.orderId, ofChannel) : undefined,
          page.after ? keysetAfter([esims.createdAt, esims.id], page.after, 'desc') : undefined,
        ),
      )
      .orderBy(desc(esims.createdAt), desc(esims.id));
    return page.limit === undefined ? query : query.limit(page.limit);
  }

  function isStale(esim: EsimRow, now: Date): boolean {
    if (!esim.usageCheckedAt) return true;
    return now.getTime() - esim.usageCheckedAt.getTime() >= deps.settings.usageCacheSeconds * 1000;
  }

  async function applyUsage(readings: ProviderUsage[], now: Date): Promise<void> {
    for (const reading of readings) {
      await db.transaction(async (tx) => {
        const updated = await tx
          .update(esims)
          .set({
            dataUsageMb: reading.dataUsageMb,
            totalVolumeMb: reading.totalVolumeMb,
            ...(reading.status ? { status: reading.status } : {}),
            usageCheckedAt: now,
            usageUpdatedAt: reading.measuredAt ?? now,
            updatedAt: now,
          })
          .where(eq(esims.providerRef, reading.providerRef))
          .returning({ id: esims.id });
        for (const row of updated) await deps.esimChanges?.changed(tx, row.id);
      });
    }
  }

  /**
   * Returns `list` with usage no older than USAGE_CACHE_SECONDS: stale rows are read from the
   * provider in batches of 10 and stored. A provider outage serves the cached values instead of
   * failing the caller's request.
   */
  async function refreshUsage(list: EsimRow[]): Promise<EsimRow[]> {
    const now = clock.now();
    const stale = list.filter((e) => e.status !== 'CANCELLED' && isStale(e, now));
    if (stale.length === 0) return list;
    // Live eSIMs ask the configured provider, test-mode eSIMs the sandbox.
    for (const livemode of [true, false]) {
      const ofMode = stale.filter((e) => e.livemode === livemode);
      for (let i = 0; i < ofMode.length; i += USAGE_BATCH) {
        const refs = ofMode.slice(i, i + USAGE_BATCH).map((e) => e.providerRef);
        try {
          await applyUsage(await esimProviderFor(deps, livemode).queryUsage(refs), now);
        } catch (err) {
          deps.log.warn({ err: (err as Error).message }, 'usage refresh failed; serving cached usage');
        }
      }
    }
    const fresh = await db
      .select()
      .from(esims)
      .where(
        inArray(
          esims.id,
          list.map((e) => e.id),
        ),
      );
    const byId = new Map(fresh.map((e) => [e.id, e]));
    return list.map((e) => byId.get(e.id) ?? e);
  }

  /**
   * Periodic job body (the scheduled poll): full profile state (status, install state, activation,
   * expiry, usage) of the eSIMs checked longest ago, at most `settings.poll.batch` per run and
   * one provider query per `1 / settings.poll.ratePerSecond` s (docs/operations.md "eSIM poll"),
   * so the poll stays inside the provider's rate limit and leaves room for orders and top-ups.
   */
  async function refreshStatuses(limit = deps.settings.poll?.batch ?? 50): Promise<number> {
    const now = clock.now();
    const due = await db
      .select()
      .from(esims)
      .where(
        and(
          notInArray(esims.status, [...FINAL_STATUSES]),
          or(
            isNull(esims.usageCheckedAt),
            lte(esims.usageCheckedAt, new Date(now.getTime() - deps.settings.usageCacheSeconds * 1000)),
          ),
        ),
      )
      .orderBy(asc(esims.usageCheckedAt))
      .limit(limit);
    for (const esim of due) {
      try {
        // Test-mode eSIMs ask the built-in sandbox: no provider limit to keep.
        if (esim.livemode) await pollLimiter?.acquire();
        const [profile] = await esimProviderFor(deps, esim.livemode).queryProfiles({
          providerRef: esim.providerRef,
        });
        if (!profile) continue;
        const polledAt = clock.now();
        await db.transaction(async (tx) => {
          await tx
            .update(esims)
            .set({
              status: profile.status,
              dataUsageMb: profile.dataUsageMb,
              totalVolumeMb: profile.totalVolumeMb,
              activatedAt: profile.activatedAt ?? esim.activatedAt,
              expiresAt: profile.expiresAt ?? esim.expiresAt,
              ...(profile.installState ? { installState: profile.installState } : {}),
              usageCheckedAt: polledAt,
              // A profile query carries no measuring time: the poll's own.
              usageUpdatedAt: polledAt,
              updatedAt: polledAt,
            })
            .where(eq(esims.id, esim.id));
          await deps.esimChanges?.changed(tx, esim.id);
        });
      } catch (err) {
        deps.log.warn({ esimId: esim.id, err: (err as Error).message }, 'eSIM status refresh failed');
      }
    }
    return due.length;
  }

  /** The eSIM behind a public QR URL; the token is the only secret part of that URL. */
  async function findByQrToken(qrToken: string): Promise<EsimRow | null> {
    const [row] = await db.select().from(esims).where(eq(esims.qrToken, qrToken));
    return row ?? null;
  }

  /**
   * The account's newest eSIM with this ICCID, of one mode (ICCIDs can be reused upstream, so
   * newest wins, as for top-ups); with `channel`, only one of an order placed through it.
   */
  async function findOwnByIccid(
    accountId: string,
    iccid: string,
    livemode: boolean,
    channel?: OrderChannel,
  ): Promise<EsimRow | null> {
    const [row] = await db
      .select({ esim: esims })
      .from(esims)
      .innerJoin(orders, eq(orders.id, esims.orderId))
      .where(
        and(
          eq(esims.accountId, accountId),
          eq(esims.iccid, iccid),
          eq(esims.livemode, livemode),
          channel ? eq(orders.channel, channel) : undefined,
        ),
      )
      .orderBy(desc(esims.createdAt), desc(esims.id))
      .limit(1);
    return row?.esim ?? null;
  }

  /**
   * The eSIM behind a hosted install page (the token is the page's only credential), with the
   * plan facts its name is made of (none when the plan row is gone) and the channel of its order
   * (who may top it up).
   */
  async function findByInstallToken(installToken: string) {
    const [row] = await db
      .select({
        esim: esims,
        plan: {
          destinationCode: plans.destinationCode,
          dataAmountMb: plans.dataAmountMb,
          durationDays: plans.durationDays,
          isTopUp: plans.isTopUp,
        },
        channel: orders.channel,
      })
      .from(esims)
      .innerJoin(orders, eq(orders.id, esims.orderId))
      .leftJoin(plans, eq(plans.id, esims.planId))
      .where(eq(esims.installToken, installToken));
    return row ?? null;
  }

  /** Gives the eSIM a new install token: the page at the old one is gone from this commit on. */
  async function replaceInstallToken(esimId: string, installToken: string): Promise<EsimRow> {
    const [row] = await db
      .update(esims)
      .set({ installToken, updatedAt: clock.now() })
      .where(eq(esims.id, esimId))
      .returning();
    return row!;
  }

  return {
    listForAccount,
    refreshUsage,
    refreshStatuses,
    findByQrToken,
    findOwnByIccid,
    findByInstallToken,
    replaceInstallToken,
  };
}
