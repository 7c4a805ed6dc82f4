import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { REDACTED } from '../../domain/mail/redact.js';
import type { AdminOrderView } from '../../domain/orders/order-admin.js';
import { centsToUsd } from '../../lib/money.js';
import { MobileEsimSchema, presentMobileEsim } from '../shared/order-presenters.js';
import { adminErrors, IsoDate, Nullable } from '../shared/schemas.js';
import { revealsSecrets } from './operator-auth.js';

const AttemptSchema = Type.Object({
  attempt: Type.Integer(),
  outcome: Type.Union([Type.Literal('success'), Type.Literal('failure')]),
  source: Type.String({ description: 'request | job | admin' }),
  error: Nullable(Type.String()),
  createdAt: IsoDate,
});

const AdminOrderSchema = Type.Object(
  {
    id: Type.String(),
    orderNumber: Type.String(),
    accountId: Type.String(),
    channel: Type.String(),
    status: Type.String(),
    planId: Type.String(),
    quantity: Type.Integer(),
    topUpIccid: Nullable(Type.String()),
    amountUsd: Type.Number(),
    currency: Type.String(),
    paymentMethod: Type.String(),
    paymentId: Nullable(Type.String()),
    fulfillmentAttempts: Type.Integer(),
    lastError: Nullable(Type.String()),
    supportNotifiedAt: Nullable(IsoDate),
    createdAt: IsoDate,
    updatedAt: IsoDate,
    completedAt: Nullable(IsoDate),
    livemode: Type.Boolean({ description: 'false: a test-mode order (sandbox, test wallet)' }),
    esims: Type.Array(MobileEsimSchema, {
      description:
        'Without `secrets.read` (every role but Owner) the install credentials (activationCode, matchingId, the QR code and install links) read `[redacted]` and `credentialsRedacted` is true',
    }),
    credentialsRedacted: Type.Boolean({
      description: "true: the eSIMs' install credentials are `[redacted]` for this caller",
    }),
    attempts: Type.Array(AttemptSchema),
  },
  { title: 'AdminOrder' },
);

const OrderEnvelope = Type.Object({ order: AdminOrderSchema });
const iso = (d: Date | null) => d?.toISOString() ?? null;

/** Whoever holds an install code or link can install the eSIM: a credential like a password. */
function withoutCredentials(esim: Static<typeof MobileEsimSchema>): Static<typeof MobileEsimSchema> {
  return {
    ...esim,
    activationCode: REDACTED,
    matchingId: REDACTED,
    qrCodeUrl: REDACTED,
    qrCodeSvgUrl: REDACTED,
    iosInstallUrl: REDACTED,
    installUrl: REDACTED,
  };
}

function presentAdminOrder(
  view: AdminOrderView,
  publicBaseUrl: string,
  planNames: ReadonlyMap<string, string>,
  revealCredentials: boolean,
): Static<typeof AdminOrderSchema> {
  const { order } = view;
  const esims = view.esims.map((e) => presentMobileEsim(e, publicBaseUrl, planNames));
  return {
    id: order.id,
    orderNumber: order.orderNumber,
    accountId: order.accountId,
    channel: order.channel,
    status: order.status,
    planId: order.planId,
    quantity: order.quantity,
    topUpIccid: order.topUpIccid,
    amountUsd: centsToUsd(order.amountCents),
    currency: order.currency,
    paymentMethod: order.paymentMethod,
    paymentId: order.paymentId,
    fulfillmentAttempts: order.fulfillmentAttempts,
    lastError: order.lastError,
    supportNotifiedAt: iso(order.supportNotifiedAt),
    createdAt: order.createdAt.toISOString(),
    updatedAt: order.updatedAt.toISOString(),
    completedAt: iso(order.completedAt),
    livemode: order.livemode,
    esims: revealCredentials ? esims : esims.map(withoutCredentials),
    credentialsRedacted: !revealCredentials && esims.length > 0,
    attempts: view.attempts.map((a) => ({
      attempt: a.attempt,
      outcome: a.outcome,
      source: a.source,
      error: a.error,
      createdAt: a.createdAt.toISOString(),
    })),
  };
}

/** GET /orders/:id, POST /orders/:id/retry, POST /orders/:id/refund (decisions §6). */
export async function adminOrdersRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { orderAdmin, config, catalog } = app.container;
  // Operators read English; the eSIMs of one order share its plan.
  const present = async (request: FastifyRequest, view: AdminOrderView) =>
    presentAdminOrder(
      view,
      config.publicBaseUrl,
      await catalog.planNames([view.order.planId], 'en'),
      revealsSecrets(request),
    );
  const params = Type.Object({ id: Type.String({ maxLength: 100 }) });

  r.get(
    '/orders/:id',
    {
      config: { operatorPermission: 'read' },
      schema: {
        operationId: 'getOrder',
        tags: ['Orders'],
        summary: 'Full order with eSIMs and fulfillment attempts',
        params,
        response: { 200: OrderEnvelope, ...adminErrors(404) },
      },
    },
    async (request) => ({
      order: await present(request, await orderAdmin.view(request.params.id)),
    }),
  );

  r.post(
    '/orders/:id/retry',
    {
      config: { operatorPermission: 'orders.retry' },
      schema: {
        operationId: 'retryOrder',
        tags: ['Orders'],
        summary: 'Run a fulfillment attempt now',
        description:
          'Only PROCESSING orders (else 409 INVALID_STATE). Answers 200 with the order either way; `outcome` says whether this attempt issued the eSIMs. The background retries continue if it failed.',
        params,
        response: {
          200: Type.Object({
            outcome: Type.Union([Type.Literal('success'), Type.Literal('failure')]),
            order: AdminOrderSchema,
          }),
          ...adminErrors(404, 409),
        },
      },
    },
    async (request) => {
      const result = await orderAdmin.retry(request.params.id, request.id);
      return {
        outcome: result.outcome === 'success' ? ('success' as const) : ('failure' as const),
        order: await present(request, result),
      };
    },
  );

  r.post(
    '/orders/:id/refund',
    {
      config: {
        operatorPermission: 'refunds',
        // Keys belong to the operator API (one principal, as for wallet adjustments), so the order
        // is part of the hashed request: the same key for another order is a conflict.
        idempotency: {
          scope: 'admin.order-refunds',
          principal: () => 'admin',
          fingerprint: (request) => ({ orderId: (request.params as { id: string }).id }),
        },
      },
      schema: {
        operationId: 'refundOrder',
        tags: ['Orders'],
        summary: 'Abandon fulfillment and refund the order to the wallet',
        description:
          'Only PROCESSING orders: the amount is credited back (wallet transaction kind refund) and the order becomes REFUNDED, with an audit row (`order.refund`, before and after), in one transaction. A second call, or any other state, → 409 INVALID_STATE. ' +
          'Send an Idempotency-Key to make a retried click safe: the same key for the same order within 24 h answers the first response again (200, not 409); the same key for another order → 409 IDEMPOTENCY_KEY_REUSED.',
        params,
        headers: Type.Object({
          'idempotency-key': Type.Optional(
            Type.String({
              minLength: 1,
              maxLength: 255,
              description: 'Optional; makes a retried refund answer once',
            }),
          ),
        }),
        response: { 200: OrderEnvelope, ...adminErrors(404, 409) },
      },
    },
    async (request) => ({
      order: await present(request, await orderAdmin.refund(request.params.id, request.id)),
    }),
  );
}
