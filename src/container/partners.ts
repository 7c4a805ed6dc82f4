import { createPartnerConsoleActions } from '../domain/partners/console-actions.js';
import { createTeamService } from '../domain/partners/team.service.js';
import type { Accounts } from './accounts.js';
import type { Infrastructure } from './infrastructure.js';
import type { Orders } from './orders.js';
import type { Payments } from './payments.js';

/** The partner dashboard's team (members, invitations) and its key and wallet actions (issue 32). */
export function buildPartnerConsole(
  { config, db, clock, audit, mailer }: Infrastructure,
  areas: { accounts: Accounts; orders: Orders; payments: Payments },
) {
  const team = createTeamService({ db, clock, audit, mailer, publicBaseUrl: config.publicBaseUrl });
  const partnerConsole = createPartnerConsoleActions({
    db,
    audit,
    apiKeys: areas.accounts.apiKeys,
    testMode: areas.orders.testMode,
    payments: areas.payments.payments,
  });
  return { team, partnerConsole };
}
