import { Type } from '@sinclair/typebox';
import type { WalletTransaction } from '../../domain/wallet/wallet.service.js';
import { centsToUsd } from '../../lib/money.js';
import { IsoDate, Nullable } from './schemas.js';

/** A wallet ledger row as the Mobile and operator APIs show it (decisions §4). */
export const WalletTransactionSchema = Type.Object(
  {
    id: Type.String(),
    kind: Type.Union([
      Type.Literal('deposit'),
      Type.Literal('withdrawal'),
      Type.Literal('purchase'),
      Type.Literal('refund'),
    ]),
    amount: Type.Number({
      description: 'Signed USD: positive for deposit/refund, negative for withdrawal/purchase',
    }),
    currency: Type.Literal('USD'),
    balanceAfter: Type.Number({ description: 'Wallet balance in USD right after this transaction' }),
    description: Type.String(),
    orderId: Nullable(Type.String()),
    hasReceipt: Type.Boolean({
      description:
        'A top-up paid by card or crypto: its receipt is GET /user/wallet/transactions/{id}/receipt (an order’s is its order’s)',
    }),
    createdAt: IsoDate,
  },
  { title: 'WalletTransaction' },
);

export function presentWalletTransaction(row: WalletTransaction) {
  return {
    id: row.id,
    kind: row.kind,
    amount: centsToUsd(row.amountCents),
    currency: 'USD' as const,
    balanceAfter: centsToUsd(row.balanceAfterCents),
    description: row.description,
    orderId: row.orderId,
    hasReceipt: row.kind === 'deposit' && row.paymentId !== null && row.orderId === null,
    createdAt: row.createdAt.toISOString(),
  };
}
