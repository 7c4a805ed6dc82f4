import { createOperatorSessions } from '../domain/operators/operator-sessions.js';
import type { Infrastructure } from './infrastructure.js';

/** The people who run the service (issue 33): their console sessions. */
export function buildOperators({ db, clock }: Infrastructure) {
  const operatorSessions = createOperatorSessions({ db, clock });
  return { operatorSessions };
}
