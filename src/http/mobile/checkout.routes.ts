import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../domain/errors.js';
import { MAX_QUANTITY, type PlacedOrder } from '../../domain/orders/orders.service.js';
import type { IdempotencyRouteOptions } from '../shared/idempotency.js';
import { mobileErrors } from '../shared/schemas.js';
import type { AccountLimits } from './account-limits.js';

const RedirectUrl = Type.String({
  minLength: 1,
  maxLength: 2048,
  description: 'Where the payment page sends the browser afterwards; an app/universal link is advised',
});

const CheckoutBody = Type.Object({
  planId: Type.String({ minLength: 1, maxLength: 200 }),
  quantity: Type.Integer({ minimum: 1, maximum: MAX_QUANTITY, default: 1 }),
  paymentMethod: Type.Union([Type.Literal('wallet'), Type.Literal('card'), Type.Literal('crypto')]),
  successUrl: Type.Optional(RedirectUrl),
  cancelUrl: Type.Optional(RedirectUrl),
  iccid: Type.Optional(
    Type.String({
      pattern: '^[0-9]{18,22}F?$',
      description: 'Top-up plans only: the ICCID of your eSIM to top up (quantity must be 1)',
    }),
  ),
});

const CheckoutResponse = Type.Object({
  success: Type.Literal(true),
  orderId: Type.String(),
  orderNumber: Type.String(),
  status: Type.String({ description: 'COMPLETED (wallet) or AWAITING_PAYMENT (card/crypto)' }),
  esimIds: Type.Array(Type.String(), { description: 'wallet: the issued eSIMs (see GET /user/esims)' }),
  url: Type.Optional(Type.String({ description: 'card/crypto: hosted payment page to open in a browser' })),
});

export const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

function checkoutResponse(placed: PlacedOrder): Static<typeof CheckoutResponse> {
  return {
    success: true,
    orderId: placed.order.id,
    orderNumber: placed.order.orderNumber,
    status: placed.order.status,
    esimIds: placed.esims.map((e) => e.id),
    ...(placed.paymentUrl ? { url: placed.paymentUrl } : {}),
  };
}

export async function checkoutRoutes(
  app: FastifyInstance,
  { limits }: { limits: AccountLimits },
): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { orders, payments, config } = app.container;

  /** Idempotency-Key: a dead first attempt's order is answered from its current state, never re-placed. */
  const idempotency: IdempotencyRouteOptions = {
    scope: 'mobile.checkout',
    principal: (request) => request.auth!.account.id,
    keyPattern: IDEMPOTENCY_KEY,
    keyMessage: 'Idempotency-Key must be 1–255 printable ASCII characters',
    async recover(request, bound) {
      const { order, esims } = await orders.getOrder(request.auth!.account.id, String(bound.orderId));
      if (order.status === 'COMPLETED') return { statusCode: 200, body: checkoutResponse({ order, esims }) };
      if (order.status === 'CANCELLED') return null; // never charged: place it again
      if (order.status === 'AWAITING_PAYMENT') {
        const payment = order.paymentId ? await payments.get(order.paymentId) : undefined;
        if (payment?.url)
          return { statusCode: 200, body: checkoutResponse({ order, esims: [], paymentUrl: payment.url }) };
        // The payment page was never made, so nothing can be paid: cancel and place it again.
        await orders.cancelUnpaid(order.id);
        return null;
      }
      throw new AppError(
        'FULFILLMENT_FAILED',
        'The first request with this Idempotency-Key placed and charged the order but did not finish; it is retried automatically. Do not pay again.',
        { orderId: order.id },
      );
    },
  };

  r.post(
    '/checkout',
    {
      config: { idempotency },
      preHandler: limits.paymentSession,
      schema: {
        operationId: 'checkout',
        tags: ['Orders'],
        summary: 'Buy a plan',
        description:
          'wallet: charges the wallet and issues the eSIMs in this request (200 { success, orderId }). ' +
          'card/crypto: creates the order (AWAITING_PAYMENT) and a payment page for exactly its amount ' +
          '(200 { success, orderId, url }); paying moves it to fulfillment, cancelling or 24 h unpaid cancels it. ' +
          'Too little balance → 400 INSUFFICIENT_BALANCE, nothing charged. Provider failure after charging → ' +
          '502 FULFILLMENT_FAILED with orderId (retried automatically; do not pay again). Optional ' +
          'Idempotency-Key header: a repeat with the same key and body within 24 h returns the first response. ' +
          `A card/crypto checkout counts toward the ${config.abuseLimits.paymentSessionsPerHour} payment sessions per account per hour (429 RATE_LIMITED with Retry-After).`,
        headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String({ maxLength: 255 })) }),
        body: CheckoutBody,
        response: { 200: CheckoutResponse, ...mobileErrors(401, 403, 409, 429, 502, 503) },
      },
    },
    async (request) => {
      const held = request.idempotency;
      const body = request.body;
      const placed = await orders.placeOrder({
        accountId: request.auth!.account.id,
        channel: 'mobile',
        planId: body.planId,
        quantity: body.quantity,
        topUpIccid: body.iccid,
        paymentMethod: body.paymentMethod,
        successUrl: body.successUrl,
        cancelUrl: body.cancelUrl,
        idempotency: held ? { claim: held.claim } : undefined,
      });
      return checkoutResponse(placed);
    },
  );
}
