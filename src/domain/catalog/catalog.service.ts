import { and, asc, eq, inArray, not, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.js';
import { keysetAfter, type KeysetPage } from '../../db/keyset.js';
import { reusable } from '../../db/reusable.js';
import { catalogState, plans } from '../../db/schema/index.js';
import type { JobHandler } from '../../jobs/worker.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { Clock } from '../../lib/clock.js';
import type { Currency } from '../../lib/money.js';
import { EsimProviderError, type EsimProvider } from '../../providers/esim/types.js';
import type { AuditService } from '../audit/audit.service.js';
import { AppError } from '../errors.js';
import type { Notifications } from '../../db/notifications.js';
import {
  applyPackages,
  bumpCatalogVersion,
  CATALOG_CHANNEL,
  toPlanRow,
  type SyncResult,
} from './catalog-sync.js';
import { createVersionWatch } from './catalog-version.js';
import { planTitle, type PlanFacts } from './plan-names.js';
import { effectivePriceCents, sellable } from './sellable.js';
import type { DatedRate, ExchangeRateService } from './exchange-rates.js';
import { isValidRate } from './exchange-rates.js';

export type PlanRow = typeof plans.$inferSelect;

/** A plan that can be sold right now, with the price a buyer pays (override ?? synced price). */
export type SellablePlan = PlanRow & { effectivePriceCents: number };

export { effectivePriceCents };

/** On every order: built once (src/db/reusable.ts). */
const selectSellablePlan = reusable((db) =>
  db
    .select()
    .from(plans)
    .where(and(eq(plans.id, sql.placeholder('planId')), sellable)),
);

/**
 * The plan `planId` when it is offered by the provider and not disabled by an operator, else null.
 * Takes `db` so orders can read it inside their own transaction.
 */
export async function findActivePlan(db: DbOrTx, planId: string): Promise<SellablePlan | null> {
  const [plan] = await selectSellablePlan(db, { planId });
  return plan ? { ...plan, effectivePriceCents: effectivePriceCents(plan) } : null;
}

export interface CatalogSnapshot {
  version: number;
  /** Sellable plans ordered by destination, base before top-up, then size and duration. */
  plans: SellablePlan[];
  rates: Record<Currency, string>;
  /** When each rate was set (issue 30 T4: shown beside converted prices); absent for USD. */
  rateDates?: Partial<Record<Currency, Date>>;
}

/** What an operator's "sync now" answers (issue 33): the counts, or why it failed. */
export interface SyncReport extends SyncResult {
  ok: boolean;
  /** Wall time of the provider call and the write. */
  durationMs: number;
  /** Why it failed, fit for the console (provider errors and our own refusals; anything else generic). */
  error: string | null;
  syncedAt: Date;
}

const NO_COUNTS = { created: 0, updated: 0, deactivated: 0, unchanged: 0, skipped: 0 };
const EMPTY_LIST = 'provider listed no packages; keeping the current catalog';

export interface CatalogDeps {
  db: Db;
  clock: Clock;
  queue: JobQueue;
  audit: AuditService;
  exchangeRates: ExchangeRateService;
  /** Read on every sync, so tests (and a provider switch) can replace `esim` at any time. */
  providers: { esim: EsimProvider };
  markupPercent: number;
  /** 0 = sync at start-up only. */
  syncIntervalMinutes: number;
  onSyncError?: (error: Error) => void;
  /** How instances learn each other's catalog changes (Database.notifications). */
  notifications: Notifications;
}

export function createCatalogService(deps: CatalogDeps) {
  const { db, clock } = deps;
  let snapshot: CatalogSnapshot | undefined;
  /** What names every plan ever sold (inactive ones too: orders keep them), per catalog version. */
  let facts: { version: number; byId: Map<string, PlanFacts> } | undefined;

  async function readVersion(): Promise<number> {
    const [row] = await db
      .select({ version: catalogState.version })
      .from(catalogState)
      .where(eq(catalogState.id, 'catalog'));
    return row?.version ?? 0;
  }
  const watch = createVersionWatch({
    read: readVersion,
    notifications: deps.notifications,
    channel: CATALOG_CHANNEL,
  });
  /** After commit: this process's instances learn the version at once (others through pg_notify). */
  const published = (version: number | undefined) => {
    if (version !== undefined) deps.notifications.publishLocal(CATALOG_CHANNEL, String(version));
  };

  async function sync(): Promise<SyncResult> {
    // The provider call happens before any transaction: PGlite would block every query behind it.
    const packages = await deps.providers.esim.listPackages();
    if (packages.length === 0) throw new Error(EMPTY_LIST);
    const provider = deps.providers.esim.name;
    const rows = packages.flatMap((p) => toPlanRow(p, provider, deps.markupPercent) ?? []);
    let bumped: number | undefined;
    const counts = await db.transaction((tx) =>
      applyPackages(tx, rows, clock.now(), (version) => (bumped = version)),
    );
    published(bumped);
    return { ...counts, skipped: packages.length - rows.length };
  }

  /** Enqueues the next periodic sync at the next interval boundary; one job per slot cluster-wide. */
  async function scheduleNextSync(): Promise<void> {
    if (deps.syncIntervalMinutes === 0) return;
    const interval = deps.syncIntervalMinutes * 60_000;
    const next = new Date((Math.floor(clock.now().getTime() / interval) + 1) * interval);
    await deps.queue.enqueue(db, {
      kind: 'catalog.sync',
      runAt: next,
      maxAttempts: 3,
      dedupeKey: `catalog.sync:${next.toISOString()}`,
    });
  }

  /** One operator sync at a time per process: a second click waits for the first's result. */
  let running: Promise<SyncReport> | undefined;

  async function timedSync(requestId: string | undefined): Promise<SyncReport> {
    const started = performance.now();
    let counts: SyncResult = NO_COUNTS;
    let error: string | null = null;
    try {
      counts = await sync();
    } catch (err) {
      const failure = err instanceof Error ? err : new Error(String(err));
      deps.onSyncError?.(failure);
      // Provider errors carry curated messages; anything else may hold internals: the log has it.
      error =
        failure instanceof EsimProviderError || failure.message === EMPTY_LIST
          ? failure.message
          : 'catalog sync failed; the service log has the cause';
    }
    const report = {
      ...counts,
      ok: error === null,
      durationMs: Math.round(performance.now() - started),
      error,
      syncedAt: clock.now(),
    };
    await deps.audit.record(db, {
      action: 'catalog.sync',
      targetType: 'catalog',
      targetId: 'catalog',
      before: null,
      after: { ...counts, ok: report.ok, error, durationMs: report.durationMs },
      requestId,
    });
    return report;
  }

  const syncJob: JobHandler = {
    async run() {
      await sync();
      await scheduleNextSync();
    },
    // A provider outage must not end the schedule: the next slot still gets its job.
    onExhausted: () => scheduleNextSync(),
    backoffMs: (attempts) => 60_000 * attempts,
  };

  return {
    findActivePlan,
    sync,
    /**
     * An operator's "sync now": the scheduled sync run at once, timed, a failure reported in the
     * result (the console shows it) rather than thrown; audited as `catalog.sync`.
     */
    syncNow(requestId?: string): Promise<SyncReport> {
      running ??= timedSync(requestId).finally(() => (running = undefined));
      return running;
    },
    syncJob,
    scheduleNextSync,
    /**
     * The catalog version this instance serves: learnt from notifications (and a poll while the
     * listener is down), so no database read per request once known; a change on any instance is
     * seen here within a second, and at once in the process that made it.
     */
    version: (): number | Promise<number> => watch.current(),
    /** The version row as the database has it now (one read). */
    readVersion,
    /** Stops listening for catalog changes (at app close). */
    close: () => watch.close(),

    /** Start-up: first sync (a failing provider is logged, not fatal), then the schedule. */
    async startup(): Promise<void> {
      try {
        await sync();
      } catch (err) {
        deps.onSyncError?.(err instanceof Error ? err : new Error(String(err)));
      }
      await scheduleNextSync();
    },

    /** Sellable plans and rates as of `atVersion`; reused by every response variant of a version. */
    async snapshot(atVersion: number): Promise<CatalogSnapshot> {
      if (snapshot?.version === atVersion) return snapshot;
      const rows = await db
        .select()
        .from(plans)
        .where(sellable)
        .orderBy(
          asc(plans.destinationCode),
          asc(plans.isTopUp),
          asc(plans.dataAmountMb),
          asc(plans.durationDays),
          asc(plans.id),
        );
      const dated = await deps.exchangeRates.allDated();
      const rates = {} as Record<Currency, string>;
      const rateDates: Partial<Record<Currency, Date>> = {};
      for (const [currency, rate] of Object.entries(dated) as Array<[Currency, DatedRate]>) {
        rates[currency] = rate.ratePerUsd;
        if (rate.asOf) rateDates[currency] = rate.asOf;
      }
      const fresh = {
        version: atVersion,
        plans: rows.map((p) => ({ ...p, effectivePriceCents: effectivePriceCents(p) })),
        rates,
        rateDates,
      };
      snapshot = fresh;
      return fresh;
    },

    /**
     * Plans named as people say them, in `locale` ("Türkiye · 3 GB · 15 days"), for orders and
     * eSIMs. A plan's facts are read once per catalog version (its changes bump the version), so a
     * page of known plans costs no query; an id the catalog does not know keeps its id.
     */
    async planNames(planIds: Iterable<string>, locale: string): Promise<Map<string, string>> {
      const version = await watch.current();
      if (facts?.version !== version) facts = { version, byId: new Map() };
      const byId = facts.byId;
      const ids = [...new Set(planIds)];
      const missing = ids.filter((id) => !byId.has(id));
      if (missing.length > 0) {
        const rows = await db
          .select({
            id: plans.id,
            destinationCode: plans.destinationCode,
            dataAmountMb: plans.dataAmountMb,
            durationDays: plans.durationDays,
            isTopUp: plans.isTopUp,
          })
          .from(plans)
          .where(inArray(plans.id, missing));
        for (const row of rows) byId.set(row.id, row);
      }
      return new Map(
        ids.map((id) => {
          const plan = byId.get(id);
          return [id, plan ? planTitle(plan, locale) : id];
        }),
      );
    },

    /** Destination, base plans before top-ups, size, id; `page`: keyset position and size (plans_list_idx). */
    async listPlans(
      filter: { destination?: string | undefined; active?: boolean | undefined },
      page: KeysetPage = {},
    ): Promise<PlanRow[]> {
      const order = [plans.destinationCode, plans.isTopUp, plans.dataAmountMb, plans.id] as const;
      const conditions = [];
      if (filter.destination) conditions.push(eq(plans.destinationCode, filter.destination.toUpperCase()));
      if (filter.active !== undefined) conditions.push(filter.active ? sellable : not(sellable));
      if (page.after) conditions.push(keysetAfter(order, page.after, 'asc'));
      const query = db
        .select()
        .from(plans)
        .where(conditions.length ? and(...conditions) : undefined)
        .orderBy(...order.map((c) => asc(c)));
      return page.limit === undefined ? query : query.limit(page.limit);
    },

    /**
     * Operator change: `active` is the operator switch (the provider's offer is separate),
     * `priceOverrideCents` null clears the override. Audited in the same transaction.
     */
    async updatePlan(
      planId: string,
      change: { active?: boolean; priceOverrideCents?: number | null },
      requestId?: string,
    ): Promise<PlanRow> {
      let bumped: number | undefined;
      const updated = await db.transaction(async (tx) => {
        const [before] = await tx.select().from(plans).where(eq(plans.id, planId)).for('update');
        if (!before) throw new AppError('PLAN_NOT_FOUND', 'Plan not found');
        const now = clock.now();
        const [after] = await tx
          .update(plans)
          .set({
            ...(change.active !== undefined ? { enabledByOperator: change.active } : {}),
            ...(change.priceOverrideCents !== undefined
              ? { priceOverrideCents: change.priceOverrideCents }
              : {}),
            updatedAt: now,
          })
          .where(eq(plans.id, planId))
          .returning();
        await deps.audit.record(tx, {
          action: 'plan.update',
          targetType: 'plan',
          targetId: planId,
          before: {
            enabledByOperator: before.enabledByOperator,
            priceOverrideCents: before.priceOverrideCents,
          },
          after: {
            enabledByOperator: after!.enabledByOperator,
            priceOverrideCents: after!.priceOverrideCents,
          },
          requestId,
        });
        bumped = await bumpCatalogVersion(tx, now);
        return after!;
      });
      published(bumped);
      return updated;
    },

    /** Sets exchange rates (decimal strings, units per USD) and invalidates every catalog cache. */
    async setExchangeRates(
      rates: Record<Exclude<Currency, 'USD'>, string>,
      requestId?: string,
    ): Promise<Record<Currency, string>> {
      for (const [currency, rate] of Object.entries(rates)) {
        if (!isValidRate(rate)) {
          throw new AppError('VALIDATION_ERROR', `${currency} must be a positive decimal`, {
            field: currency,
          });
        }
      }
      const before = await deps.exchangeRates.all();
      const bumped = await db.transaction(async (tx) => {
        await deps.exchangeRates.set(tx, rates);
        await deps.audit.record(tx, {
          action: 'exchange_rates.update',
          targetType: 'exchange_rates',
          targetId: 'exchange_rates',
          before,
          after: { ...before, ...rates },
          requestId,
        });
        return bumpCatalogVersion(tx, clock.now());
      });
      published(bumped);
      return deps.exchangeRates.all();
    },
  };
}

export type CatalogService = ReturnType<typeof createCatalogService>;
