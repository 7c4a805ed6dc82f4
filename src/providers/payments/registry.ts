import type { Config } from '../../config/index.js';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { createCryptomusProvider } from './cryptomus.js';
import { createSandboxCardProvider, createSandboxCryptoProvider } from './sandbox.js';
import { createStripeCardProvider } from './stripe.js';
import type { CardProvider, CryptoProvider, SandboxCardProvider, SandboxCryptoProvider } from './types.js';

export interface PaymentProviders {
  card: CardProvider;
  crypto: CryptoProvider;
  /** Set only for the providers configured as `sandbox`: they also serve the hosted pages. */
  sandbox: { card?: SandboxCardProvider; crypto?: SandboxCryptoProvider };
}

export function createPaymentProviders(
  config: Readonly<Config>,
  deps: { db: Db; clock: Clock },
): PaymentProviders {
  const sandboxDeps = {
    ...deps,
    webhookSecret: config.sandbox.webhookSecret,
    publicBaseUrl: config.publicBaseUrl,
  };
  const sandboxCard = config.cardProvider === 'sandbox' ? createSandboxCardProvider(sandboxDeps) : undefined;
  const sandboxCrypto =
    config.cryptoProvider === 'sandbox' ? createSandboxCryptoProvider(sandboxDeps) : undefined;
  return {
    card: sandboxCard ?? createStripeCardProvider(config.stripe, deps.clock),
    crypto: sandboxCrypto ?? createCryptomusProvider(config.cryptomus),
    sandbox: { card: sandboxCard, crypto: sandboxCrypto },
  };
}
