import type { Db } from '../../db/client.js';
import { AppError } from '../errors.js';
import { membersRepository } from './members.repository.js';
import { permissionsOf, roleCan, type PartnerPermission, type PartnerRole } from './roles.js';

/** Who is acting on a partner, and as what: what every /api/v1/partners/{partnerId}/ route sees. */
export interface PartnerAccess {
  partnerId: string;
  /** The signed-in person's account (the partner's own when `self`). */
  memberAccountId: string;
  role: PartnerRole;
  /** The partner's own login: an Owner that cannot be removed. */
  self: boolean;
}

export interface PartnerSummary {
  id: string;
  email: string;
  name: string;
  role: PartnerRole;
  self: boolean;
  permissions: PartnerPermission[];
}

function nameOf(row: { firstName: string; lastName: string; email: string }): string {
  return `${row.firstName} ${row.lastName}`.trim() || row.email;
}

/**
 * A partner is an account; its own login is its first Owner and each member of its team signs in
 * with their own account (issue 32 C4). This service answers "may this person act on this
 * partner, and with which role"; the team service (members, invitations) changes the answer.
 */
export function createPartnersService(deps: { db: Db }) {
  const { db } = deps;

  async function access(accountId: string, partnerId: string): Promise<PartnerAccess | null> {
    if (accountId === partnerId) return { partnerId, memberAccountId: accountId, role: 'owner', self: true };
    const role = await membersRepository.roleOf(db, partnerId, accountId);
    return role ? { partnerId, memberAccountId: accountId, role, self: false } : null;
  }

  /**
   * The access of `accountId` to `partnerId` with `permission`: NOT_FOUND when it is no member
   * (a stranger learns nothing of which partner ids exist), ROLE_FORBIDDEN when its role lacks it.
   */
  async function authorize(
    accountId: string,
    partnerId: string,
    permission: PartnerPermission,
  ): Promise<PartnerAccess> {
    const found = await access(accountId, partnerId);
    if (!found) throw new AppError('NOT_FOUND', 'Partner not found');
    if (!roleCan(found.role, permission))
      throw new AppError('ROLE_FORBIDDEN', `Your role (${found.role}) does not allow this (${permission})`, {
        role: found.role,
        permission,
      });
    return found;
  }

  /** Every partner the account can act on: its own account first, then its memberships. */
  async function list(account: {
    id: string;
    email: string;
    firstName: string;
    lastName: string;
  }): Promise<PartnerSummary[]> {
    const memberships = await membersRepository.partnersOf(db, account.id);
    return [
      { id: account.id, email: account.email, name: nameOf(account), role: 'owner' as const, self: true },
      ...memberships
        .filter((m) => m.status !== 'DELETED')
        .map((m) => ({ id: m.partnerId, email: m.email, name: nameOf(m), role: m.role, self: false })),
    ].map((p) => ({ ...p, permissions: permissionsOf(p.role) }));
  }

  async function summary(
    access: PartnerAccess,
  ): Promise<PartnerSummary & { hasLiveKey: boolean; hasTestKey: boolean }> {
    const row = await membersRepository.partnerAccount(db, access.partnerId);
    if (!row) throw new AppError('NOT_FOUND', 'Partner not found');
    return {
      id: row.id,
      email: row.email,
      name: nameOf(row),
      role: access.role,
      self: access.self,
      permissions: permissionsOf(access.role),
      hasLiveKey: row.hasLiveKey,
      hasTestKey: row.hasTestKey,
    };
  }

  return { access, authorize, list, summary };
}

export type PartnersService = ReturnType<typeof createPartnersService>;
