import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { AuditRecord } from '../../domain/audit/audit.service.js';
import { defineList, NextCursorSchema, pageQuery } from '../shared/pagination.js';
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

/** Newest first (created_at, id) on audit_log_list_idx / audit_log_target_list_idx. */
const auditList = defineList<AuditRecord>({
  list: 'admin.audit',
  key: ['date', 'string'],
  keyOf: (r) => [r.createdAt, r.id],
  unpagedLimit: 100,
});

/** `GET /audit`: the trail of state-changing operator actions. */
export async function auditRoutes(app: FastifyInstance): Promise<void> {
  const { audit } = app.container;

  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/audit',
    {
      config: { operatorPermission: 'read' },
      schema: {
        operationId: 'listAuditEntries',
        tags: ['Audit'],
        summary: 'Audit log',
        description:
          'State-changing operator actions, newest first. `target` narrows to one object id ' +
          '(account, order, ticket, plan …). The newest 100 without `limit` and `cursor`; with them one page, ' +
          'the next in the `Link` header and `nextCursor`.',
        querystring: pageQuery({ target: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) }),
        response: {
          200: Type.Object({
            entries: Type.Array(AuditEntrySchema),
            nextCursor: Type.Optional(NextCursorSchema),
          }),
          ...adminErrors(),
        },
      },
    },
    async (request, reply) => {
      const { target } = request.query;
      const page = auditList.plan([target], request.query);
      const rows = await audit.list({ target, limit: page.take, after: page.after });
      const { items, nextCursor } = page.finish(request, reply, rows);
      return {
        ...(page.paged ? { nextCursor } : {}),
        entries: items.map((row) => ({
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
