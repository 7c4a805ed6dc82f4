import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { defineList, NextCursorSchema, pageQuery } from '../../shared/pagination.js';
import { IsoDate, Nullable } from '../../shared/schemas.js';

const PartnerAuditEntrySchema = Type.Object(
  {
    id: Type.String(),
    action: Type.String({
      description:
        'e.g. partner.member.add, partner.member.role.update, partner.key.rotate, partner.invitation.create',
    }),
    actor: Nullable(
      Type.String({ description: '`account:<id>` of the person, `token` (an operator) or `system`' }),
    ),
    actorEmail: Nullable(
      Type.String({ description: "The acting person's e-mail, when the actor is an account" }),
    ),
    targetType: Type.String(),
    targetId: Type.String(),
    before: Type.Unknown({ description: 'What it was before (never a key or secret), or null' }),
    after: Type.Unknown({ description: 'What it is after, or null' }),
    requestId: Nullable(Type.String()),
    createdAt: IsoDate,
  },
  { title: 'PartnerAuditEntry' },
);

type Row = { createdAt: Date; id: string };
const partnerAuditList = defineList<Row>({
  list: 'partner.audit',
  key: ['date', 'string'],
  keyOf: (r) => [r.createdAt, r.id],
  unpagedLimit: 100,
});

/** `GET /partners/{partnerId}/audit`: who changed the partner's keys, members, roles (issue 32 C4). */
export async function partnerAuditRoutes(app: FastifyInstance): Promise<void> {
  const { partnerConsole } = app.container;
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/audit',
    {
      config: { permission: 'audit.read' },
      schema: {
        operationId: 'listPartnerAudit',
        tags: ['Partner dashboard'],
        summary: "The partner's audit log",
        description:
          'Changes of keys, members, roles, invitations and test wallet resets, newest first. The newest 100 ' +
          'without `limit` and `cursor`; with them one page, the next in `nextCursor` and the `Link` header.',
        querystring: pageQuery({}),
        response: {
          200: Type.Object({
            entries: Type.Array(PartnerAuditEntrySchema),
            nextCursor: Type.Optional(NextCursorSchema),
          }),
        },
      },
    },
    async (request, reply) => {
      const partnerId = request.partnerAccess!.partnerId;
      const page = partnerAuditList.plan([partnerId], request.query);
      const rows = await partnerConsole.auditLog(partnerId, { limit: page.take ?? 100, after: page.after });
      const { items, nextCursor } = page.finish(request, reply, rows);
      return {
        ...(page.paged ? { nextCursor } : {}),
        entries: (items as typeof rows).map((row) => ({
          id: row.id,
          action: row.action,
          actor: row.actor,
          actorEmail: row.actorEmail,
          targetType: row.targetType,
          targetId: row.targetId,
          before: row.before ?? null,
          after: row.after ?? null,
          requestId: row.requestId,
          createdAt: row.createdAt.toISOString(),
        })),
      };
    },
  );
}
