import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { centsToUsd } from '../../lib/money.js';
import { partnerCommonErrors } from './openapi-examples.js';

export const PartnerWalletSchema = Type.Object(
  {
    balanceUsd: Type.Number({ description: 'Prepaid wallet balance in USD, at most two decimals' }),
    currency: Type.Literal('USD'),
  },
  { title: 'PartnerWallet', examples: [{ balanceUsd: 125.5, currency: 'USD' }] },
);

/** `GET /wallet`: the balance partner orders are charged to. */
export async function walletRoutes(app: FastifyInstance): Promise<void> {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/wallet',
    {
      schema: {
        tags: ['Partner wallet'],
        summary: 'Wallet balance',
        description:
          'The prepaid USD balance that `POST /orders` is charged to. Top it up from the dashboard ' +
          '(card or crypto); partners pay the storefront retail price.',
        security: [{ apiKey: [] }, { apiKeyHeader: [] }],
        response: { 200: PartnerWalletSchema, ...partnerCommonErrors },
      },
    },
    // The key check re-reads the account on every request, so its balance is current.
    async (request) => ({
      balanceUsd: centsToUsd(request.partner!.walletBalanceCents),
      currency: 'USD' as const,
    }),
  );
}
