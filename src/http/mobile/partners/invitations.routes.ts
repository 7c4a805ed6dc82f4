import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../../domain/errors.js';
import { IsoDate, mobileErrors } from '../../shared/schemas.js';
import { InvitationStatusSchema, RoleSchema } from './team.routes.js';

const TokenParams = Type.Object({
  token: Type.String({ minLength: 16, maxLength: 128, description: 'From the invitation link' }),
});
const tags = ['Partner dashboard'];

/** The invitation link's page: preview without a session, accept with one (issue 32 C4). */
export async function invitationRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { team } = app.container;

  r.get(
    '/partner-invitations/:token',
    {
      config: { auth: 'none' },
      schema: {
        operationId: 'getPartnerInvitation',
        tags,
        summary: 'Preview an invitation',
        description:
          'Which partner invites, with which role, to which address, until when, and whether it can still be ' +
          'accepted (`status`). 404 for an unknown token.',
        params: TokenParams,
        response: {
          200: Type.Object({
            partnerId: Type.String(),
            partnerName: Type.String(),
            email: Type.String({ description: 'The address invited: accept signed in with this one' }),
            role: RoleSchema,
            expiresAt: IsoDate,
            status: InvitationStatusSchema,
          }),
          ...mobileErrors(404),
        },
      },
    },
    async (request) => {
      const found = await team.preview(request.params.token);
      if (!found) throw new AppError('NOT_FOUND', 'This invitation does not exist');
      return { ...found, expiresAt: found.expiresAt.toISOString() };
    },
  );

  r.post(
    '/partner-invitations/:token/accept',
    {
      schema: {
        operationId: 'acceptPartnerInvitation',
        tags,
        summary: 'Accept an invitation',
        description:
          "Joins the partner's team with the invitation's role. The signed-in account's e-mail must be the " +
          'invited address (case-insensitive): otherwise 403 FORBIDDEN with `details.reason` `email_mismatch`. ' +
          'Used, revoked or expired: 400 INVALID_TOKEN with `details.reason` `used`, `revoked` or `expired`.',
        params: TokenParams,
        response: {
          200: Type.Object({ partnerId: Type.String(), role: RoleSchema }),
          ...mobileErrors(401, 403, 404, 409),
        },
      },
    },
    async (request) => team.accept(request.auth!.account, request.params.token, request.id),
  );
}
