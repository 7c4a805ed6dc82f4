import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { PARTNER_ROLES } from '../../../domain/partners/roles.js';
import { IsoDate, mobileErrors, Nullable, SuccessSchema } from '../../shared/schemas.js';

export const RoleSchema = Type.Union(
  PARTNER_ROLES.map((r) => Type.Literal(r)),
  { description: 'owner, admin, developer, finance or viewer (docs/partner-guide.md "Team and roles")' },
);

const MemberSchema = Type.Object(
  {
    accountId: Type.String(),
    email: Type.String(),
    name: Type.String(),
    role: RoleSchema,
    self: Type.Boolean({
      description: "true: the partner's own login (always an Owner; cannot be removed or changed)",
    }),
    since: Nullable(IsoDate),
  },
  { title: 'PartnerMember' },
);

export const InvitationStatusSchema = Type.Union(
  [Type.Literal('pending'), Type.Literal('expired'), Type.Literal('accepted'), Type.Literal('revoked')],
  { description: 'pending (can be accepted), expired (after 7 days), accepted (used once), revoked' },
);

const InvitationSchema = Type.Object(
  {
    id: Type.String(),
    email: Type.String(),
    role: RoleSchema,
    status: InvitationStatusSchema,
    invitedBy: Type.String({ description: 'Account id of the member who sent it' }),
    createdAt: IsoDate,
    expiresAt: IsoDate,
  },
  { title: 'PartnerInvitation' },
);

const MemberParams = Type.Object({ accountId: Type.String({ minLength: 1, maxLength: 64 }) });
const InvitationParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

function presentInvitation(row: {
  id: string;
  email: string;
  role: (typeof PARTNER_ROLES)[number];
  status: 'pending' | 'expired' | 'accepted' | 'revoked';
  invitedBy: string;
  createdAt: Date;
  expiresAt: Date;
}) {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    status: row.status,
    invitedBy: row.invitedBy,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  };
}

const tags = ['Partner dashboard'];

/** Members and invitations of a partner (issue 32 C4), inside the dashboard scope. */
export async function teamRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { team } = app.container;

  r.get(
    '/members',
    {
      config: { permission: 'members.read' },
      schema: {
        operationId: 'listPartnerMembers',
        tags,
        summary: "The partner's team",
        description: "The partner's own login (an Owner, `self`) first, then every member, oldest first.",
        response: { 200: Type.Object({ members: Type.Array(MemberSchema) }) },
      },
    },
    async (request) => {
      const members = await team.members(request.partnerAccess!.partnerId);
      return { members: members.map((m) => ({ ...m, since: m.since?.toISOString() ?? null })) };
    },
  );

  r.patch(
    '/members/:accountId',
    {
      config: { permission: 'members.write' },
      schema: {
        operationId: 'updatePartnerMember',
        tags,
        summary: "Change a member's role",
        description:
          "Only an Owner makes someone an Owner or changes an Owner's role (an Admin gets 403 ROLE_FORBIDDEN). " +
          "The partner's own login cannot be changed (403 FORBIDDEN).",
        params: MemberParams,
        body: Type.Object({ role: RoleSchema }, { additionalProperties: false }),
        response: {
          200: Type.Object({ accountId: Type.String(), role: RoleSchema }),
          ...mobileErrors(403, 404),
        },
      },
    },
    async (request) =>
      team.changeRole(request.partnerAccess!, request.params.accountId, request.body.role, request.id),
  );

  r.delete(
    '/members/:accountId',
    {
      config: { permission: 'members.write' },
      schema: {
        operationId: 'removePartnerMember',
        tags,
        summary: 'Remove a member',
        description:
          "The member loses access at once; the partner's API keys keep working. Only an Owner removes an " +
          "Owner; nobody removes the partner's own login (403 FORBIDDEN).",
        params: MemberParams,
        response: { 200: SuccessSchema, ...mobileErrors(403, 404) },
      },
    },
    async (request) => {
      await team.remove(request.partnerAccess!, request.params.accountId, request.id);
      return { success: true as const };
    },
  );

  r.delete(
    '/membership',
    {
      config: { permission: 'partner.read' },
      schema: {
        operationId: 'leavePartner',
        tags,
        summary: 'Leave the team',
        description:
          "Any member may leave, whatever their role. The partner's own login cannot (403 FORBIDDEN).",
        response: { 200: SuccessSchema, ...mobileErrors(403, 404) },
      },
    },
    async (request) => {
      const access = request.partnerAccess!;
      await team.remove(access, access.memberAccountId, request.id);
      return { success: true as const };
    },
  );

  r.get(
    '/invitations',
    {
      config: { permission: 'members.read' },
      schema: {
        operationId: 'listPartnerInvitations',
        tags,
        summary: 'Open invitations',
        description:
          'Invitations neither accepted nor revoked, newest first; expired ones are marked `expired`.',
        response: { 200: Type.Object({ invitations: Type.Array(InvitationSchema) }) },
      },
    },
    async (request) => ({
      invitations: (await team.invitations(request.partnerAccess!.partnerId)).map(presentInvitation),
    }),
  );

  r.post(
    '/invitations',
    {
      config: { permission: 'members.write' },
      schema: {
        operationId: 'createPartnerInvitation',
        tags,
        summary: 'Invite someone by e-mail',
        description:
          'Mails a link `/partner-invitations/<token>` that works once for 7 days, and returns it here once ' +
          '(it is never shown again). Whoever accepts must be signed in with this e-mail address. Only an ' +
          'Owner invites an Owner. 409 CONFLICT when the address is already on the team.',
        body: Type.Object(
          {
            email: Type.String({ minLength: 3, maxLength: 254 }),
            role: RoleSchema,
            locale: Type.Optional(
              Type.String({ pattern: '^[A-Za-z]{2}$', description: 'Language of the mail' }),
            ),
          },
          { additionalProperties: false },
        ),
        response: {
          201: Type.Object({
            invitation: InvitationSchema,
            url: Type.String({ description: 'The invitation link; shown only in this response' }),
            path: Type.String({ description: '/partner-invitations/<token>' }),
          }),
          ...mobileErrors(403, 409),
        },
      },
    },
    async (request, reply) => {
      const created = await team.invite(request.partnerAccess!, request.body, request.id);
      reply.code(201);
      return { invitation: presentInvitation(created.invitation), url: created.url, path: created.path };
    },
  );

  r.delete(
    '/invitations/:id',
    {
      config: { permission: 'members.write' },
      schema: {
        operationId: 'revokePartnerInvitation',
        tags,
        summary: 'Revoke an invitation',
        description: 'Its link stops working at once. 404 when it is unknown, accepted or already revoked.',
        params: InvitationParams,
        response: { 200: SuccessSchema, ...mobileErrors(404) },
      },
    },
    async (request) => {
      await team.revokeInvitation(request.partnerAccess!, request.params.id, request.id);
      return { success: true as const };
    },
  );
}
