import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../domain/errors.js';
import { centsToUsd, parseDecimalToCents } from '../../lib/money.js';
import { appErrorResponse, withIdempotency, type IdempotentResponse } from '../shared/idempotency.js';
import { adminErrors } from '../shared/schemas.js';
import { presentWalletTransaction, WalletTransactionSchema } from '../shared/wallet-transaction.js';

/** 12.34 → 1234, -5 → -500; null for zero, more than two decimals or absurd sizes. */
function usdToSignedCents(amountUsd: number): number | null {
  const cents = parseDecimalToCents(String(Math.abs(amountUsd)));
  if (cents === null || cents === 0) return null;
  return amountUsd < 0 ? -cents : cents;
}

const ADMIN_PRINCIPAL = 'admin';
const IDEMPOTENCY_SCOPE = 'admin.wallet-adjustments';

/** POST /accounts/:id/wallet/adjustments (decisions §6). */
export async function adminWalletRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { wallet, db, clock } = app.container;

  r.post(
    '/accounts/:id/wallet/adjustments',
    {
      config: { freeText: ['reason'] },
      schema: {
        tags: ['Admin'],
        summary: 'Credit or debit a wallet',
        description:
          'Positive amountUsd posts a deposit, negative a withdrawal (never below zero: 402 INSUFFICIENT_BALANCE). The reason becomes the transaction description and is written to the audit log in the same transaction. ' +
          'Send an Idempotency-Key to make retries safe: the same key with the same account and body within 24 h returns the first response without a second adjustment; the same key with another account or body → 409 IDEMPOTENCY_KEY_REUSED.',
        params: Type.Object({ id: Type.String({ maxLength: 100 }) }),
        headers: Type.Object({
          'idempotency-key': Type.Optional(
            Type.String({ minLength: 1, maxLength: 255, description: 'Optional; makes retries credit once' }),
          ),
        }),
        body: Type.Object({
          amountUsd: Type.Number({ description: 'Non-zero USD with at most two decimals' }),
          reason: Type.String({ minLength: 1, maxLength: 500 }),
        }),
        response: {
          200: Type.Object({ transaction: WalletTransactionSchema, walletBalance: Type.Number() }),
          ...adminErrors(402, 404, 409),
        },
      },
    },
    async (request, reply) => {
      const amountCents = usdToSignedCents(request.body.amountUsd);
      if (amountCents === null) {
        throw new AppError('VALIDATION_ERROR', 'amountUsd must be non-zero with at most two decimals', {
          field: 'amountUsd',
        });
      }
      const reason = request.body.reason.trim();
      if (!reason) throw new AppError('VALIDATION_ERROR', 'reason must not be blank', { field: 'reason' });
      const adjust = async (): Promise<IdempotentResponse> => {
        const result = await wallet.adjust({
          accountId: request.params.id,
          amountCents,
          reason,
          requestId: request.id,
        });
        return {
          statusCode: 200,
          body: {
            transaction: presentWalletTransaction(result.transaction),
            walletBalance: centsToUsd(result.balanceCents),
          },
        };
      };
      const key = request.headers['idempotency-key'];
      // Keys belong to the operator (one principal), so the account is part of the hashed body:
      // the same key for another account is a conflict, not a second adjustment.
      const response = key
        ? await withIdempotency(
            { db, clock },
            {
              accountId: ADMIN_PRINCIPAL,
              scope: IDEMPOTENCY_SCOPE,
              key,
              body: { accountId: request.params.id, ...request.body },
            },
            () => appErrorResponse('admin', request, adjust),
          )
        : await adjust();
      return reply.code(response.statusCode as 200).send(response.body as never);
    },
  );
}
