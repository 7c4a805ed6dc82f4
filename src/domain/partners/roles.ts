import type { PartnerRole } from '../../db/schema/partners.js';

export { PARTNER_ROLES, type PartnerRole } from '../../db/schema/partners.js';

/**
 * What each role of a partner's team may do (issue 32 C4; docs/partner-guide.md "Team and
 * roles"). Every route under /api/v1/partners/{partnerId}/ names one permission in its
 * `config.permission`; the surface refuses the others with 403 ROLE_FORBIDDEN.
 *
 * - Owner: everything. Admin: everything but removing or demoting an Owner (checked in the team
 *   service, which knows the target's role).
 * - Developer: keys, webhooks, events, request log, test mode; no top-ups, no statements.
 * - Finance: wallet top-ups, statements, orders; never keys or webhook secrets.
 * - Viewer: reads what holds no secret.
 */
export const PARTNER_PERMISSIONS = [
  'partner.read', // the partner's summary, wallet balance, orders, prices
  'keys.read', // key prefixes (never a secret)
  'keys.write', // generate / rotate a live or test key (the new key is shown once)
  'webhooks.read', // endpoints and their delivery logs
  'webhooks.write', // create, change, rotate secret, disable, delete, test, resend
  'events.read',
  'requests.read',
  'testmode.write', // reset the test wallet
  'wallet.topup',
  'statements.read', // statements and transaction exports
  'members.read',
  'members.write', // invite, change roles, remove
  'audit.read',
] as const;
export type PartnerPermission = (typeof PARTNER_PERMISSIONS)[number];

const DEVELOPER: readonly PartnerPermission[] = [
  'partner.read',
  'keys.read',
  'keys.write',
  'webhooks.read',
  'webhooks.write',
  'events.read',
  'requests.read',
  'testmode.write',
  'members.read',
];
const FINANCE: readonly PartnerPermission[] = [
  'partner.read',
  'wallet.topup',
  'statements.read',
  'members.read',
];
const VIEWER: readonly PartnerPermission[] = [
  'partner.read',
  'keys.read',
  'webhooks.read',
  'events.read',
  'requests.read',
  'statements.read',
  'members.read',
];

export const ROLE_PERMISSIONS: Record<PartnerRole, ReadonlySet<PartnerPermission>> = {
  owner: new Set(PARTNER_PERMISSIONS),
  admin: new Set(PARTNER_PERMISSIONS),
  developer: new Set(DEVELOPER),
  finance: new Set(FINANCE),
  viewer: new Set(VIEWER),
};

export function roleCan(role: PartnerRole, permission: PartnerPermission): boolean {
  return ROLE_PERMISSIONS[role].has(permission);
}

export function permissionsOf(role: PartnerRole): PartnerPermission[] {
  return PARTNER_PERMISSIONS.filter((p) => ROLE_PERMISSIONS[role].has(p));
}
