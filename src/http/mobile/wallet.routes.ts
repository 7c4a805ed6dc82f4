import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { TRANSACTIONS_DEFAULT_LIMIT, TRANSACTIONS_MAX_LIMIT } from '../../domain/wallet/wallet.service.js';
import { mobileErrors } from '../shared/schemas.js';
import { presentWalletTransaction, WalletTransactionSchema } from '../shared/wallet-transaction.js';

/** GET /user/wallet/transactions (specification §4.4, decisions §4). */
export async function walletRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { wallet } = app.container;

  r.get(
    '/user/wallet/transactions',
    {
      schema: {
        tags: ['Wallet'],
        summary: 'Wallet transaction history',
        description: `Deposits, withdrawals, purchases and refunds of the caller's wallet, newest first. The most recent \`limit\` transactions (default ${TRANSACTIONS_DEFAULT_LIMIT}, at most ${TRANSACTIONS_MAX_LIMIT}).`,
        querystring: Type.Object({
          limit: Type.Integer({
            minimum: 1,
            maximum: TRANSACTIONS_MAX_LIMIT,
            default: TRANSACTIONS_DEFAULT_LIMIT,
          }),
        }),
        response: {
          200: Type.Object({ transactions: Type.Array(WalletTransactionSchema) }),
          ...mobileErrors(401, 403),
        },
      },
    },
    async (request) => {
      const rows = await wallet.listTransactions(request.auth!.account.id, request.query.limit);
      return { transactions: rows.map(presentWalletTransaction) };
    },
  );
}
