import { Type, type Static } from '@sinclair/typebox';
import { presentPartnerWallet, type PartnerWallet } from '../../domain/events/partner-objects.js';

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

/** Presented in the domain (wallet.* events carry it too); the schema must describe exactly that. */
export { presentPartnerWallet };

type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const _partnerWalletSchemaMatches: Same<Static<typeof PartnerWalletSchema>, PartnerWallet> = true;
