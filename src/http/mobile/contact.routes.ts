import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { EMAIL_MAX_LENGTH, normalizeEmail, normalizeName } from '../../domain/accounts/normalize.js';
import type { TicketView } from '../../domain/support/support.service.js';
import { HOUR } from '../../lib/clock.js';
import { sha256Hex } from '../../lib/crypto.js';
import { preferredLang } from '../shared/messages.js';
import { createRateLimitGuard } from '../shared/rate-limit.js';
import { IsoDate, mobileErrors } from '../shared/schemas.js';
import { TicketMessageBody, TicketStatusSchema } from './support.routes.js';

/** At least one non-space character, as on the customer's own tickets. */
const NOT_BLANK = '\\S';

/** The guest's link token: 32 random bytes, base64url (src/lib/crypto.ts randomToken). */
const TokenParams = Type.Object({
  token: Type.String({ minLength: 16, maxLength: 100, pattern: '^[A-Za-z0-9_-]+$' }),
});

const GuestTicketSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String({ description: 'The name the guest gave' }),
    subject: Type.String(),
    status: TicketStatusSchema,
    createdAt: IsoDate,
    updatedAt: IsoDate,
    messages: Type.Array(
      Type.Object({
        id: Type.String(),
        author: Type.Union([Type.Literal('customer'), Type.Literal('staff')]),
        message: Type.String(),
        createdAt: IsoDate,
      }),
      { description: 'Oldest first' },
    ),
  },
  { title: 'GuestTicket' },
);

const ContactReceiptSchema = Type.Object(
  {
    id: Type.String(),
    subject: Type.String(),
    status: TicketStatusSchema,
    createdAt: IsoDate,
  },
  { title: 'ContactReceipt' },
);

function toGuestTicket(ticket: TicketView) {
  return {
    id: ticket.id,
    name: ticket.guest?.name ?? '',
    subject: ticket.subject,
    status: ticket.status,
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

function bodyEmail(request: FastifyRequest): string | undefined {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? email.trim().toLowerCase() : undefined;
}

/**
 * The contact form and the guest's thread (issue 30 T3): support for people without an account.
 * `POST /support/contact` opens a guest ticket; the operator's reply is mailed with a link to
 * `/support/guest/<token>`, which reads the thread and takes the guest's answer. The token is
 * the only credential, so it is never logged (src/lib/log-redaction.ts) and responses about it
 * are not stored by caches (src/http/shared/security.ts).
 */
export async function contactRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { support, config } = app.container;
  const { contactPerEmailPerHour, contactPerIpPerHour, ticketMessagesPerHour } = config.abuseLimits;
  // Anyone can post the form, and each ticket lands in the team's queue and mailbox: an address
  // cannot be flooded from many IPs, nor the queue from one IP with many addresses.
  const contactGuard = await createRateLimitGuard(app, [
    { name: 'contact:email', max: contactPerEmailPerHour, windowMs: HOUR, key: bodyEmail },
    { name: 'contact:ip', max: contactPerIpPerHour, windowMs: HOUR, key: (request) => request.ip },
  ]);
  // Per thread, as a customer's messages are per account; keyed by the token's hash so that no
  // counter (Redis keys included) holds the token itself.
  const guestMessageGuard = await createRateLimitGuard(app, [
    {
      name: 'ticket-message:guest',
      max: ticketMessagesPerHour,
      windowMs: HOUR,
      key: (request) => sha256Hex((request.params as { token: string }).token),
    },
  ]);

  r.post(
    '/support/contact',
    {
      config: { auth: 'none', freeText: ['message'] },
      preHandler: contactGuard,
      schema: {
        operationId: 'contactSupport',
        tags: ['Support'],
        summary: 'Write to support without an account',
        description: `The contact form: opens a support ticket for a guest (no session needed) in the language of Accept-Language. The reply comes by e-mail to \`email\`, with a link to the thread where the guest can answer. At most ${contactPerEmailPerHour} per address and ${contactPerIpPerHour} per client IP per hour: 429 RATE_LIMITED with Retry-After.`,
        body: Type.Object({
          email: Type.String({ maxLength: EMAIL_MAX_LENGTH, description: 'Trimmed and lower-cased' }),
          name: Type.String({ minLength: 1, maxLength: 100, description: 'Trimmed; 1 to 100 characters' }),
          subject: Type.String({ minLength: 1, maxLength: 200, pattern: NOT_BLANK }),
          message: TicketMessageBody,
        }),
        response: { 201: Type.Object({ ticket: ContactReceiptSchema }), ...mobileErrors(429) },
      },
    },
    async (request, reply) => {
      const ticket = await support.createGuest({
        email: normalizeEmail(request.body.email),
        name: normalizeName(request.body.name, 'name'),
        locale: preferredLang(request.headers['accept-language']),
        subject: request.body.subject,
        message: request.body.message,
      });
      return reply.code(201).send({
        ticket: {
          id: ticket.id,
          subject: ticket.subject,
          status: ticket.status,
          createdAt: ticket.createdAt.toISOString(),
        },
      });
    },
  );

  r.get(
    '/support/guest/:token',
    {
      config: { auth: 'none' },
      schema: {
        operationId: 'getGuestTicket',
        tags: ['Support'],
        summary: 'Read a guest thread',
        description:
          'The thread behind the link of a staff reply mail. Each staff reply mails a new link and the earlier one stops working: an unknown or replaced token answers 404 TICKET_NOT_FOUND.',
        params: TokenParams,
        response: { 200: Type.Object({ ticket: GuestTicketSchema }), ...mobileErrors(404) },
      },
    },
    async (request) => ({ ticket: toGuestTicket(await support.guestThread(request.params.token)) }),
  );

  r.post(
    '/support/guest/:token/messages',
    {
      config: { auth: 'none', freeText: ['message'] },
      preHandler: guestMessageGuard,
      schema: {
        operationId: 'replyToGuestTicket',
        tags: ['Support'],
        summary: 'Answer in a guest thread',
        description: `Adds the guest’s message; the ticket is OPEN afterwards. At most ${ticketMessagesPerHour} messages per thread per hour: 429 RATE_LIMITED with Retry-After.`,
        params: TokenParams,
        body: Type.Object({ message: TicketMessageBody }),
        response: { 201: Type.Object({ ticket: GuestTicketSchema }), ...mobileErrors(404, 429) },
      },
    },
    async (request, reply) => {
      const ticket = await support.guestReply(request.params.token, request.body.message);
      return reply.code(201).send({ ticket: toGuestTicket(ticket) });
    },
  );
}
