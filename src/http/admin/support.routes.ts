import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../domain/errors.js';
import type { AdminTicketView } from '../../domain/support/support.service.js';
import type { AssigneeFilter } from '../../domain/support/ticket-console.js';
import { TicketMessageBody, TicketStatusSchema } from '../mobile/support.routes.js';
import { defineList, NextCursorSchema, pageQuery } from '../shared/pagination.js';
import { adminErrors } from '../shared/schemas.js';
import {
  AdminTicketSchema,
  operatorIdOf,
  TicketEnvelope,
  TicketParams,
  toAdminTicket,
} from './ticket-schemas.js';

/** Last activity first (updated_at, id); the 100 most recent without limit/cursor. */
const ticketQueue = defineList<AdminTicketView>({
  list: 'admin.tickets',
  key: ['date', 'string'],
  keyOf: (t) => [t.updatedAt, t.id],
  unpagedLimit: 100,
});

const ListQuery = pageQuery({
  status: Type.Optional(
    Type.Array(TicketStatusSchema, {
      minItems: 1,
      maxItems: 4,
      description:
        'One status, or several (`status=RESOLVED&status=CLOSED`). OPEN: waiting for staff; ANSWERED: waiting for the customer',
    }),
  ),
  assignee: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      pattern: '^[A-Za-z0-9_:-]+$',
      description: '`me` (the signed-in operator; not with the admin token), `unassigned`, or an operator id',
    }),
  ),
});

/** `assignee=` as the repository's filter; `me` needs a console operator. */
function assigneeFilter(request: FastifyRequest, value: string | undefined): AssigneeFilter | undefined {
  if (value === undefined) return undefined;
  if (value === 'unassigned') return { unassigned: true };
  if (value !== 'me') return { operatorId: value };
  const me = operatorIdOf(request);
  if (me === null)
    throw new AppError('VALIDATION_ERROR', 'assignee=me needs a signed-in operator, not the admin token', {
      field: 'assignee',
      issues: [{ field: 'assignee', message: 'me is nobody for the admin token' }],
    });
  return { operatorId: me };
}

/** Operator side of support tickets (decisions §6). */
export async function adminSupportRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { support, ticketConsole } = app.container;

  r.get(
    '/tickets',
    {
      config: { operatorPermission: 'read' },
      schema: {
        operationId: 'listTickets',
        tags: ['Support'],
        summary: 'Ticket queue',
        description:
          'Tickets with threads (internal notes included and marked), customer address and assignee, most recent activity first. Filters combine: `status` (one or several) and `assignee` (`me`, `unassigned` or an operator id). The 100 most recent without `limit` and `cursor`; with them one page, the next in the `Link` header and `nextCursor`. A ticket with new activity moves to the front, so paging can pass it by. An internal note or an assignment is not activity: the customer’s own list must not move.',
        querystring: ListQuery,
        response: {
          200: Type.Object({
            tickets: Type.Array(AdminTicketSchema),
            nextCursor: Type.Optional(NextCursorSchema),
          }),
          ...adminErrors(),
        },
      },
    },
    async (request, reply) => {
      const statuses = [...new Set(request.query.status ?? [])].sort();
      const assignee = assigneeFilter(request, request.query.assignee);
      const scope = [statuses.join(','), assignee ? JSON.stringify(assignee) : undefined];
      const page = ticketQueue.plan(scope, request.query);
      const rows = await ticketConsole.list({ statuses, assignee }, { limit: page.take, after: page.after });
      const { items, nextCursor } = page.finish(request, reply, rows);
      return { tickets: items.map(toAdminTicket), ...(page.paged ? { nextCursor } : {}) };
    },
  );

  r.post(
    '/tickets/:id/messages',
    {
      config: { operatorPermission: 'tickets.write', freeText: ['message'] },
      schema: {
        operationId: 'replyToTicket',
        tags: ['Support'],
        summary: 'Staff reply',
        description:
          'Adds a staff message, signed by the console operator (none for the admin token); the ticket becomes ANSWERED and the customer is e-mailed in their locale (and pushed, when they have the app). For a note the customer never sees, use POST /tickets/{id}/notes. A guest ticket’s sender gets the reply by mail with a new link to the thread (`{PUBLIC_BASE_URL}/support/guest/<token>`); the link of an earlier mail stops working.',
        params: TicketParams,
        body: Type.Object({ message: TicketMessageBody }),
        response: { 201: TicketEnvelope, ...adminErrors(404) },
      },
    },
    async (request, reply) => {
      await support.staffReply(request.params.id, request.body.message, {
        requestId: request.id,
        operatorId: operatorIdOf(request),
      });
      const ticket = await ticketConsole.view(request.params.id);
      return reply.code(201).send({ ticket: toAdminTicket(ticket) });
    },
  );

  r.patch(
    '/tickets/:id',
    {
      config: { operatorPermission: 'tickets.write' },
      schema: {
        operationId: 'updateTicket',
        tags: ['Support'],
        summary: 'Set ticket status',
        description: 'Any status may be set; a change is written to the audit log.',
        params: TicketParams,
        body: Type.Object({ status: TicketStatusSchema }),
        response: { 200: TicketEnvelope, ...adminErrors(404) },
      },
    },
    async (request) => {
      await support.setStatus(request.params.id, request.body.status, { requestId: request.id });
      return { ticket: toAdminTicket(await ticketConsole.view(request.params.id)) };
    },
  );
}
