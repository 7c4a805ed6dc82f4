import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { adminErrors, IsoDate, Nullable } from '../shared/schemas.js';

const AuditEntrySchema = Type.Object(
  {
    id: Type.String(),
    action: Type.String({ description: 'Dotted verb, e.g. `ticket.status.update`, `wallet.adjust`' }),
    targetType: Type.String(),
    targetId: Type.String(),
    before: Type.Unknown({ description: 'Summary of the state before the action, or null' }),
    after: Type.Unknown({ description: 'Summary of the state after the action, or null' }),
    requestId: Nullable(
      Type.String({ description: 'X-Request-Id of the admin request that made the change' }),
    ),
    createdAt: IsoDate,
  },
  { title: 'AuditEntry' },
);

/** `GET /audit`: the trail of state-changing operator actions. */
export async function auditRoutes(app: FastifyInstance): Promise<void> {
  const { audit } = app.container;

  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/audit',
    {
      schema: {
        tags: ['Audit'],
        summary: 'Audit log',
        description:
          'State-changing operator actions, newest first. `target` narrows to one object id ' +
          '(account, order, ticket, plan …).',
        security: [{ adminToken: [] }],
        querystring: Type.Object({
          target: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100 })),
        }),
        response: { 200: Type.Object({ entries: Type.Array(AuditEntrySchema) }), ...adminErrors() },
      },
    },
    async (request) => {
      const rows = await audit.list({ target: request.query.target, limit: request.query.limit });
      return {
        entries: rows.map((row) => ({
          id: row.id,
          action: row.action,
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
