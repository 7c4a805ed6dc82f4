import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { PushRecord } from '../../domain/push/push-messages.js';
import { defineList, NextCursorSchema, pageQuery } from '../shared/pagination.js';
import { adminErrors, IsoDate, Nullable, PushResultSchema } from '../shared/schemas.js';

const PushMessageSchema = Type.Object(
  {
    id: Type.String(),
    accountId: Type.String(),
    deviceId: Type.String({
      description: 'The device it went to (kept after a gone token removed the device)',
    }),
    platform: Type.Union([Type.Literal('IOS'), Type.Literal('ANDROID'), Type.Literal('WEB')]),
    title: Type.String(),
    body: Type.String(),
    data: Type.Record(Type.String(), Type.String()),
    result: PushResultSchema,
    error: Nullable(Type.String({ description: 'The push service’s last refusal or failure' })),
    attempts: Type.Integer(),
    createdAt: IsoDate,
    sentAt: Nullable(IsoDate),
  },
  { title: 'PushMessage' },
);

/** Newest first (created_at, id) on push_messages_list_idx / push_messages_account_list_idx. */
const pushList = defineList<PushRecord>({
  list: 'admin.push',
  key: ['date', 'string'],
  keyOf: (m) => [m.createdAt, m.id],
  unpagedLimit: 100,
});

/** GET /push?accountId=: every push the service sent or would have sent, like GET /mail. */
export async function adminPushRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { push } = app.container;

  r.get(
    '/push',
    {
      config: { operatorPermission: 'read' },
      schema: {
        operationId: 'listPush',
        tags: ['Push'],
        summary: 'Recorded pushes',
        description:
          'Every push, one per device, newest first (the newest 100 without `limit` and `cursor`; with them one page, the next in the `Link` header and `nextCursor`); `accountId` filters by account. Tokens are never shown.',
        querystring: pageQuery({ accountId: Type.Optional(Type.String({ maxLength: 100 })) }),
        response: {
          200: Type.Object({
            pushes: Type.Array(PushMessageSchema),
            nextCursor: Type.Optional(NextCursorSchema),
          }),
          ...adminErrors(),
        },
      },
    },
    async (request, reply) => {
      const accountId = request.query.accountId?.trim() || undefined;
      const page = pushList.plan([accountId], request.query);
      const rows = await push.list({ accountId, limit: page.take, after: page.after });
      const { items, nextCursor } = page.finish(request, reply, rows);
      return {
        ...(page.paged ? { nextCursor } : {}),
        pushes: items.map((m) => ({
          id: m.id,
          accountId: m.accountId,
          deviceId: m.deviceId,
          platform: m.platform,
          title: m.title,
          body: m.body,
          data: m.data,
          result: m.status,
          error: m.error,
          attempts: m.attempts,
          createdAt: m.createdAt.toISOString(),
          sentAt: m.sentAt?.toISOString() ?? null,
        })),
      };
    },
  );
}
