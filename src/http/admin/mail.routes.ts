import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { MailRecord } from '../../domain/mail/mailer.js';
import { hasSecrets, redactSecrets } from '../../domain/mail/redact.js';
import { revealsSecrets } from './operator-auth.js';
import { defineList, NextCursorSchema, pageQuery } from '../shared/pagination.js';
import { adminErrors, IsoDate, Nullable } from '../shared/schemas.js';

const MailMessageSchema = Type.Object(
  {
    id: Type.String(),
    to: Type.String(),
    subject: Type.String(),
    text: Type.String(),
    html: Nullable(Type.String()),
    attachments: Type.Array(
      Type.Object({
        filename: Type.String(),
        contentType: Type.String(),
        cid: Nullable(Type.String({ description: 'Content-ID of an inline image (`<img src="cid:…">`)' })),
        size: Type.Integer({ description: 'Bytes' }),
      }),
      { description: 'Attachments sent with the message (metadata; the bytes are not kept)' },
    ),
    status: Type.Union([Type.Literal('recorded'), Type.Literal('sent'), Type.Literal('failed')], {
      description: 'recorded (outbox only), sent (delivered by SMTP) or failed',
    }),
    error: Nullable(Type.String({ description: 'Why the SMTP delivery failed' })),
    sentAt: Nullable(IsoDate),
    redacted: Type.Boolean({
      description:
        'true: `text` and `html` carry credentials (sign-in, reset, enrolment, install or ticket links and codes), shown as [redacted] because the caller lacks `secrets.read`',
    }),
    createdAt: IsoDate,
  },
  { title: 'MailMessage' },
);

/** Newest first (created_at, id) on mail_outbox_list_idx / mail_outbox_to_list_idx. */
const mailList = defineList<MailRecord>({
  list: 'admin.mail',
  key: ['date', 'string'],
  keyOf: (m) => [m.createdAt, m.id],
  unpagedLimit: 100,
});

/** GET /mail?to= (decisions §6): what the service sent or would have sent, newest first. */
export async function adminMailRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { mailer } = app.container;

  r.get(
    '/mail',
    {
      config: { operatorPermission: 'read' },
      schema: {
        operationId: 'listMail',
        tags: ['Mail'],
        summary: 'Recorded mail',
        description:
          'Every message of the outbox, newest first (the newest 100 without `limit` and `cursor`; with them one page, the next in the `Link` header and `nextCursor`); `to` filters by recipient. ' +
          'Without `secrets.read` (every role but Owner; the admin token has it) every token-like run in `text` and `html` (20+ URL-safe characters that look random: the links and codes of password resets, operator enrolments, partner invitations, guest tickets, eSIM installs) is replaced by `[redacted]` and `redacted` is true.',
        querystring: pageQuery({ to: Type.Optional(Type.String({ maxLength: 320 })) }),
        response: {
          200: Type.Object({
            messages: Type.Array(MailMessageSchema),
            nextCursor: Type.Optional(NextCursorSchema),
          }),
          ...adminErrors(),
        },
      },
    },
    async (request, reply) => {
      const to = request.query.to?.trim().toLowerCase() || undefined;
      const page = mailList.plan([to], request.query);
      const rows = await mailer.list({ to, limit: page.take, after: page.after });
      const { items, nextCursor } = page.finish(request, reply, rows);
      const reveal = revealsSecrets(request);
      return {
        ...(page.paged ? { nextCursor } : {}),
        messages: items.map((m) => {
          const redacted = !reveal && (hasSecrets(m.text) || (m.html !== null && hasSecrets(m.html)));
          return {
            id: m.id,
            to: m.to,
            subject: m.subject,
            text: redacted ? redactSecrets(m.text) : m.text,
            html: redacted && m.html !== null ? redactSecrets(m.html) : m.html,
            attachments: m.attachments ?? [],
            status: m.status,
            error: m.error,
            sentAt: m.sentAt?.toISOString() ?? null,
            redacted,
            createdAt: m.createdAt.toISOString(),
          };
        }),
      };
    },
  );
}
