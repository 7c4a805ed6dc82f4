import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../domain/errors.js';
import type { PaymentRecord } from '../../domain/payments/payments.service.js';
import { adminErrors, IsoDate, Nullable } from '../shared/schemas.js';

const RefundTaskSchema = Type.Object(
  {
    paymentId: Type.String(),
    accountId: Type.String({ description: 'The deleted account the payment was made for' }),
    status: Type.String({
      description:
        '`refund_manual`: the provider cannot refund through its API (Cryptomus) or refusing kept failing; refund the payer yourself, then close it (POST /payments/refunds/{id}/close). `refund_pending`: the automatic refund is still being tried. `refunded`: done (only in the answer of the close).',
    }),
    method: Type.String({ description: 'card | crypto' }),
    provider: Type.String(),
    providerRef: Nullable(Type.String({ description: 'Session or invoice id at the provider' })),
    amountMinor: Type.Integer({ minimum: 0 }),
    currency: Type.String(),
    paidAt: Nullable(IsoDate),
    updatedAt: IsoDate,
  },
  { title: 'AdminRefundTask' },
);

function present(p: PaymentRecord): Static<typeof RefundTaskSchema> {
  return {
    paymentId: p.id,
    accountId: p.accountId,
    status: p.status,
    method: p.method,
    provider: p.provider,
    providerRef: p.providerRef,
    amountMinor: p.amountMinor,
    currency: p.currency,
    paidAt: p.paidAt?.toISOString() ?? null,
    updatedAt: p.updatedAt.toISOString(),
  };
}

/** GET /payments/refunds: money paid for deleted accounts that is not yet back with the payer. */
export async function adminPaymentsRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { paymentRefunds } = app.container;
  r.get(
    '/payments/refunds',
    {
      config: { operatorPermission: 'read' },
      schema: {
        operationId: 'listPendingRefunds',
        tags: ['Payments'],
        summary: 'Refunds an operator must make',
        description:
          'Payments that settled after their account was deleted are never credited to the dead wallet: the provider refunds them. Listed here, newest first (at most 100), are those it could not refund (`refund_manual`, an operator task) and those still being tried (`refund_pending`).',
        response: { 200: Type.Object({ refunds: Type.Array(RefundTaskSchema) }), ...adminErrors() },
      },
    },
    async () => ({ refunds: (await paymentRefunds.listTasks()).map(present) }),
  );

  r.post(
    '/payments/refunds/:id/close',
    {
      config: { operatorPermission: 'refunds', freeText: ['note'] },
      schema: {
        operationId: 'closeManualRefund',
        tags: ['Payments'],
        summary: 'Mark a manual refund as done',
        description:
          'After paying a `refund_manual` payment back by hand (the provider’s dashboard, a bank transfer), record it: the payment becomes `refunded` and leaves GET /payments/refunds; the note (what was done, a reference) is kept on the payment and in the audit row (`payment.refund.close`, before and after). Any other status → 409 INVALID_STATE (a `refund_pending` refund is still being tried by the service); an unknown id → 404.',
        params: Type.Object({ id: Type.String({ maxLength: 100 }) }),
        body: Type.Object({
          note: Type.String({
            minLength: 1,
            maxLength: 500,
            description: 'How the payer was refunded, e.g. the transfer or provider reference',
          }),
        }),
        response: { 200: Type.Object({ refund: RefundTaskSchema }), ...adminErrors(404, 409) },
      },
    },
    async (request) => {
      const note = request.body.note.trim();
      if (!note) throw new AppError('VALIDATION_ERROR', 'note must not be blank', { field: 'note' });
      return { refund: present(await paymentRefunds.closeManual(request.params.id, note, request.id)) };
    },
  );
}
