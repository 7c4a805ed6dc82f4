import type { Db } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { csv, centsText } from '../../lib/csv.js';
import type { AuditService } from '../audit/audit.service.js';
import type { CatalogService } from '../catalog/catalog.service.js';
import { destinationName, planTitle } from '../catalog/plan-names.js';
import { AppError } from '../errors.js';
import {
  bpsToPercent,
  DEFAULT_MIN_MARGIN_BPS,
  MAX_DISCOUNT_BPS,
  MAX_MARKUP_BPS,
  MAX_MIN_MARGIN_BPS,
  partnerPriceCents,
  percentToBps,
  type PriceRule,
  type PriceRuleKind,
} from './partner-price.js';
import { pricingRepository } from './pricing.repository.js';

export interface PriceRuleInput {
  rule: PriceRuleKind;
  percent: number;
  minMarginPercent?: number | undefined;
}

/** A rule as the APIs show it: percentages, not basis points. */
export interface PriceRuleView {
  rule: PriceRuleKind;
  percent: number;
  minMarginPercent: number;
  updatedAt: string | null;
}

export function presentRule(rule: PriceRule, updatedAt: Date | null): PriceRuleView {
  return {
    rule: rule.rule,
    percent: bpsToPercent(rule.percentBps),
    minMarginPercent: bpsToPercent(rule.minMarginBps),
    updatedAt: updatedAt?.toISOString() ?? null,
  };
}

function parseRule(input: PriceRuleInput): PriceRule {
  const max = input.rule === 'discount' ? MAX_DISCOUNT_BPS : MAX_MARKUP_BPS;
  const percentBps = percentToBps(input.percent, max);
  if (percentBps === null)
    throw new AppError('VALIDATION_ERROR', `percent must be 0 to ${max / 100} with at most two decimals`, {
      field: 'percent',
    });
  const minMarginBps =
    input.minMarginPercent === undefined
      ? DEFAULT_MIN_MARGIN_BPS
      : percentToBps(input.minMarginPercent, MAX_MIN_MARGIN_BPS);
  if (minMarginBps === null)
    throw new AppError(
      'VALIDATION_ERROR',
      `minMarginPercent must be 0 to ${MAX_MIN_MARGIN_BPS / 100} with at most two decimals`,
      { field: 'minMarginPercent' },
    );
  return { rule: input.rule, percentBps, minMarginBps };
}

/**
 * Partner price rules (issue 32 C5): set by operators (audited), applied by the Partner API's
 * catalogue and orders (the key check carries the rule), listed for the partner as a CSV.
 */
export function createPricingService(deps: {
  db: Db;
  clock: Clock;
  audit: AuditService;
  catalog: Pick<CatalogService, 'version' | 'snapshot'>;
  /** This instance's cached key checks of the account are dropped, so its catalogue reprices at once here. */
  onRuleChanged?: (accountId: string) => void;
}) {
  const { db, clock, audit } = deps;

  async function change(accountId: string, next: PriceRule | null, requestId?: string) {
    const result = await db.transaction(async (tx) => {
      const current = await pricingRepository.find(tx, accountId, true);
      if (!current) throw new AppError('ACCOUNT_NOT_FOUND', 'Account not found');
      const now = clock.now();
      await pricingRepository.save(tx, accountId, next, now);
      await audit.record(tx, {
        action: next ? 'account.pricing.update' : 'account.pricing.delete',
        targetType: 'account',
        targetId: accountId,
        before: current.rule ? presentRule(current.rule, current.updatedAt) : null,
        after: next ? presentRule(next, now) : null,
        partnerId: accountId,
        ...(requestId ? { requestId } : {}),
      });
      return next ? presentRule(next, now) : null;
    });
    deps.onRuleChanged?.(accountId);
    return result;
  }

  async function rule(accountId: string): Promise<{ rule: PriceRule | null; view: PriceRuleView | null }> {
    const stored = await pricingRepository.find(db, accountId);
    if (!stored) throw new AppError('ACCOUNT_NOT_FOUND', 'Account not found');
    return { rule: stored.rule, view: stored.rule ? presentRule(stored.rule, stored.updatedAt) : null };
  }

  /** Every sellable plan with its retail and partner price (USD), in catalogue order. */
  async function priceList(accountId: string, locale = 'en') {
    const { rule: applied } = await rule(accountId);
    const snapshot = await deps.catalog.snapshot(await deps.catalog.version());
    return snapshot.plans.map((p) => ({
      planId: p.id,
      name: planTitle(p, locale),
      destination: destinationName(p.destinationCode, locale),
      destinationCode: p.destinationCode,
      dataAmountMb: p.dataAmountMb,
      durationDays: p.durationDays,
      retailCents: p.effectivePriceCents,
      partnerCents: partnerPriceCents(
        { retailCents: p.effectivePriceCents, wholesaleCents: p.wholesaleCents },
        applied,
      ),
    }));
  }

  return {
    /** The account's rule as the APIs show it, or null (retail prices). */
    async getRule(accountId: string): Promise<PriceRuleView | null> {
      return (await rule(accountId)).view;
    },

    /** The rule as applied (basis points), or null: for paths that did not read it with the key. */
    async ruleOf(accountId: string): Promise<PriceRule | null> {
      return (await rule(accountId)).rule;
    },

    setRule(accountId: string, input: PriceRuleInput, requestId?: string): Promise<PriceRuleView> {
      return change(accountId, parseRule(input), requestId) as Promise<PriceRuleView>;
    },

    async clearRule(accountId: string, requestId?: string): Promise<void> {
      await change(accountId, null, requestId);
    },

    priceList,

    /** The price list as CSV (GET /api/v1/partners/{partnerId}/prices.csv). */
    async priceListCsv(accountId: string, locale = 'en'): Promise<string> {
      const rows = await priceList(accountId, locale);
      return csv(
        [
          'plan_id',
          'name',
          'destination',
          'destination_code',
          'data_mb',
          'validity_days',
          'retail_usd',
          'partner_usd',
        ],
        rows.map((r) => [
          r.planId,
          r.name,
          r.destination,
          r.destinationCode,
          r.dataAmountMb,
          r.durationDays,
          centsText(r.retailCents),
          centsText(r.partnerCents),
        ]),
      );
    },
  };
}

export type PricingService = ReturnType<typeof createPricingService>;
