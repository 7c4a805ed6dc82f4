import { and, eq, sql } from 'drizzle-orm';
import { step } from '../../db/steps.js';
import { plans } from '../../db/schema/index.js';

type PlanRow = typeof plans.$inferSelect;

/** Offered by the provider and not disabled by an operator. */
export const sellable = and(eq(plans.active, true), eq(plans.enabledByOperator, true))!;

/** The price a buyer pays: the operator's override, else the synced price. */
export function effectivePriceCents(plan: Pick<PlanRow, 'priceCents' | 'priceOverrideCents'>): number {
  return plan.priceOverrideCents ?? plan.priceCents;
}

/** The plan fields an order is placed and fulfilled with (what `soldAsSeen` checks). */
export type PlanAsSeen = Pick<PlanRow, 'id' | 'isTopUp' | 'providerPackageCode' | 'wholesaleCents'> & {
  effectivePriceCents: number;
};

/**
 * Step (src/db/steps.ts) `plan_as_seen`: a row while the plan is still sellable with the price,
 * kind, package and wholesale cost the caller saw (values `planAsSeen(plan)`): an order written
 * in one statement is written only from it, so a plan changed meanwhile writes nothing.
 */
export const planSoldAsSeen = step<PlanAsSeen, unknown>('plan_as_seen', (db, p, name) =>
  db
    .$with(name, {})
    .as(
      sql`select 1 from ${plans} where ${and(
        eq(plans.id, p('id')),
        sellable,
        eq(plans.isTopUp, p('isTopUp')),
        sql`coalesce(${plans.priceOverrideCents}, ${plans.priceCents}) = ${p('effectivePriceCents')}`,
        eq(plans.providerPackageCode, p('providerPackageCode')),
        eq(plans.wholesaleCents, p('wholesaleCents')),
      )}`,
    ),
);

/** The values of `planSoldAsSeen`. */
export function planAsSeen(plan: PlanAsSeen): PlanAsSeen {
  return {
    id: plan.id,
    isTopUp: plan.isTopUp,
    effectivePriceCents: plan.effectivePriceCents,
    providerPackageCode: plan.providerPackageCode,
    wholesaleCents: plan.wholesaleCents,
  };
}
