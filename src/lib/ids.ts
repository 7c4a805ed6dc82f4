import { randomBase62 } from './crypto.js';

/**
 * Prefixed random ids (`acc_…`, `ord_…`): readable in logs, unguessable, and the prefix tells
 * a support engineer what kind of object an id names.
 */
export type IdPrefix =
  | 'acc'
  | 'ses'
  | 'ord'
  | 'esim'
  | 'pay'
  | 'pev'
  | 'wtx'
  | 'tkt'
  | 'msg'
  | 'dev'
  | 'mail'
  | 'aud'
  | 'att'
  /** An auto top-up attempt (issue 31 L5). */
  | 'ata'
  | 'fx'
  | 'push'
  /** An invitation to a partner's team (issue 32 C4). */
  | 'pinv'
  /** Issue 33: an operator, a console session, an enrolment link, a recovery code. */
  | 'opr'
  | 'ops'
  | 'oen'
  | 'orc';

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(20)}`;
}
