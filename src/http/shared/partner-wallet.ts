import { Type, type Static } from '@sinclair/typebox';
import { centsToUsd } from '../../lib/money.js';

/** The Partner API wallet object: GET/PATCH /wallet and the data of wallet.* events. */
export const PartnerWalletSchema = Type.Object(
  {
    balanceUsd: Type.Number({ description: 'Prepaid wallet balance in USD, at most two decimals' }),
    currency: Type.Literal('USD'),
    lowBalanceThreshold: Type.Number({
      description: 'USD; wallet.low_balance fires when a charge takes the balance below it (0 = never)',
    }),
  },
  { title: 'PartnerWallet', examples: [{ balanceUsd: 125.5, currency: 'USD', lowBalanceThreshold: 50 }] },
);

/** `livemode` false presents the test wallet (test-mode keys, docs/partner.md "Test mode"). */
export function presentPartnerWallet(
  account: { walletBalanceCents: number; testWalletBalanceCents: number; lowBalanceThresholdCents: number },
  livemode = true,
): Static<typeof PartnerWalletSchema> {
  return {
    balanceUsd: centsToUsd(livemode ? account.walletBalanceCents : account.testWalletBalanceCents),
    currency: 'USD',
    lowBalanceThreshold: centsToUsd(account.lowBalanceThresholdCents),
  };
}
