import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { AdminTicketView, TicketView } from '../../domain/support/support.service.js';
import { TicketMessageBody, TicketStatusSchema } from '../mobile/support.routes.js';
import { defineList, NextCursorSchema, pageQuery } from '../shared/pagination.js';
import { adminErrors, IsoDate, Nullable } from '../shared/schemas.js';

const AdminTicketSchema = Type.Object(
  {
    id: Type.String(),
    accountId: Nullable(Type.String({ description: 'Null on a guest ticket (contact form)' })),
    email: Type.Optional(Type.String({ description: 'The account’s address, or the guest’s' })),
    guest: Nullable(
      Type.Object(
        { email: Type.String(), name: Type.String() },
        { description: 'The sender of a ticket opened with the contact form (no account)' },
      ),
    ),
    subject: Type.String(),
    category: Type.String(),
    status: TicketStatusSchema,
    systemCreated: Type.Boolean({
      description: 'Opened by the service itself, e.g. after a fulfillment failure',
    }),
    orderId: Nullable(Type.String()),
    createdAt: IsoDate,
    updatedAt: IsoDate,
    messages: Type.Array(
      Type.Object({
        id: Type.String(),
        author: Type.Union([Type.Literal('customer'), Type.Literal('staff'), Type.Literal('system')]),
        message: Type.String(),
        createdAt: IsoDate,
      }),
      { description: 'Oldest first' },
    ),
  },
  { title: 'AdminTicket' },
);

const TicketEnvelope = Type.Object({ ticket: AdminTicketSchema });
const TicketParams = Type.Object({ id: Type.String({ maxLength: 100 }) });

/** Last activity first (updated_at, id); the 100 most recent without limit/cursor. */
const ticketQueue = defineList<AdminTicketView>({
  list: 'admin.tickets',
  key: ['date', 'string'],
  keyOf: (t) => [t.updatedAt, t.id],
  unpagedLimit: 100,
});

function toAdminTicket(ticket: TicketView & { email?: string }) {
  return {
    ...ticket,
    createdAt: ticket.createdAt.toISOString(),
    updatedAt: ticket.updatedAt.toISOString(),
    messages: ticket.messages.map((m) => ({ ...m, createdAt: m.createdAt.toISOString() })),
  };
}

/** Operator side of support tickets (decisions §6). */
export async function adminSupportRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { support } = app.container;

  r.get(
    '/tickets',
    {
      config: { operatorPermission: 'read' },
      schema: {
        operationId: 'listTickets',
        tags: ['Support'],
        summary: 'Ticket queue',
        description:
          'Tickets with threads and owner, most recent activity first; filter by `status`. The 100 most recent without `limit` and `cursor`; with them one page, the next in the `Link` header and `nextCursor`. A ticket with new activity moves to the front, so paging can pass it by.',
        querystring: pageQuery({ status: Type.Optional(TicketStatusSchema) }),
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
      const { status } = request.query;
      const page = ticketQueue.plan([status], request.query);
      const rows = await support.adminList({ status, limit: page.take, after: page.after });
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
          'Adds a staff message; the ticket becomes ANSWERED and the customer is e-mailed in their locale. A guest ticket’s sender gets the reply by mail with a new link to the thread (`{PUBLIC_BASE_URL}/support/guest/<token>`); the link of an earlier mail stops working.',
        params: TicketParams,
        body: Type.Object({ message: TicketMessageBody }),
        response: { 201: TicketEnvelope, ...adminErrors(404) },
      },
    },
    async (request, reply) => {
      const ticket = await support.staffReply(request.params.id, request.body.message, {
        requestId: request.id,
      });
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
    async (request) => ({
      ticket: toAdminTicket(
        await support.setStatus(request.params.id, request.body.status, { requestId: request.id }),
      ),
    }),
  );
}
