/** The card and crypto payment providers and their credentials. */

import { ConfigError, oneOf, optional, required, url, type Env } from './parse.js';

/** `off`: the payment method is switched off (its endpoints answer 503, its webhook 404). */
export type CardProviderName = 'sandbox' | 'stripe' | 'off';
export type CryptoProviderName = 'sandbox' | 'cryptomus' | 'off';

export interface PaymentsConfig {
  cardProvider: CardProviderName;
  stripe: { secretKey: string; webhookSecret: string; apiBaseUrl: string | undefined };
  cryptoProvider: CryptoProviderName;
  cryptomus: { merchantId: string; apiKey: string; baseUrl: string };
}

export function paymentsConfig(env: Env): PaymentsConfig {
  const cardProvider = oneOf(env, 'CARD_PROVIDER', ['sandbox', 'stripe', 'off'] as const, 'sandbox');
  const cryptoProvider = oneOf(env, 'CRYPTO_PROVIDER', ['sandbox', 'cryptomus', 'off'] as const, 'sandbox');
  refuseSandboxBesideRealProvider(cardProvider, cryptoProvider);

  const stripe = {
    secretKey: optional(env, 'STRIPE_SECRET_KEY') ?? '',
    webhookSecret: optional(env, 'STRIPE_WEBHOOK_SECRET') ?? '',
    apiBaseUrl: url(env, 'STRIPE_API_BASE_URL', undefined, ['http:', 'https:']),
  };
  if (cardProvider === 'stripe') {
    required('STRIPE_SECRET_KEY', stripe.secretKey, 'CARD_PROVIDER=stripe');
    required('STRIPE_WEBHOOK_SECRET', stripe.webhookSecret, 'CARD_PROVIDER=stripe');
  }
  const cryptomus = {
    merchantId: optional(env, 'CRYPTOMUS_MERCHANT_ID') ?? '',
    apiKey: optional(env, 'CRYPTOMUS_API_KEY') ?? '',
    baseUrl: url(env, 'CRYPTOMUS_BASE_URL', 'https://api.cryptomus.com', ['http:', 'https:'])!,
  };
  if (cryptoProvider === 'cryptomus') {
    required('CRYPTOMUS_MERCHANT_ID', cryptomus.merchantId, 'CRYPTO_PROVIDER=cryptomus');
    required('CRYPTOMUS_API_KEY', cryptomus.apiKey, 'CRYPTO_PROVIDER=cryptomus');
  }
  return { cardProvider, stripe, cryptoProvider, cryptomus };
}

const REAL_CARD = new Set<CardProviderName>(['stripe']);
const REAL_CRYPTO = new Set<CryptoProviderName>(['cryptomus']);

/**
 * A sandbox payment provider credits wallets without money moving; beside a real provider it
 * would let anyone mint credit and spend it on real eSIMs. So either both are sandbox (or off),
 * or none is.
 */
function refuseSandboxBesideRealProvider(card: CardProviderName, crypto: CryptoProviderName): void {
  if (REAL_CARD.has(card) && crypto === 'sandbox') {
    throw new ConfigError(
      `CRYPTO_PROVIDER=sandbox cannot run beside CARD_PROVIDER=${card}: set CRYPTO_PROVIDER to cryptomus or off`,
    );
  }
  if (REAL_CRYPTO.has(crypto) && card === 'sandbox') {
    throw new ConfigError(
      `CARD_PROVIDER=sandbox cannot run beside CRYPTO_PROVIDER=${crypto}: set CARD_PROVIDER to stripe or off`,
    );
  }
}
