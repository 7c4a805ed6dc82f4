import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { AuditRecordWithActor } from '../../domain/audit/audit.service.js';
import { AppError } from '../../domain/errors.js';
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
    actor: Nullable(
      Type.String({
        description:
          'Who did it: `token` (ADMIN_TOKEN), `operator:<id>` (a console operator), `account:<id>`, `api_key`, `system`; null on rows older than issue 32',
      }),
    ),
    actorEmail: Nullable(Type.String({ description: 'The operator’s e-mail, for an `operator:<id>` actor' })),
    actorName: Nullable(Type.String({ description: 'The operator’s name, for an `operator:<id>` actor' })),
    createdAt: IsoDate,
  },
  { title: 'AuditEntry' },
);

/** Newest first (created_at, id) on audit_log_list_idx / audit_log_target_list_idx. */
const auditList = defineList<AuditRecordWithActor>({
  list: 'admin.audit',
  key: ['date', 'string'],
  keyOf: (r) => [r.createdAt, r.id],
  unpagedLimit: 100,
});

function badRange(field: string, message: string): AppError {
  return new AppError('VALIDATION_ERROR', `${field} ${message}`, { field, issues: [{ field, message }] });
}

/** A query date: the schema checked its shape; this refuses what Date cannot hold (2026-02-31). */
function dateOf(field: string, value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw badRange(field, 'is not a valid date-time');
  return date;
}

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
          'State-changing operator actions, newest first, each with its actor (and an operator actor’s ' +
          'e-mail and name). Filters combine: `target` (one object id: account, order, ticket, plan …), ' +
          '`actor` (`token` or `operator:<id>`, exactly), `action` (a prefix: `ticket.` finds every ticket ' +
          'action), `from` (included) and `to` (excluded) on the time. The newest 100 without `limit` and ' +
          '`cursor`; with them one page, the next in the `Link` header and `nextCursor`. `from` after `to` → ' +
          '400 VALIDATION_ERROR.',
        querystring: pageQuery({
          target: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
          actor: Type.Optional(
            Type.String({
              minLength: 1,
              maxLength: 120,
              description: '`token`, `operator:<id>`, `system`, `account:<id>` …',
            }),
          ),
          action: Type.Optional(
            Type.String({
              minLength: 1,
              maxLength: 100,
              description: 'Action prefix, e.g. `ticket.` or `order.refund`',
            }),
          ),
          from: Type.Optional({ ...IsoDate, description: 'Only entries at or after this time' }),
          to: Type.Optional({ ...IsoDate, description: 'Only entries before this time' }),
        }),
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
      const { target, actor, action } = request.query;
      // `from` in backticks: the dependency scan (test/scripts/dependencies.test.ts) reads from + quote as an import.
      const from = dateOf(`from`, request.query.from);
      const to = dateOf('to', request.query.to);
      if (from && to && from.getTime() > to.getTime()) throw badRange(`from`, 'must not be after to');
      const page = auditList.plan(
        [target, actor, action, from?.toISOString(), to?.toISOString()],
        request.query,
      );
      const rows = await audit.listWithActors({
        target,
        actor,
        actionPrefix: action,
        from,
        to,
        limit: page.take,
        after: page.after,
      });
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
          actor: row.actor,
          actorEmail: row.actorEmail,
          actorName: row.actorName,
          createdAt: row.createdAt.toISOString(),
        })),
      };
    },
  );
}
