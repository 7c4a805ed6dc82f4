import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../domain/errors.js';
import { TICKET_CATEGORIES, TICKET_STATUSES, type TicketView } from '../../domain/support/support.service.js';
import { defineList, NextCursorSchema, pageQuery } from '../shared/pagination.js';
import { IsoDate, mobileErrors, Nullable } from '../shared/schemas.js';
import type { AccountLimits } from './account-limits.js';

/** At least one non-space character: a blank subject or message is not a ticket. */
const NOT_BLANK = '\\S';

export const TICKET_CATEGORY_MAX_LENGTH = 32;
export const TicketCategorySchema = Type.String({
  minLength: 1,
  maxLength: TICKET_CATEGORY_MAX_LENGTH,
  description: `Topic of the ticket, free text of 1–${TICKET_CATEGORY_MAX_LENGTH} characters (trimmed), stored and echoed as sent; \`other\` when omitted. Suggestions: ${TICKET_CATEGORIES.join(', ')}.`,
  examples: [...TICKET_CATEGORIES],
});
export const TicketStatusSchema = Type.Union(
  TICKET_STATUSES.map((s) => Type.Literal(s)),
  { description: 'OPEN (waiting for staff), ANSWERED (staff replied), RESOLVED, CLOSED' },
);
export const TicketMessageBody = Type.String({ minLength: 1, maxLength: 5000, pattern: NOT_BLANK });

const CustomerMessageSchema = Type.Object({
  id: Type.String(),
  author: Type.Union([Type.Literal('customer'), Type.Literal('staff')], {
    description: 'Messages the service wrote itself (for example about a failed order) appear as staff',
  }),
  message: Type.String(),
  createdAt: IsoDate,
});

export const CustomerTicketSchema = Type.Object(
  {
    id: Type.String(),
    subject: Type.String(),
    category: Type.String(),
    status: TicketStatusSchema,
    orderId: Nullable(Type.String({ description: 'The order a ticket opened by the service is about' })),
    createdAt: IsoDate,
    updatedAt: IsoDate,
    messages: Type.Array(CustomerMessageSchema, { description: 'Oldest first' }),
  },
  { title: 'SupportTicket' },
);

const TicketEnvelope = Type.Object({ ticket: CustomerTicketSchema });

/** Last activity first (updated_at, id); unpaged without limit/cursor (specification §4.5). */
const ticketList = defineList<TicketView>({
  list: 'mobile.support.tickets',
  key: ['date', 'string'],
  keyOf: (t) => [t.updatedAt, t.id],
});

export function toCustomerTicket(ticket: TicketView) {
  return {
    id: ticket.id,
    subject: ticket.subject,
    category: ticket.category,
    status: ticket.status,
    orderId: ticket.orderId,
    createdAt: ticket.createdAt.toISOString(),
    updatedAt: ticket.updatedAt.toISOString(),
    messages: ticket.messages.map((m) => ({
      id: m.id,
      author: m.author === 'customer' ? ('customer' as const) : ('staff' as const),
      message: m.message,
      createdAt: m.createdAt.toISOString(),
    })),
  };
}

/** `/support/tickets`: the caller's support tickets and their threads (specification §4.5). */
export async function supportRoutes(
  app: FastifyInstance,
  { limits }: { limits: AccountLimits },
): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { support, config } = app.container;
  const abuse = config.abuseLimits;

  r.get(
    '/support/tickets',
    {
      schema: {
        operationId: 'listTickets',
        tags: ['Support'],
        summary: 'List my tickets',
        description:
          'The caller’s tickets, most recent activity first, each with its full thread (oldest first). ' +
          'Every ticket without `limit` and `cursor`; with them one page, the next in the `Link` header and ' +
          '`nextCursor`. A ticket with new activity moves to the front, so while paging it may be seen again or not at all.',
        querystring: pageQuery({}),
        response: {
          200: Type.Object({
            tickets: Type.Array(CustomerTicketSchema),
            nextCursor: Type.Optional(NextCursorSchema),
          }),
          ...mobileErrors(401),
        },
      },
    },
    async (request, reply) => {
      const accountId = request.auth!.account.id;
      const page = ticketList.plan([accountId], request.query);
      const rows = await support.listForAccount(accountId, { limit: page.take, after: page.after });
      const { items, nextCursor } = page.finish(request, reply, rows);
      return { tickets: items.map(toCustomerTicket), ...(page.paged ? { nextCursor } : {}) };
    },
  );

  r.post(
    '/support/tickets',
    {
      config: { freeText: ['message'] },
      preHandler: limits.ticket,
      schema: {
        operationId: 'createTicket',
        tags: ['Support'],
        summary: 'Open a ticket',
        description: `Creates an OPEN ticket whose thread starts with \`message\`. At most ${abuse.ticketsPerDay} new tickets per account per day: 429 RATE_LIMITED with Retry-After.`,
        body: Type.Object({
          subject: Type.String({ minLength: 1, maxLength: 200, pattern: NOT_BLANK }),
          category: Type.Optional(TicketCategorySchema),
          message: TicketMessageBody,
        }),
        response: { 201: TicketEnvelope, ...mobileErrors(401, 429) },
      },
    },
    async (request, reply) => {
      const category = request.body.category?.trim();
      if (category === '') {
        throw new AppError('VALIDATION_ERROR', 'category must not be blank', {
          field: 'category',
          issues: [{ field: 'category', message: 'must not be blank' }],
        });
      }
      const ticket = await support.create(request.auth!.account.id, { ...request.body, category });
      return reply.code(201).send({ ticket: toCustomerTicket(ticket) });
    },
  );

  r.post(
    '/support/tickets/:id/messages',
    {
      config: { freeText: ['message'] },
      preHandler: limits.ticketMessage,
      schema: {
        operationId: 'replyToTicket',
        tags: ['Support'],
        summary: 'Reply to my ticket',
        description: `Adds the caller’s message. The ticket is OPEN afterwards: an ANSWERED, RESOLVED or CLOSED ticket is reopened. At most ${abuse.ticketMessagesPerHour} messages per account per hour: 429 RATE_LIMITED with Retry-After.`,
        params: Type.Object({ id: Type.String({ maxLength: 100 }) }),
        body: Type.Object({ message: TicketMessageBody }),
        response: { 201: TicketEnvelope, ...mobileErrors(401, 404, 429) },
      },
    },
    async (request, reply) => {
      const ticket = await support.customerReply(
        request.auth!.account.id,
        request.params.id,
        request.body.message,
      );
      return reply.code(201).send({ ticket: toCustomerTicket(ticket) });
    },
  );
}
