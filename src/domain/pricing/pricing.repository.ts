import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { accounts } from '../../db/schema/index.js';
import { priceRuleOf, type PriceRule } from './partner-price.js';

/** The columns that hold a rule; the Partner API's key check selects them too (api-keys.ts). */
export const priceRuleColumns = {
  priceRule: accounts.priceRule,
  priceRuleBps: accounts.priceRuleBps,
  priceMinMarginBps: accounts.priceMinMarginBps,
};

export interface StoredPriceRule {
  rule: PriceRule | null;
  updatedAt: Date | null;
}

/** The SQL of partner price rules (accounts.price_rule*). */
export const pricingRepository = {
  /** The account's rule, locked for update when `lock` (inside the caller's transaction); undefined: no account. */
  async find(db: DbOrTx, accountId: string, lock = false): Promise<StoredPriceRule | undefined> {
    const query = db
      .select({ ...priceRuleColumns, updatedAt: accounts.priceRuleUpdatedAt })
      .from(accounts)
      .where(eq(accounts.id, accountId));
    const [row] = lock ? await query.for('update') : await query;
    return row && { rule: priceRuleOf(row), updatedAt: row.updatedAt };
  },

  async save(db: DbOrTx, accountId: string, rule: PriceRule | null, now: Date): Promise<void> {
    await db
      .update(accounts)
      .set({
        priceRule: rule?.rule ?? null,
        priceRuleBps: rule?.percentBps ?? null,
        priceMinMarginBps: rule?.minMarginBps ?? null,
        priceRuleUpdatedAt: rule ? now : null,
        updatedAt: now,
      })
      .where(eq(accounts.id, accountId));
  },
};
