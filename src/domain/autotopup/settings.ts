import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.js';
import { autoTopUps, esims, orders, plans } from '../../db/schema/index.js';
import type { Clock } from '../../lib/clock.js';
import type { SellablePlan } from '../catalog/catalog.service.js';
import { AppError } from '../errors.js';
import type { AutoTopUpView } from '../events/partner-objects.js';
import type { OrderChannel } from '../orders/order-numbers.js';
import type { EsimRow } from '../orders/ports.js';

export type { AutoTopUpView } from '../events/partner-objects.js';
export type AutoTopUpRow = typeof autoTopUps.$inferSelect;

/**
 * The settings rules (docs/orders.md "Auto top-up"). The threshold is 50–100 %: below half the
 * volume a top-up mostly buys data the traveller never reaches, and 100 means "when used up".
 */
export const AUTO_TOP_UP_LIMITS = {
  whenPercentUsed: { min: 50, max: 100, default: 80 },
  maxPerMonth: { min: 1, max: 10, default: 2 },
} as const;

/** An eSIM without a row shows the defaults, disabled. */
export const DEFAULT_VIEW: AutoTopUpView = {
  enabled: false,
  planId: null,
  whenPercentUsed: AUTO_TOP_UP_LIMITS.whenPercentUsed.default,
  maxPerMonth: AUTO_TOP_UP_LIMITS.maxPerMonth.default,
};

export function presentAutoTopUp(row: AutoTopUpRow | undefined): AutoTopUpView {
  if (!row) return DEFAULT_VIEW;
  return {
    enabled: row.enabled,
    planId: row.planId,
    whenPercentUsed: row.whenPercentUsed,
    maxPerMonth: row.maxPerMonth,
  };
}

/** A PATCH: every field optional, the rest kept. */
export interface AutoTopUpPatch {
  enabled?: boolean;
  planId?: string;
  whenPercentUsed?: number;
  maxPerMonth?: number;
}

/** Whose eSIM: an account, in one mode; with a channel, only eSIMs of orders placed through it. */
export interface AutoTopUpOwner {
  accountId: string;
  livemode: boolean;
  channel?: OrderChannel;
}

/** VALIDATION_ERROR naming the field, as the schema's own errors do (both surfaces show it). */
function invalid(field: string, message: string): never {
  throw new AppError('VALIDATION_ERROR', `autoTopUp.${field} ${message}`, {
    issues: [{ field: `autoTopUp.${field}`, message }],
  });
}

function inRange(field: keyof typeof AUTO_TOP_UP_LIMITS, value: number | undefined): void {
  if (value === undefined) return;
  const { min, max } = AUTO_TOP_UP_LIMITS[field];
  if (!Number.isInteger(value) || value < min || value > max)
    invalid(field, `must be an integer from ${min} to ${max}`);
}

/**
 * Why `plan` cannot top up `esim`, or null when it can: the manual top-up's rules (a sellable
 * top-up plan) plus the catalogue's: the same destination and provider as the eSIM's own plan,
 * and a base plan that takes top-ups.
 */
export function topUpPlanProblem(
  plan: SellablePlan | null,
  base: typeof plans.$inferSelect | undefined,
): string | null {
  if (!plan) return 'is not a plan that is sold';
  if (!plan.isTopUp) return 'is not a top-up plan';
  if (!base || !base.topUpSupported) return 'cannot be used: this eSIM does not take top-up plans';
  if (plan.destinationCode !== base.destinationCode || plan.provider !== base.provider)
    return 'is a top-up plan for another destination';
  return null;
}

/** The settings' reads and writes (this area owns `auto_top_ups`). */
export function createAutoTopUpSettings(deps: {
  db: Db;
  clock: Clock;
  findActivePlan: (db: DbOrTx, planId: string) => Promise<SellablePlan | null>;
}) {
  const { db, clock } = deps;

  /** The owner's newest eSIM with this ICCID (as top-ups and install links pick it). */
  async function ownEsim(owner: AutoTopUpOwner, iccid: string): Promise<EsimRow> {
    const [row] = await db
      .select({ esim: esims })
      .from(esims)
      .innerJoin(orders, eq(orders.id, esims.orderId))
      .where(
        and(
          eq(esims.accountId, owner.accountId),
          eq(esims.iccid, iccid),
          eq(esims.livemode, owner.livemode),
          owner.channel ? eq(orders.channel, owner.channel) : undefined,
        ),
      )
      .orderBy(desc(esims.createdAt), desc(esims.id))
      .limit(1);
    if (!row) throw new AppError('ESIM_NOT_FOUND', 'No eSIM of yours has this ICCID');
    return row.esim;
  }

  /** Settings of many eSIMs at once (lists); eSIMs without a row are absent. */
  async function viewsOf(esimIds: readonly string[]): Promise<Map<string, AutoTopUpView>> {
    if (esimIds.length === 0) return new Map();
    const rows = await db
      .select()
      .from(autoTopUps)
      .where(inArray(autoTopUps.esimId, [...esimIds]));
    return new Map(rows.map((r) => [r.esimId, presentAutoTopUp(r)]));
  }

  async function viewOf(esimId: string): Promise<AutoTopUpView> {
    return (await viewsOf([esimId])).get(esimId) ?? DEFAULT_VIEW;
  }

  /** Checks `patch` against the eSIM and the catalogue, then stores it; the settings after. */
  async function update(esim: EsimRow, patch: AutoTopUpPatch): Promise<AutoTopUpView> {
    inRange('whenPercentUsed', patch.whenPercentUsed);
    inRange('maxPerMonth', patch.maxPerMonth);
    const [current] = await db.select().from(autoTopUps).where(eq(autoTopUps.esimId, esim.id));
    const next = { ...presentAutoTopUp(current), ...patch };
    if (next.enabled && (esim.status === 'EXPIRED' || esim.status === 'CANCELLED'))
      throw new AppError('INVALID_STATE', `An ${esim.status.toLowerCase()} eSIM cannot be topped up`);
    if (next.enabled && !next.planId) invalid('planId', 'is required to enable auto top-up');
    // A plan given now is checked even when disabling; a kept one only when enabling.
    if (patch.planId !== undefined || (next.enabled && next.planId)) {
      const [base] = await db.select().from(plans).where(eq(plans.id, esim.planId));
      const problem = topUpPlanProblem(await deps.findActivePlan(db, next.planId!), base);
      if (problem) invalid('planId', problem);
    }
    const now = clock.now();
    const values = {
      enabled: next.enabled,
      planId: next.planId,
      whenPercentUsed: next.whenPercentUsed,
      maxPerMonth: next.maxPerMonth,
      updatedAt: now,
    };
    const [row] = await db
      .insert(autoTopUps)
      .values({ esimId: esim.id, accountId: esim.accountId, ...values, createdAt: now })
      .onConflictDoUpdate({ target: autoTopUps.esimId, set: values })
      .returning();
    return presentAutoTopUp(row);
  }

  return { ownEsim, viewsOf, viewOf, update };
}

export type AutoTopUpSettings = ReturnType<typeof createAutoTopUpSettings>;

/** `YYYY-MM` of `at` in UTC: the calendar month maxPerMonth counts in. */
export function monthOf(at: Date): string {
  return at.toISOString().slice(0, 7);
}
