import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { MailRecord } from '../../domain/mail/mailer.js';
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
          'Every message of the outbox, newest first (the newest 100 without `limit` and `cursor`; with them one page, the next in the `Link` header and `nextCursor`); `to` filters by recipient.',
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
      return {
        ...(page.paged ? { nextCursor } : {}),
        messages: items.map((m) => ({
          id: m.id,
          to: m.to,
          subject: m.subject,
          text: m.text,
          html: m.html,
          attachments: m.attachments ?? [],
          status: m.status,
          createdAt: m.createdAt.toISOString(),
        })),
      };
    },
  );
}
