import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { PartnerWalletSchema, presentPartnerWallet } from '../shared/partner-wallet.js';
import { errorResponse, partnerCommonErrors } from './openapi-examples.js';

export { PartnerWalletSchema } from '../shared/partner-wallet.js';

/** `GET /wallet`: the balance partner orders are charged to; `PATCH /wallet`: its low-balance alert. */
export async function walletRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { wallet } = app.container;

  r.get(
    '/wallet',
    {
      schema: {
        operationId: 'getWallet',
        tags: ['Wallet'],
        summary: 'Wallet balance',
        description:
          'The prepaid USD balance that `POST /orders` is charged to. Top it up from the dashboard ' +
          '(card or crypto); orders are charged your partner price when an operator set you a price rule, else the retail price (GET /destinations shows which). With a test key: the test ' +
          'wallet (starts at 1000.00, reset with POST /test/wallet/reset); x-livemode tells which.',
        response: { 200: PartnerWalletSchema, ...partnerCommonErrors },
      },
    },
    async (request) => presentPartnerWallet(await wallet.balances(request.partner!.id), request.livemode),
  );

  r.patch(
    '/wallet',
    {
      schema: {
        operationId: 'updateWallet',
        tags: ['Wallet'],
        summary: 'Set the low-balance threshold',
        description:
          'wallet.low_balance fires when a charge takes the balance from at least this amount to below ' +
          'it (once per crossing). USD, at most two decimals; 0 turns the alert off. Default 50.00. ' +
          "Each mode has its own: a test key sets the test wallet's threshold, never the live one.",
        body: Type.Object(
          {
            lowBalanceThreshold: Type.Number({
              minimum: 0,
              maximum: 1_000_000,
              description: 'USD, at most two decimals',
            }),
          },
          { additionalProperties: false, examples: [{ lowBalanceThreshold: 100 }] },
        ),
        response: {
          200: PartnerWalletSchema,
          400: errorResponse(
            'lowBalanceThreshold missing, negative, above 1,000,000 or with more than two decimals',
            'VALIDATION_ERROR',
          ),
          ...partnerCommonErrors,
        },
      },
    },
    async (request) =>
      presentPartnerWallet(
        await wallet.setLowBalanceThreshold(
          request.partner!.id,
          request.livemode,
          request.body.lowBalanceThreshold,
        ),
        request.livemode,
      ),
  );
}
