import { createPricingService } from '../domain/pricing/pricing.service.js';
import { createStatementsService } from '../domain/statements/statements.service.js';
import type { Accounts } from './accounts.js';
import type { Catalog } from './catalog.js';
import type { Infrastructure } from './infrastructure.js';

/** Partner billing (issue 32 C5, C6): price rules and statements. */
export function buildBilling(
  { config, db, clock, audit }: Infrastructure,
  { catalog, apiKeys }: Pick<Catalog, 'catalog'> & Pick<Accounts, 'apiKeys'>,
) {
  const pricing = createPricingService({
    db,
    clock,
    audit,
    catalog,
    onRuleChanged: (accountId) => apiKeys.forgetAccount(accountId),
  });
  const statements = createStatementsService({ db, clock, companyName: config.company.name });
  return { pricing, statements };
}
export type Billing = ReturnType<typeof buildBilling>;
