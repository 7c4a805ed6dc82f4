import type { Config } from '../../config/index.js';
import type { Db } from '../../db/client.js';
import { databaseSecret } from '../../db/app-secrets.js';
import type { Clock } from '../../lib/clock.js';
import { PaymentProviderError } from './errors.js';
import { createCryptomusProvider } from './cryptomus.js';
import { createSandboxCardProvider, createSandboxCryptoProvider } from './sandbox.js';
import { createStripeCardProvider } from './stripe.js';
import type { CardProvider, CryptoProvider, SandboxCardProvider, SandboxCryptoProvider } from './types.js';

export interface PaymentProviders {
  card: CardProvider;
  crypto: CryptoProvider;
  /** Set only for the providers configured as `sandbox`: they also serve the hosted pages. */
  sandbox: { card?: SandboxCardProvider; crypto?: SandboxCryptoProvider };
  /** The sandbox webhook signing secret (configured, or generated and kept in the database). */
  sandboxSecret: () => Promise<string>;
}

/** Name of the database-kept sandbox signing secret (used when SANDBOX_WEBHOOK_SECRET is unset). */
export const SANDBOX_SECRET_NAME = 'sandbox.webhook';

/** CARD_PROVIDER=off / CRYPTO_PROVIDER=off: creating a payment is 503, the webhook 404. */
function switchedOff(method: 'card' | 'crypto'): CardProvider & CryptoProvider {
  const error = () =>
    new PaymentProviderError(
      'switched_off',
      `${method === 'card' ? 'Card' : 'Crypto'} payments are switched off`,
    );
  const unavailable = () => Promise.reject(error());
  return {
    name: 'off',
    createSession: unavailable,
    createInvoice: unavailable,
    parseWebhook: () => {
      throw error();
    },
  };
}

export function createPaymentProviders(
  config: Readonly<Config>,
  deps: { db: Db; clock: Clock },
): PaymentProviders {
  const configured = config.sandbox.webhookSecret;
  const sandboxDeps = {
    ...deps,
    webhookSecret: configured ? () => Promise.resolve(configured) : databaseSecret(deps, SANDBOX_SECRET_NAME),
    publicBaseUrl: config.publicBaseUrl,
  };
  const sandboxCard = config.cardProvider === 'sandbox' ? createSandboxCardProvider(sandboxDeps) : undefined;
  const sandboxCrypto =
    config.cryptoProvider === 'sandbox' ? createSandboxCryptoProvider(sandboxDeps) : undefined;
  const card =
    sandboxCard ??
    (config.cardProvider === 'stripe'
      ? createStripeCardProvider(config.stripe, deps.clock)
      : switchedOff('card'));
  const crypto =
    sandboxCrypto ??
    (config.cryptoProvider === 'cryptomus'
      ? createCryptomusProvider(config.cryptomus)
      : switchedOff('crypto'));
  return {
    card,
    crypto,
    sandbox: { card: sandboxCard, crypto: sandboxCrypto },
    sandboxSecret: sandboxDeps.webhookSecret,
  };
}
