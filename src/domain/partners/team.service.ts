import type { Db } from '../../db/client.js';
import { DAY, type Clock } from '../../lib/clock.js';
import { randomToken, sha256Hex } from '../../lib/crypto.js';
import { newId } from '../../lib/ids.js';
import { normalizeEmail } from '../accounts/normalize.js';
import type { AuditService } from '../audit/audit.service.js';
import { AppError } from '../errors.js';
import type { Mailer } from '../mail/mailer.js';
import { partnerInvitationMail } from '../mail/partner-invitation.js';
import { mailLang } from '../mail/templates.js';
import { invitationsRepository, type InvitationRow } from './invitations.repository.js';
import { membersRepository } from './members.repository.js';
import type { PartnerAccess } from './partners.service.js';
import type { PartnerRole } from './roles.js';

/** How long an invitation link works (issue 32 C4). */
export const INVITATION_LIFETIME_MS = 7 * DAY;

export type InvitationStatus = 'pending' | 'expired' | 'accepted' | 'revoked';

export interface TeamMember {
  accountId: string;
  email: string;
  name: string;
  role: PartnerRole;
  /** The partner's own login: always an Owner, cannot be removed or changed. */
  self: boolean;
  since: Date | null;
}

function nameOf(row: { firstName: string; lastName: string; email: string }): string {
  return `${row.firstName} ${row.lastName}`.trim() || row.email;
}

function statusOf(row: InvitationRow, now: Date): InvitationStatus {
  if (row.acceptedAt) return 'accepted';
  if (row.revokedAt) return 'revoked';
  return row.expiresAt.getTime() <= now.getTime() ? 'expired' : 'pending';
}

const actorOf = (access: PartnerAccess) => `account:${access.memberAccountId}`;

/**
 * A partner's team (issue 32 C4; docs/partner-guide.md "Team and roles"): invitations by e-mail,
 * roles, removal, leaving. Every change writes its audit row (actor `account:<id>`, the partner's
 * id) in the transaction of the change.
 *
 * Rules beyond the role's permission (which the dashboard scope checks): only an Owner makes
 * someone an Owner (invites or promotes) or changes or removes an Owner; so an Admin can do
 * everything else. Nobody removes or changes the partner's own login. Anyone may leave.
 */
export function createTeamService(deps: {
  db: Db;
  clock: Clock;
  audit: AuditService;
  mailer: Mailer;
  publicBaseUrl: string;
}) {
  const { db, clock, audit } = deps;

  function ownersOnly(access: PartnerAccess, what: string): void {
    if (access.role !== 'owner')
      throw new AppError('ROLE_FORBIDDEN', `Only an Owner can ${what}`, {
        role: access.role,
        rule: 'owner_only',
      });
  }

  function notThePartner(access: PartnerAccess, accountId: string): void {
    if (accountId === access.partnerId)
      throw new AppError('FORBIDDEN', "The partner's own login is always an Owner", {
        reason: 'partner_login',
      });
  }

  async function members(partnerId: string): Promise<TeamMember[]> {
    const partner = await membersRepository.partnerAccount(db, partnerId);
    if (!partner) throw new AppError('NOT_FOUND', 'Partner not found');
    const rows = await membersRepository.list(db, partnerId);
    return [
      {
        accountId: partner.id,
        email: partner.email,
        name: nameOf(partner),
        role: 'owner',
        self: true,
        since: null,
      },
      ...rows.map((r) => ({
        accountId: r.accountId,
        email: r.email,
        name: nameOf(r),
        role: r.role,
        self: false,
        since: r.createdAt,
      })),
    ];
  }

  async function invitations(partnerId: string) {
    const now = clock.now();
    const rows = await invitationsRepository.open(db, partnerId);
    return rows.map((r) => ({ ...r, status: statusOf(r, now) }));
  }

  async function invite(
    access: PartnerAccess,
    input: { email: string; role: PartnerRole; locale?: string | undefined },
    requestId?: string,
  ) {
    const email = normalizeEmail(input.email);
    if (input.role === 'owner') ownersOnly(access, 'invite an Owner');
    const team = await members(access.partnerId);
    if (team.some((m) => m.email === email))
      throw new AppError('CONFLICT', 'This person is already on the team', { reason: 'already_member' });
    const partner = team[0]!;
    const token = randomToken(32);
    const now = clock.now();
    const row: InvitationRow = {
      id: newId('pinv'),
      partnerId: access.partnerId,
      email,
      role: input.role,
      tokenHash: sha256Hex(token),
      invitedBy: access.memberAccountId,
      createdAt: now,
      expiresAt: new Date(now.getTime() + INVITATION_LIFETIME_MS),
      acceptedAt: null,
      acceptedBy: null,
      revokedAt: null,
    };
    await db.transaction(async (tx) => {
      await invitationsRepository.insert(tx, row);
      await audit.record(tx, {
        action: 'partner.invitation.create',
        targetType: 'partner_invitation',
        targetId: row.id,
        after: { email, role: input.role },
        actor: actorOf(access),
        partnerId: access.partnerId,
        ...(requestId ? { requestId } : {}),
      });
    });
    const path = `/partner-invitations/${token}`;
    const url = `${deps.publicBaseUrl}${path}`;
    // After the commit: a mail never announces an invitation that does not exist.
    await deps.mailer.send(
      partnerInvitationMail(mailLang(input.locale), email, {
        partnerName: partner.name,
        role: input.role,
        link: url,
      }),
    );
    return { invitation: { ...row, status: 'pending' as const }, token, url, path };
  }

  async function revokeInvitation(access: PartnerAccess, id: string, requestId?: string) {
    await db.transaction(async (tx) => {
      const row = await invitationsRepository.revoke(tx, access.partnerId, id, clock.now());
      if (!row) throw new AppError('NOT_FOUND', 'No open invitation with this id');
      await audit.record(tx, {
        action: 'partner.invitation.revoke',
        targetType: 'partner_invitation',
        targetId: id,
        before: { email: row.email, role: row.role },
        actor: actorOf(access),
        partnerId: access.partnerId,
        ...(requestId ? { requestId } : {}),
      });
    });
  }

  async function changeRole(access: PartnerAccess, accountId: string, role: PartnerRole, requestId?: string) {
    notThePartner(access, accountId);
    if (role === 'owner') ownersOnly(access, 'make someone an Owner');
    return db.transaction(async (tx) => {
      const before = await membersRepository.roleOf(tx, access.partnerId, accountId);
      if (!before) throw new AppError('NOT_FOUND', 'No member with this account id');
      if (before === 'owner') ownersOnly(access, 'change an Owner');
      if (before === role) return { accountId, role };
      await membersRepository.upsert(tx, { partnerId: access.partnerId, accountId, role, now: clock.now() });
      await audit.record(tx, {
        action: 'partner.member.role.update',
        targetType: 'account',
        targetId: accountId,
        before: { role: before },
        after: { role },
        actor: actorOf(access),
        partnerId: access.partnerId,
        ...(requestId ? { requestId } : {}),
      });
      return { accountId, role };
    });
  }

  /** Removes a member (or, with accountId = the caller's own, leaves the team). */
  async function remove(access: PartnerAccess, accountId: string, requestId?: string) {
    notThePartner(access, accountId);
    const leaving = accountId === access.memberAccountId;
    await db.transaction(async (tx) => {
      const role = await membersRepository.roleOf(tx, access.partnerId, accountId);
      if (!role) throw new AppError('NOT_FOUND', 'No member with this account id');
      if (role === 'owner' && !leaving) ownersOnly(access, 'remove an Owner');
      const email = await membersRepository.emailOf(tx, accountId);
      await membersRepository.remove(tx, access.partnerId, accountId);
      await audit.record(tx, {
        action: leaving ? 'partner.member.leave' : 'partner.member.remove',
        targetType: 'account',
        targetId: accountId,
        before: { role, email },
        actor: actorOf(access),
        partnerId: access.partnerId,
        ...(requestId ? { requestId } : {}),
      });
    });
  }

  /** What the invitation page shows before anyone signs in; null for an unknown token. */
  async function preview(token: string) {
    const found = await invitationsRepository.byTokenHash(db, sha256Hex(token));
    if (!found || found.partnerStatus === 'DELETED') return null;
    const { invitation } = found;
    return {
      partnerId: invitation.partnerId,
      partnerName: nameOf({
        firstName: found.partnerFirstName,
        lastName: found.partnerLastName,
        email: found.partnerEmail,
      }),
      email: invitation.email,
      role: invitation.role,
      expiresAt: invitation.expiresAt,
      status: statusOf(invitation, clock.now()),
    };
  }

  /**
   * The signed-in account joins the team with the invitation's role. The invitation binds to
   * the address it was sent to: the account's e-mail must be that address (compared
   * lower-cased), so a forwarded or leaked link is useless to anyone else.
   */
  async function accept(account: { id: string; email: string }, token: string, requestId?: string) {
    const found = await invitationsRepository.byTokenHash(db, sha256Hex(token));
    if (!found || found.partnerStatus === 'DELETED')
      throw new AppError('NOT_FOUND', 'This invitation does not exist', { reason: 'unknown' });
    const { invitation } = found;
    const status = statusOf(invitation, clock.now());
    if (status !== 'pending')
      throw new AppError('INVALID_TOKEN', `This invitation is ${status === 'accepted' ? 'used' : status}`, {
        reason: status === 'accepted' ? 'used' : status,
      });
    if (account.email.toLowerCase() !== invitation.email.toLowerCase())
      throw new AppError('FORBIDDEN', 'This invitation was sent to another e-mail address', {
        reason: 'email_mismatch',
      });
    if (account.id === invitation.partnerId)
      throw new AppError('CONFLICT', 'This is your own partner account', { reason: 'partner_login' });
    return db.transaction(async (tx) => {
      const now = clock.now();
      const claimed = await invitationsRepository.claim(tx, invitation.id, account.id, now);
      if (!claimed)
        throw new AppError('INVALID_TOKEN', 'This invitation is used, revoked or expired', {
          reason: 'used',
        });
      const before = await membersRepository.roleOf(tx, claimed.partnerId, account.id);
      await membersRepository.upsert(tx, {
        partnerId: claimed.partnerId,
        accountId: account.id,
        role: claimed.role,
        now,
      });
      await audit.record(tx, {
        action: 'partner.member.add',
        targetType: 'account',
        targetId: account.id,
        before: before ? { role: before } : null,
        after: { role: claimed.role, email: account.email, invitationId: invitation.id },
        actor: `account:${account.id}`,
        partnerId: claimed.partnerId,
        ...(requestId ? { requestId } : {}),
      });
      return { partnerId: claimed.partnerId, role: claimed.role };
    });
  }

  return { members, invitations, invite, revokeInvitation, changeRole, remove, preview, accept };
}

export type TeamService = ReturnType<typeof createTeamService>;
