import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
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

/** GET /mail?to= (decisions §6): what the service sent or would have sent, newest first. */
export async function adminMailRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { mailer } = app.container;

  r.get(
    '/mail',
    {
      schema: {
        tags: ['Admin: mail'],
        summary: 'Recorded mail',
        description: 'Every message of the outbox, newest first (at most 100); `to` filters by recipient.',
        querystring: Type.Object({ to: Type.Optional(Type.String({ maxLength: 320 })) }),
        response: { 200: Type.Object({ messages: Type.Array(MailMessageSchema) }), ...adminErrors() },
      },
    },
    async (request) => {
      const rows = await mailer.list(request.query.to ? { to: request.query.to } : {});
      return {
        messages: rows.map((m) => ({
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
