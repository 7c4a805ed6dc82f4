import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { TIMELINE_KINDS } from '../../domain/ops/order-timeline.js';
import { adminErrors, IsoDate } from '../shared/schemas.js';
import { revealsSecrets } from './operator-auth.js';

const TimelineItemSchema = Type.Object(
  {
    at: IsoDate,
    kind: Type.Union(
      TIMELINE_KINDS.map((k) => Type.Literal(k)),
      {
        description:
          'order (placed, completed, cancelled), payment (card or crypto checkout), wallet (charge, refund), fulfilment (each provider call), job (the retry job: next run, dead letter), support, operator (an audited action), cancellation (self-service), mail, push, webhook (partner events and each delivery attempt)',
      },
    ),
    title: Type.String(),
    detail: Type.Optional(Type.String({ description: 'Error text, mail body, before → after …' })),
    status: Type.Optional(
      Type.Union(
        [Type.Literal('ok'), Type.Literal('failed'), Type.Literal('pending'), Type.Literal('info')],
        { description: 'ok: it worked; failed: it did not; pending: still to happen; info: a fact' },
      ),
    ),
    actor: Type.Optional(
      Type.String({
        description: 'Who did it, as in the audit log: operator:<id>, token, account:<id>, system',
      }),
    ),
    actorEmail: Type.Optional(Type.String({ description: 'For an operator actor: their e-mail' })),
    actorName: Type.Optional(Type.String({ description: 'For an operator actor: their name' })),
    ref: Type.Optional(Type.String({ description: 'Id of the row it comes from (mail, job, payment …)' })),
    redacted: Type.Optional(
      Type.Literal(true, {
        description: 'The body’s links and codes that carry a credential are replaced by [redacted]',
      }),
    ),
  },
  { title: 'OrderTimelineItem' },
);

/** GET /orders/:id/timeline: the order's story for the console (issue 33 O2). */
export async function adminOrderTimelineRoutes(app: FastifyInstance): Promise<void> {
  const { orderTimeline } = app.container;

  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/orders/:id/timeline',
    {
      config: { operatorPermission: 'read' },
      schema: {
        operationId: 'getOrderTimeline',
        tags: ['Orders'],
        summary: 'What happened to an order, in time order',
        description:
          'Everything stored about the order, oldest first: placed, the checkout and payment, the wallet charge, every provider call (fulfilment attempt) with its error, the retry job (next run, dead letter), support notices, audited operator actions with their actor, completion, cancellation or refund, the mails and pushes about it (to its buyer or the support address within 30 days of its creation), and for Partner API orders the partner events with each webhook delivery attempt. A planned job run (`pending`) may lie in the future. ' +
          'Mail and push bodies are shown with every credential (sign-in, reset, enrolment, install and ticket links and codes) replaced by `[redacted]` unless the caller holds `secrets.read` (Owner, admin token); such items carry `redacted: true`.',
        params: Type.Object({ id: Type.String({ maxLength: 100 }) }),
        response: {
          200: Type.Object({
            timeline: Type.Object({
              orderId: Type.String(),
              orderNumber: Type.String(),
              items: Type.Array(TimelineItemSchema),
            }),
          }),
          ...adminErrors(404),
        },
      },
    },
    async (request) => {
      const timeline = await orderTimeline.get(request.params.id, { revealSecrets: revealsSecrets(request) });
      return {
        timeline: {
          ...timeline,
          items: timeline.items.map((item) => ({ ...item, at: item.at.toISOString() })),
        },
      };
    },
  );
}
