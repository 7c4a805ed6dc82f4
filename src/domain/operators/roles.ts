import type { OperatorRole } from '../../db/schema/operators.js';

export { OPERATOR_ROLES, type OperatorRole } from '../../db/schema/operators.js';

/**
 * What each operator role may do (issue 33 O1, docs/operations.md "Roles"). Every operator API
 * route names one permission in `config.operatorPermission` (start-up fails otherwise); the surface
 * refuses the others with 403 ROLE_FORBIDDEN. `ADMIN_TOKEN` holds every permission (automation).
 *
 * - Owner: everything, and manages operators.
 * - Support: reads; replies to, assigns and annotates tickets; retries orders and jobs;
 *   suspends/unsuspends accounts and ends their sessions. No refunds, no wallet adjustments.
 * - Finance: reads; refunds, wallet adjustments, statements, reconcile. No ticket replies.
 * - Catalog: reads; plans, prices (partner price rules too), exchange rates, catalogue sync.
 * - Read-only: reads.
 */
export const OPERATOR_PERMISSIONS = [
  'read', // every list and detail the console shows (no secret is in any of them)
  'secrets.read', // what carries a credential: mail bodies with sign-in or reset links
  'tickets.write', // reply, change status, assign, internal notes
  'orders.retry', // retry a failed fulfilment
  'jobs.retry', // retry a dead job
  'accounts.manage', // suspend / unsuspend / ban, end a customer's sessions
  'refunds', // refund an order, close a manual refund
  'wallet.adjust', // credit or debit a wallet with a reason
  'finance', // statements, reconcile
  'catalog.write', // plans, prices, partner price rules, exchange rates, sync
  'sandbox.write', // the sandbox provider's fault and state controls
  'operators.manage', // invite, change role, disable operators, end their sessions
] as const;
export type OperatorPermission = (typeof OPERATOR_PERMISSIONS)[number];

const SUPPORT: readonly OperatorPermission[] = [
  'read',
  'tickets.write',
  'orders.retry',
  'jobs.retry',
  'accounts.manage',
];
const FINANCE: readonly OperatorPermission[] = ['read', 'refunds', 'wallet.adjust', 'finance'];
const CATALOG: readonly OperatorPermission[] = ['read', 'catalog.write'];

export const OPERATOR_ROLE_PERMISSIONS: Record<OperatorRole, ReadonlySet<OperatorPermission>> = {
  owner: new Set(OPERATOR_PERMISSIONS),
  support: new Set(SUPPORT),
  finance: new Set(FINANCE),
  catalog: new Set(CATALOG),
  readonly: new Set(['read']),
};

export function operatorCan(role: OperatorRole, permission: OperatorPermission): boolean {
  return OPERATOR_ROLE_PERMISSIONS[role].has(permission);
}

/** A role's permissions in table order (the console hides what the role cannot do). */
export function operatorPermissionsOf(role: OperatorRole): OperatorPermission[] {
  return OPERATOR_PERMISSIONS.filter((p) => OPERATOR_ROLE_PERMISSIONS[role].has(p));
}

export const OPERATOR_ROLE_NAMES: Record<OperatorRole, string> = {
  owner: 'Owner',
  support: 'Support',
  finance: 'Finance',
  catalog: 'Catalog',
  readonly: 'Read-only',
};

/** "`refunds` (Owner, Finance)": how each operation's description names what it needs. */
export function describePermission(permission: OperatorPermission): string {
  const roles = (Object.keys(OPERATOR_ROLE_PERMISSIONS) as OperatorRole[]).filter((r) =>
    operatorCan(r, permission),
  );
  return `\`${permission}\` (${roles.map((r) => OPERATOR_ROLE_NAMES[r]).join(', ')})`;
}
