import { and, eq, sql, type SQL } from 'drizzle-orm';
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
 * For a statement built once (src/db/reusable.ts): true while the plan is still sellable with the
 * price, kind, package and wholesale cost the caller saw. Placeholders `<prefix>id`,
 * `<prefix>isTopUp`, `<prefix>effectivePriceCents`, `<prefix>providerPackageCode`,
 * `<prefix>wholesaleCents`; bind them with `prefixed(prefix, planAsSeen(plan))`.
 */
export function soldAsSeen(prefix: string): SQL {
  const p = (name: keyof PlanAsSeen) => sql.placeholder(`${prefix}${name}`);
  return sql`exists (select 1 from ${plans} where ${and(
    eq(plans.id, p('id')),
    sellable,
    eq(plans.isTopUp, p('isTopUp')),
    sql`coalesce(${plans.priceOverrideCents}, ${plans.priceCents}) = ${p('effectivePriceCents')}`,
    eq(plans.providerPackageCode, p('providerPackageCode')),
    eq(plans.wholesaleCents, p('wholesaleCents')),
  )})`;
}

/** The values of `soldAsSeen`'s placeholders. */
export function planAsSeen(plan: PlanAsSeen): PlanAsSeen {
  return {
    id: plan.id,
    isTopUp: plan.isTopUp,
    effectivePriceCents: plan.effectivePriceCents,
    providerPackageCode: plan.providerPackageCode,
    wholesaleCents: plan.wholesaleCents,
  };
}
