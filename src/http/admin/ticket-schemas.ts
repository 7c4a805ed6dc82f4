import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { AdminTicketView } from '../../domain/support/support.service.js';
import { TicketStatusSchema } from '../mobile/support.routes.js';
import { IsoDate, Nullable } from '../shared/schemas.js';
import { TOKEN_OPERATOR } from './operator-auth.js';

export const OperatorRefSchema = Type.Object(
  { id: Type.String(), email: Type.String(), name: Type.String() },
  { title: 'OperatorRef', description: 'A console operator' },
);

const StaffMessageSchema = Type.Object(
  {
    id: Type.String(),
    author: Type.Union([Type.Literal('customer'), Type.Literal('staff'), Type.Literal('system')]),
    message: Type.String(),
    internal: Type.Boolean({
      description:
        'An internal note: operators only. The customer never sees it (app, guest link, mail, push, data export)',
    }),
    operator: Nullable({
      ...OperatorRefSchema,
      description:
        'Who wrote a staff reply or note; null for the customer, the system, the admin token and older replies',
    }),
    createdAt: IsoDate,
  },
  { title: 'AdminTicketMessage' },
);

export const AdminTicketSchema = Type.Object(
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
    assignee: Nullable({
      ...OperatorRefSchema,
      description: 'The operator who owns the ticket in the inbox; null when unassigned',
    }),
    createdAt: IsoDate,
    updatedAt: IsoDate,
    messages: Type.Array(StaffMessageSchema, {
      description: 'Oldest first, internal notes included (`internal: true`)',
    }),
  },
  { title: 'AdminTicket' },
);

export const TicketEnvelope = Type.Object({ ticket: AdminTicketSchema });
export const TicketParams = Type.Object({ id: Type.String({ maxLength: 100 }) });

export function toAdminTicket(ticket: AdminTicketView) {
  return {
    ...ticket,
    createdAt: ticket.createdAt.toISOString(),
    updatedAt: ticket.updatedAt.toISOString(),
    messages: ticket.messages.map((m) => ({ ...m, createdAt: m.createdAt.toISOString() })),
  };
}

/** The console operator of a request; null for the admin token, which is nobody in particular. */
export function operatorIdOf(request: FastifyRequest): string | null {
  const operator = request.operator;
  return operator && operator !== TOKEN_OPERATOR ? operator.id : null;
}
