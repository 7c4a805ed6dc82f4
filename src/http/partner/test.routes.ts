import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../domain/errors.js';
import { centsToUsd } from '../../lib/money.js';
import { PartnerEsimSchema, presentPartnerEsim } from '../shared/order-presenters.js';
import { errorResponse, partnerCommonErrors } from './openapi-examples.js';
import { PartnerWalletSchema, presentPartnerWallet } from '../shared/partner-wallet.js';

const forbidden = errorResponse('The request used a live key; test helpers need a test key', 'FORBIDDEN');

const EsimParam = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64, description: 'eSIM id or ICCID' }),
});

const FailNextBody = Type.Object(
  {
    then: Type.Optional(
      Type.Union([Type.Literal('complete'), Type.Literal('refund')], {
        description:
          'complete (default): the first attempt fails (502 FULFILLMENT_FAILED), the background retry ' +
          'completes the order. refund: every attempt fails, the background job refunds the order to ' +
          'the test wallet.',
      }),
    ),
  },
  { additionalProperties: false, examples: [{ then: 'refund' }] },
);

/**
 * Test helpers, `/test/…` (docs/partner-reference.md "Test mode"). Test keys only: a live key gets
 * 403 FORBIDDEN, so no helper can ever act on live money or live eSIMs.
 */
export async function testModeRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { testMode, wallet, config } = app.container;

  app.addHook('onRequest', async (request) => {
    if (request.livemode)
      throw new AppError(
        'FORBIDDEN',
        'Test helpers need a test-mode key (svc_test_sk_…); this request used a live key',
      );
  });

  r.post(
    '/test/wallet/reset',
    {
      schema: {
        operationId: 'resetTestWallet',
        tags: ['Test mode'],
        summary: 'Reset the test wallet',
        description:
          'Sets the test wallet back to 1000.00 USD (one ledger row for the difference). Test orders, ' +
          'eSIMs and the live wallet are untouched.',
        response: { 200: PartnerWalletSchema, 403: forbidden, ...partnerCommonErrors },
      },
    },
    async (request) => {
      const cents = await testMode.resetWallet(request.partner!.id);
      const balances = await wallet.balances(request.partner!.id);
      return { ...presentPartnerWallet(balances, false), balanceUsd: centsToUsd(cents) };
    },
  );

  r.post(
    '/test/orders/fail-next',
    {
      schema: {
        operationId: 'createTestOrdersFailNext',
        tags: ['Test mode'],
        summary: 'Make the next test order fail fulfillment',
        description:
          'Arms one failure for the next test order (or top-up) of this account; arming again replaces ' +
          'it. The order is charged and answers 502 FULFILLMENT_FAILED like a real provider failure; ' +
          'see `then` for what follows. The body is optional.',
        body: FailNextBody,
        response: {
          200: Type.Object({
            armed: Type.Literal(true),
            then: Type.Union([Type.Literal('complete'), Type.Literal('refund')]),
          }),
          400: errorResponse('then is not complete or refund', 'VALIDATION_ERROR'),
          403: forbidden,
          ...partnerCommonErrors,
        },
      },
      preValidation: async (request) => {
        // No body (or an empty one) means the defaults.
        request.body ??= {};
      },
    },
    async (request) => {
      const then = request.body.then ?? 'complete';
      await testMode.failNextOrder(request.partner!.id, then);
      return { armed: true as const, then };
    },
  );

  r.delete(
    '/test/orders/fail-next',
    {
      schema: {
        operationId: 'deleteTestOrdersFailNext',
        tags: ['Test mode'],
        summary: 'Disarm the failure of the next test order',
        response: {
          200: Type.Object({ armed: Type.Literal(false), wasArmed: Type.Boolean() }),
          403: forbidden,
          ...partnerCommonErrors,
        },
      },
    },
    async (request) => ({
      armed: false as const,
      wasArmed: await testMode.clearFailNextOrder(request.partner!.id),
    }),
  );

  r.post(
    '/test/esims/:id/usage',
    {
      schema: {
        operationId: 'setTestEsimUsage',
        tags: ['Test mode'],
        summary: 'Push a test eSIM’s data usage',
        description:
          'Sets the data used by one of your test eSIMs (eSIM id or ICCID) as if the network had ' +
          'reported it: first use makes it ACTIVE, usedMb at or above its volume DEPLETED. The answer ' +
          'and GET /orders/{id} show the new usage at once.',
        params: EsimParam,
        body: Type.Object(
          { usedMb: Type.Integer({ minimum: 0, maximum: 10_000_000, description: 'MB used in total' }) },
          { additionalProperties: false, examples: [{ usedMb: 800 }] },
        ),
        response: {
          200: PartnerEsimSchema,
          400: errorResponse('usedMb missing or not an integer 0–10,000,000', 'VALIDATION_ERROR'),
          403: forbidden,
          404: errorResponse('No test eSIM of yours has this id or ICCID', 'ESIM_NOT_FOUND'),
          ...partnerCommonErrors,
        },
      },
    },
    async (request) => {
      const esim = await testMode.setEsimUsage(request.partner!.id, request.params.id, request.body.usedMb);
      return presentPartnerEsim(esim, config.publicBaseUrl, true);
    },
  );

  r.post(
    '/test/esims/:id/install',
    {
      schema: {
        operationId: 'installTestEsim',
        tags: ['Test mode'],
        summary: 'Install a test eSIM on a pretend device',
        description:
          'As if the traveller had installed one of your test eSIMs (eSIM id or ICCID): the provider ' +
          'reports the profile INSTALLED and you receive esim.status_changed, exactly as live. The ' +
          'body is optional.',
        params: EsimParam,
        body: Type.Object({}, { additionalProperties: false, examples: [{}] }),
        response: {
          200: PartnerEsimSchema,
          400: errorResponse('The body is not a JSON object', 'VALIDATION_ERROR'),
          403: forbidden,
          404: errorResponse('No test eSIM of yours has this id or ICCID', 'ESIM_NOT_FOUND'),
          ...partnerCommonErrors,
        },
      },
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request) => {
      const esim = await testMode.installEsim(request.partner!.id, request.params.id);
      return presentPartnerEsim(esim, config.publicBaseUrl, true);
    },
  );

  r.post(
    '/test/esims/:id/expire',
    {
      schema: {
        operationId: 'expireTestEsim',
        tags: ['Test mode'],
        summary: 'Bring a test eSIM close to (or past) its expiry',
        description:
          'Moves the end of one of your test eSIMs’ validity as the provider would report it: ' +
          '`daysLeft` 3 or 1 sends esim.expiring (once per eSIM, days left and end), 0 expires it ' +
          'now (status EXPIRED). Events and auto top-ups follow exactly as live.',
        params: EsimParam,
        body: Type.Object(
          {
            daysLeft: Type.Unsafe<3 | 1 | 0>({
              type: 'integer',
              enum: [3, 1, 0],
              minimum: 0,
              maximum: 3,
              description: 'Days until the validity ends: 3, 1, or 0 (expired now)',
            }),
          },
          { additionalProperties: false, examples: [{ daysLeft: 3 }] },
        ),
        response: {
          200: PartnerEsimSchema,
          400: errorResponse('daysLeft is not 3, 1 or 0', 'VALIDATION_ERROR'),
          403: forbidden,
          404: errorResponse('No test eSIM of yours has this id or ICCID', 'ESIM_NOT_FOUND'),
          ...partnerCommonErrors,
        },
      },
    },
    async (request) => {
      const esim = await testMode.expireEsim(request.partner!.id, request.params.id, request.body.daysLeft);
      return presentPartnerEsim(esim, config.publicBaseUrl, true);
    },
  );
}
