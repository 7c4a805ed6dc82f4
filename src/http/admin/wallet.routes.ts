import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../domain/errors.js';
import { centsToUsd, parseDecimalToCents } from '../../lib/money.js';
import { adminErrors } from '../shared/schemas.js';
import { presentWalletTransaction, WalletTransactionSchema } from '../shared/wallet-transaction.js';

/** 12.34 → 1234, -5 → -500; null for zero, more than two decimals or absurd sizes. */
function usdToSignedCents(amountUsd: number): number | null {
  const cents = parseDecimalToCents(String(Math.abs(amountUsd)));
  if (cents === null || cents === 0) return null;
  return amountUsd < 0 ? -cents : cents;
}

/** The checked amount and reason; VALIDATION_ERROR otherwise (before the Idempotency-Key is claimed). */
function adjustmentOf(body: { amountUsd: number; reason: string }): { amountCents: number; reason: string } {
  const amountCents = usdToSignedCents(body.amountUsd);
  if (amountCents === null) {
    throw new AppError('VALIDATION_ERROR', 'amountUsd must be non-zero with at most two decimals', {
      field: 'amountUsd',
    });
  }
  const reason = body.reason.trim();
  if (!reason) throw new AppError('VALIDATION_ERROR', 'reason must not be blank', { field: 'reason' });
  return { amountCents, reason };
}

const ADMIN_PRINCIPAL = 'admin';
const IDEMPOTENCY_SCOPE = 'admin.wallet-adjustments';

/** POST /accounts/:id/wallet/adjustments (decisions §6). */
export async function adminWalletRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { wallet } = app.container;

  r.post(
    '/accounts/:id/wallet/adjustments',
    {
      // Runs before the Idempotency-Key hook: an invalid adjustment never claims a key.
      preHandler: async (request) => void adjustmentOf(request.body),
      config: {
        operatorPermission: 'wallet.adjust',
        freeText: ['reason'],
        // Keys belong to the operator (one principal), so the account is part of the hashed body:
        // the same key for another account is a conflict, not a second adjustment.
        idempotency: {
          scope: IDEMPOTENCY_SCOPE,
          principal: () => ADMIN_PRINCIPAL,
          fingerprint: (request) => ({
            accountId: (request.params as { id: string }).id,
            ...(request.body as object),
          }),
        },
      },
      schema: {
        operationId: 'adjustWallet',
        tags: ['Accounts'],
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
          amountUsd: Type.Number({
            // The most parseDecimalToCents reads (12 whole digits); the balance cap is the domain's.
            minimum: -999_999_999_999.99,
            maximum: 999_999_999_999.99,
            description: 'Non-zero USD with at most two decimals',
          }),
          reason: Type.String({ minLength: 1, maxLength: 500 }),
        }),
        response: {
          200: Type.Object({ transaction: WalletTransactionSchema, walletBalance: Type.Number() }),
          ...adminErrors(402, 404, 409),
        },
      },
    },
    async (request, reply) => {
      const { amountCents, reason } = adjustmentOf(request.body);
      const result = await wallet.adjust({
        accountId: request.params.id,
        amountCents,
        reason,
        requestId: request.id,
      });
      return reply.code(200).send({
        transaction: presentWalletTransaction(result.transaction),
        walletBalance: centsToUsd(result.balanceCents),
      });
    },
  );
}
