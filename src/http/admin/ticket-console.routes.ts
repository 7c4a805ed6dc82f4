import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { centsToUsd } from '../../lib/money.js';
import { TicketMessageBody } from '../mobile/support.routes.js';
import { adminErrors, IsoDate, Nullable } from '../shared/schemas.js';
import {
  AdminTicketSchema,
  operatorIdOf,
  TicketEnvelope,
  TicketParams,
  toAdminTicket,
} from './ticket-schemas.js';

/** How many of the customer's orders sit beside the thread. */
const ORDERS_BESIDE = 10;

const TicketOrderSchema = Type.Object(
  {
    id: Type.String(),
    orderNumber: Type.String(),
    status: Type.String({ description: 'AWAITING_PAYMENT, PROCESSING, COMPLETED, CANCELLED, REFUNDED' }),
    livemode: Type.Boolean({ description: 'false: a test-mode order' }),
    amountUsd: Type.Number(),
    currency: Type.String(),
    planName: Nullable(Type.String({ description: 'English plan name; null when the plan is gone' })),
    lastError: Nullable(Type.String({ description: 'Why the last fulfillment attempt failed' })),
    createdAt: IsoDate,
  },
  { title: 'TicketOrder', description: 'One of the customer’s latest orders; GET /orders/{id} has the rest' },
);

const TicketDetailSchema = Type.Object(
  {
    ticket: AdminTicketSchema,
    customer: Type.Object(
      {
        accountId: Nullable(
          Type.String({ description: 'The account; for a guest the account with their address, if any' }),
        ),
        email: Type.String(),
        matchedByEmail: Type.Boolean({
          description: 'A guest ticket whose address belongs to an account (found by e-mail)',
        }),
      },
      { title: 'TicketCustomer' },
    ),
    orders: Type.Array(TicketOrderSchema, {
      description: `The customer’s ${ORDERS_BESIDE} latest orders (live and test), newest first; none for a guest without an account`,
    }),
  },
  { title: 'AdminTicketDetail' },
);

/** The console's ticket page (issue 33 O2/O3): one thread with the customer's orders, notes, assignment. */
export async function adminTicketConsoleRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { ticketConsole, orderAdmin, catalog } = app.container;

  r.get(
    '/tickets/:id',
    {
      config: { operatorPermission: 'read' },
      schema: {
        operationId: 'getTicket',
        tags: ['Support'],
        summary: 'One ticket with the customer’s orders',
        description:
          'The ticket, its assignee and its whole thread oldest first: customer, staff and system messages and internal notes (`internal: true`), each staff message with the operator who wrote it. Beside it the customer’s latest orders; for a guest ticket those of the account with the guest’s address, if one exists (`matchedByEmail`).',
        params: TicketParams,
        response: { 200: TicketDetailSchema, ...adminErrors(404) },
      },
    },
    async (request) => {
      const ticket = await ticketConsole.view(request.params.id);
      const customer = await ticketConsole.customerOf(ticket);
      const orders = customer.accountId
        ? await orderAdmin.list({ mode: 'all', accountId: customer.accountId }, { limit: ORDERS_BESIDE })
        : [];
      // Operators read English, as on GET /orders.
      const names = await catalog.planNames(
        orders.map((o) => o.planId),
        'en',
      );
      return {
        ticket: toAdminTicket(ticket),
        customer,
        orders: orders.map((o) => ({
          id: o.id,
          orderNumber: o.orderNumber,
          status: o.status,
          livemode: o.livemode,
          amountUsd: centsToUsd(o.amountCents),
          currency: o.currency,
          planName: names.get(o.planId) ?? null,
          lastError: o.lastError,
          createdAt: o.createdAt.toISOString(),
        })),
      };
    },
  );

  r.post(
    '/tickets/:id/notes',
    {
      config: { operatorPermission: 'tickets.write', freeText: ['message'] },
      schema: {
        operationId: 'addTicketNote',
        tags: ['Support'],
        summary: 'Internal note',
        description:
          'Adds an internal note to the thread, signed by the console operator (none for the admin token). The customer never sees it: not in the app, the guest’s link, a mail, a push or their data export. The ticket’s status and last activity do not change. Audited as `ticket.note` (without its text).',
        params: TicketParams,
        body: Type.Object({ message: TicketMessageBody }),
        response: { 201: TicketEnvelope, ...adminErrors(404) },
      },
    },
    async (request, reply) => {
      const ticket = await ticketConsole.addNote(request.params.id, request.body.message, {
        operatorId: operatorIdOf(request),
        requestId: request.id,
      });
      return reply.code(201).send({ ticket: toAdminTicket(ticket) });
    },
  );

  r.put(
    '/tickets/:id/assignee',
    {
      config: { operatorPermission: 'tickets.write' },
      schema: {
        operationId: 'assignTicket',
        tags: ['Support'],
        summary: 'Assign a ticket',
        description:
          'Gives the ticket to an operator, or to nobody with `operatorId: null`. An unknown operator → 404 NOT_FOUND; a disabled one → 409 INVALID_STATE. Audited as `ticket.assign` with the assignee before and after; assigning the same operator again changes nothing.',
        params: TicketParams,
        body: Type.Object(
          {
            operatorId: Type.Unsafe<string | null>({
              type: ['string', 'null'],
              minLength: 1,
              maxLength: 100,
              description: 'The operator’s id; null unassigns',
            }),
          },
          { additionalProperties: false },
        ),
        response: { 200: TicketEnvelope, ...adminErrors(404, 409) },
      },
    },
    async (request) => ({
      ticket: toAdminTicket(
        await ticketConsole.assign(request.params.id, request.body.operatorId, {
          operatorId: operatorIdOf(request),
          requestId: request.id,
        }),
      ),
    }),
  );
}
