import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import {
  TRANSACTIONS_DEFAULT_LIMIT,
  TRANSACTIONS_MAX_LIMIT,
  type WalletTransaction,
} from '../../domain/wallet/wallet.service.js';
import { defineList, NextCursorSchema, pageQuery } from '../shared/pagination.js';
import { mobileErrors } from '../shared/schemas.js';
import { presentWalletTransaction, WalletTransactionSchema } from '../shared/wallet-transaction.js';

/**
 * Newest first (created_at, seq) on wallet_transactions_account_list_idx. Without limit and
 * cursor: the newest TRANSACTIONS_DEFAULT_LIMIT rows, as before paging (a Link header names the
 * rest when there is more).
 */
const transactionList = defineList<WalletTransaction>({
  list: 'mobile.wallet.transactions',
  key: ['date', 'int'],
  keyOf: (t) => [t.createdAt, t.seq],
  unpagedLimit: TRANSACTIONS_DEFAULT_LIMIT,
});

/** GET /user/wallet/transactions (specification §4.4, decisions §4). */
export async function walletRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { wallet } = app.container;

  r.get(
    '/user/wallet/transactions',
    {
      schema: {
        operationId: 'listWalletTransactions',
        tags: ['Wallet'],
        summary: 'Wallet transaction history',
        description: `Deposits, withdrawals, purchases and refunds of the caller's wallet, newest first. Without \`limit\` and \`cursor\` the newest ${TRANSACTIONS_DEFAULT_LIMIT}; with them one page of \`limit\` (1–${TRANSACTIONS_MAX_LIMIT}, default ${TRANSACTIONS_DEFAULT_LIMIT}), the next in the \`Link\` header and \`nextCursor\`.`,
        querystring: pageQuery({}),
        response: {
          200: Type.Object({
            transactions: Type.Array(WalletTransactionSchema),
            nextCursor: Type.Optional(NextCursorSchema),
          }),
          ...mobileErrors(401, 403),
        },
      },
    },
    async (request, reply) => {
      const accountId = request.auth!.account.id;
      const page = transactionList.plan([accountId], request.query);
      const rows = await wallet.listTransactions(accountId, page.take, true, page.after);
      const { items, nextCursor } = page.finish(request, reply, rows);
      return {
        transactions: items.map(presentWalletTransaction),
        ...(page.paged ? { nextCursor } : {}),
      };
    },
  );
}
