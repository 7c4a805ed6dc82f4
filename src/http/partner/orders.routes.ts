import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../domain/errors.js';
import type { IdempotencyRouteOptions } from '../shared/idempotency.js';
import {
  PartnerOrderSchema,
  PartnerOrderSummarySchema,
  presentPartnerOrder,
  presentPartnerOrderSummary,
} from '../shared/order-presenters.js';
import type { OrderRow } from '../../domain/orders/orders.service.js';
import { defineList, NextCursorSchema, pageQuery } from '../shared/pagination.js';
import { errorResponse, orderExamples, partnerCommonErrors } from './openapi-examples.js';

export const IDEMPOTENCY_SCOPE = 'partner.orders';
/** Test-mode keys have their own key space: the same Idempotency-Key in live and test never meets. */
export const TEST_IDEMPOTENCY_SCOPE = 'partner.orders.test';
/** Cancels have their own key spaces, per mode. */
const CANCEL_SCOPE = 'partner.orders.cancel';
const TEST_CANCEL_SCOPE = 'partner.orders.cancel.test';

const CreateOrderBody = Type.Object(
  {
    planId: Type.String({ minLength: 1, maxLength: 128, description: 'A plan id from GET /destinations' }),
    quantity: Type.Integer({ minimum: 1, maximum: 10, description: 'Number of eSIMs, 1 to 10' }),
    iccid: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 32,
        description:
          'Top-up plans only (and then required): the ICCID of your eSIM to top up; quantity must be 1',
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ planId: 'plan_tr_1gb_7d', quantity: 1 }],
  },
);

const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      description:
        'Optional. The same key with the same body within 24 h returns the first response again ' +
        '(status and body) without a second charge; with another body → 409 IDEMPOTENCY_KEY_REUSED.',
    }),
  ),
});

const ListQuery = pageQuery({
  startingAfter: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      description:
        'Older form of the cursor: the id of the last order of the previous page (not together with `cursor`). Unknown id → 400 VALIDATION_ERROR',
    }),
  ),
});

/** Newest first on orders_account_list_idx; pages of 25 by default (specification §4.6). */
const partnerOrderList = defineList<OrderRow>({
  list: 'partner.orders',
  key: ['date', 'string'],
  keyOf: (o) => [o.createdAt, o.id],
  unpagedLimit: 25,
});

const OrderIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

const OrderListSchema = Type.Object(
  {
    orders: Type.Array(PartnerOrderSummarySchema),
    hasMore: Type.Boolean({
      description: 'True when another page follows (its address is in the Link header and nextCursor)',
    }),
    nextCursor: Type.Optional(NextCursorSchema),
  },
  { title: 'PartnerOrderList', examples: [orderExamples.list] },
);

/** Partner orders: synchronous wallet-paid purchase, list with cursor, detail with live usage. */
export async function ordersRoutes(app: FastifyInstance): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const { orders, orderCancels, config } = app.container;
  const baseUrl = config.publicBaseUrl;

  /** Idempotency-Key: per account and mode; a dead first attempt's order is answered, never re-placed. */
  const idempotency: IdempotencyRouteOptions = {
    scope: (request) => (request.livemode ? IDEMPOTENCY_SCOPE : TEST_IDEMPOTENCY_SCOPE),
    principal: (request) => request.partner!.id,
    async recover(request, bound) {
      const { order, esims } = await orders.getOrder(
        request.partner!.id,
        String(bound.orderId),
        request.livemode,
        'partner',
      );
      if (order.status === 'COMPLETED')
        return { statusCode: 201, body: presentPartnerOrder(order, esims, baseUrl) };
      throw new AppError(
        'FULFILLMENT_FAILED',
        'The first request with this Idempotency-Key placed and charged the order but did not finish; it is retried automatically. Do not pay again.',
        { orderId: order.id },
      );
    },
  };

  typed.post(
    '/orders',
    {
      config: { idempotency },
      schema: {
        operationId: 'createOrder',
        tags: ['Orders'],
        summary: 'Place an order',
        description:
          'Charges the wallet and issues the eSIMs within the request: 201 carries the activation data. ' +
          'On 502 FULFILLMENT_FAILED the wallet was charged once, support is notified and the order stays ' +
          'PROCESSING while it is retried in the background (it then becomes COMPLETED, or REFUNDED to the ' +
          'wallet when retries run out): poll GET /orders/{id}, never pay again. Spends the order budget ' +
          '(30/min by default).',
        headers: IdempotencyHeaders,
        body: CreateOrderBody,
        response: {
          201: { ...PartnerOrderSchema, description: 'Order COMPLETED', examples: [orderExamples.created] },
          400: errorResponse(
            'Invalid input: quantity not an integer 1–10, planId missing, iccid rules of top-up plans',
            'VALIDATION_ERROR',
          ),
          402: errorResponse(
            'Wallet balance below the order amount; nothing was charged',
            'INSUFFICIENT_BALANCE',
          ),
          404: errorResponse('planId unknown or no longer sold', 'PLAN_NOT_FOUND'),
          409: errorResponse(
            'Idempotency-Key already used with another body (or its first request is still running after 30 s)',
            'IDEMPOTENCY_KEY_REUSED',
            'IDEMPOTENCY_KEY_IN_USE',
          ),
          502: errorResponse(
            'Charged, but the provider did not issue the eSIM yet; details.orderId',
            'FULFILLMENT_FAILED',
          ),
          ...partnerCommonErrors,
        },
      },
    },
    async (request, reply) => {
      const held = request.idempotency;
      const placed = await orders.placeOrder({
        accountId: request.partner!.id,
        channel: 'partner',
        planId: request.body.planId,
        quantity: request.body.quantity,
        topUpIccid: request.body.iccid,
        paymentMethod: 'wallet',
        livemode: request.livemode,
        idempotency: held ? { claim: held.claim } : undefined,
        // Read with the key (no query of its own): the benchmarked path stays one statement.
        priceRule: request.partner!.priceRule,
      });
      return reply.code(201).send(presentPartnerOrder(placed.order, placed.esims, baseUrl));
    },
  );

  typed.get(
    '/orders',
    {
      schema: {
        operationId: 'listOrders',
        tags: ['Orders'],
        summary: 'List orders',
        description:
          'Newest first, without eSIM data, in pages of `limit` (default 25, max 100). The next page is in the ' +
          '`Link` header and `nextCursor` (pass it as `cursor`); `startingAfter=<last id>` still works.',
        querystring: ListQuery,
        response: {
          200: OrderListSchema,
          400: errorResponse(
            'limit outside 1–100, a cursor that is not one of this list, or startingAfter is not one of your orders',
            'VALIDATION_ERROR',
          ),
          ...partnerCommonErrors,
        },
      },
    },
    async (request, reply) => {
      const { startingAfter, cursor } = request.query;
      if (startingAfter !== undefined && cursor !== undefined)
        throw new AppError('VALIDATION_ERROR', 'Send either cursor or startingAfter, not both', {
          field: 'cursor',
        });
      const accountId = request.partner!.id;
      // A test key's cursor is refused by the live list and the reverse.
      const page = partnerOrderList.plan([accountId, request.livemode], request.query);
      const { orders: rows } = await orders.listOrders(accountId, {
        limit: page.take,
        after: page.after,
        startingAfter,
        livemode: request.livemode,
        channel: 'partner',
      });
      const { items, nextCursor } = page.finish(request, reply, rows);
      return {
        orders: items.map(presentPartnerOrderSummary),
        hasMore: nextCursor !== null,
        // Present when the request was paged (limit or cursor): the answer without them is unchanged.
        ...(page.paged ? { nextCursor } : {}),
      };
    },
  );

  typed.get(
    '/orders/:id',
    {
      schema: {
        operationId: 'getOrder',
        tags: ['Orders'],
        summary: 'Get an order',
        description:
          'The order with each eSIM’s activation data and usage (dataUsageMb, totalVolumeMb) read from the ' +
          'provider, reused for USAGE_CACHE_SECONDS (default 60).',
        params: OrderIdParams,
        response: {
          200: { ...PartnerOrderSchema, examples: [orderExamples.detail] },
          404: errorResponse('No order with this id belongs to your account', 'ORDER_NOT_FOUND'),
          ...partnerCommonErrors,
        },
      },
    },
    async (request) => {
      const { order, esims } = await orders.getOrder(
        request.partner!.id,
        request.params.id,
        request.livemode,
        // The account's web orders (checkout) are not the Partner API's to show.
        'partner',
      );
      return presentPartnerOrder(order, await orders.refreshUsage(esims), baseUrl, true);
    },
  );

  typed.post(
    '/orders/:id/cancel',
    {
      config: {
        idempotency: {
          scope: (request) => (request.livemode ? CANCEL_SCOPE : TEST_CANCEL_SCOPE),
          principal: (request) => request.partner!.id,
          // No body: the key names one order's cancel (the same key for another order → REUSED).
          fingerprint: (request) => ({ orderId: (request.params as { id: string }).id }),
        },
      },
      schema: {
        operationId: 'cancelOrder',
        tags: ['Orders'],
        summary: 'Cancel an unused order and refund it to the wallet',
        description:
          'Allowed while every eSIM of the order was never installed and used no data (asked of the eSIM ' +
          `provider now) and the order is at most ${config.selfRefunds.windowDays} days old (REFUND_WINDOW_DAYS), ` +
          `at most ${config.selfRefunds.per30Days} times per account and mode in 30 days (SELF_REFUNDS_PER_30_DAYS). ` +
          'The eSIMs are cancelled at the provider (status CANCELLED), the order becomes REFUNDED, the whole ' +
          'amount returns to the wallet in one ledger transaction, and order.refunded fires. A test key cancels ' +
          'test orders through the sandbox, to the test wallet. A repeat of a finished cancel answers the ' +
          'refunded order. Optional Idempotency-Key.',
        headers: IdempotencyHeaders,
        params: OrderIdParams,
        response: {
          200: { ...PartnerOrderSchema, description: 'Order REFUNDED', examples: [orderExamples.cancelled] },
          404: errorResponse('No order with this id belongs to your account', 'ORDER_NOT_FOUND'),
          409: errorResponse(
            'Not cancellable: details.supportEmail and details.supportUrl say how to ask support',
            'ESIM_INSTALLED',
            'ESIM_USED',
            'REFUND_WINDOW_PASSED',
            'SELF_REFUND_LIMIT',
            'ORDER_NOT_CANCELLABLE',
            'IDEMPOTENCY_KEY_REUSED',
          ),
          502: errorResponse(
            'The eSIM provider could not be asked; nothing changed, try again',
            'PROVIDER_ERROR',
          ),
          503: errorResponse(
            'The provider did not confirm the cancellation yet; it finishes in the background (poll GET /orders/{id})',
            'CANCELLATION_PENDING',
          ),
          ...partnerCommonErrors,
        },
      },
    },
    async (request) => {
      const { order, esims } = await orderCancels.cancel({
        accountId: request.partner!.id,
        orderId: request.params.id,
        livemode: request.livemode,
        channel: 'partner',
        requestId: request.id,
      });
      return presentPartnerOrder(order, esims, baseUrl);
    },
  );
}
