import { createOperatorSessions } from '../domain/operators/operator-sessions.js';
import { createOperatorSignIn } from '../domain/operators/operator-sign-in.js';
import { createOperatorsService } from '../domain/operators/operators.service.js';
import type { Accounts } from './accounts.js';
import type { Infrastructure } from './infrastructure.js';

/** The people who run the service (issue 33): operators, their enrolment, sign-in and sessions. */
export function buildOperators(
  { config, db, clock, audit, mailer }: Infrastructure,
  { passwords }: Pick<Accounts, 'passwords'>,
) {
  const operatorSessions = createOperatorSessions({ db, clock });
  const serviceName = config.company.name;
  const operators = createOperatorsService({
    db,
    clock,
    audit,
    mailer,
    sessions: operatorSessions,
    publicBaseUrl: config.publicBaseUrl,
    serviceName,
  });
  const operatorSignIn = createOperatorSignIn({
    db,
    clock,
    audit,
    passwords,
    sessions: operatorSessions,
    serviceName,
  });
  return { operatorSessions, operators, operatorSignIn };
}
