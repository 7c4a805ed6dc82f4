import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../domain/errors.js';
import { MIN_TOPUP_MINOR } from '../../domain/payments/payments.service.js';
import { CURRENCIES, parseDecimalToCents, type Currency } from '../../lib/money.js';
import type { PaymentMethod } from '../../domain/payments/settlement.js';
import { mobileErrors } from '../shared/schemas.js';
import type { AccountLimits } from './account-limits.js';
import { PROVIDER_WEBHOOK_BODY_LIMIT_BYTES } from '../shared/transport.js';

const RedirectUrl = Type.String({
  maxLength: 2048,
  description: 'http(s) URL or an app link such as myapp://payment/done',
});

/** Webhooks must be verified over the exact bytes the provider signed, so this context keeps them raw. */
async function webhookRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { payments } = app.container;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  const route = (method: PaymentMethod, description: string) =>
    r.post(
      `/payments/${method}/webhook`,
      {
        config: { auth: 'none' },
        bodyLimit: PROVIDER_WEBHOOK_BODY_LIMIT_BYTES,
        schema: {
          operationId: method === 'card' ? 'receiveCardWebhook' : 'receiveCryptoWebhook',
          tags: ['Payments'],
          summary: `${method === 'card' ? 'Card' : 'Crypto'} payment provider webhook`,
          description,
          response: {
            200: Type.Object({ received: Type.Literal(true), outcome: Type.String() }),
            ...mobileErrors(),
          },
        },
      },
      async (request) => {
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const outcome = await payments.handleWebhook(method, raw, request.headers);
        return { received: true as const, outcome };
      },
    );

  route(
    'card',
    'Called by the card provider (Stripe: Stripe-Signature; sandbox: Sandbox-Signature). 400 INVALID_SIGNATURE when the signature is missing or wrong; 200 for every verified event, including replays and events about unknown payments (recorded, nothing credited).',
  );
  route(
    'crypto',
    'Called by the crypto provider (Cryptomus: `sign` field in the body; sandbox: Sandbox-Signature). 400 INVALID_SIGNATURE when the signature is missing or wrong; 200 for every verified event.',
  );
}

/** POST /payments/card/create-session, /payments/crypto/create-invoice and the provider webhooks. */
export async function paymentsRoutes(
  app: FastifyInstance,
  { limits }: { limits: AccountLimits },
): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { payments, config } = app.container;
  const perHour = config.abuseLimits.paymentSessionsPerHour;

  r.post(
    '/payments/card/create-session',
    {
      preHandler: limits.paymentSession,
      schema: {
        operationId: 'createCardSession',
        tags: ['Payments'],
        summary: 'Card wallet top-up',
        description: `Opens a hosted card payment page. amount is in minor units (cents) of currency, at least ${MIN_TOPUP_MINOR}. Non-USD amounts are credited in USD at the stored exchange rate, rounded down to the cent. Open url in a real browser; the wallet is credited when the provider confirms payment. Default redirects: PUBLIC_BASE_URL/payment/success and /payment/cancel. At most ${perHour} payment sessions (card sessions, crypto invoices, card/crypto checkouts together) per account per hour: 429 RATE_LIMITED with Retry-After.`,
        body: Type.Object({
          amount: Type.Integer({ minimum: MIN_TOPUP_MINOR, maximum: 100_000_000 }),
          currency: Type.Optional(
            Type.String({ pattern: '^[A-Za-z]{3}$', default: 'USD', description: CURRENCIES.join(', ') }),
          ),
          successUrl: Type.Optional(RedirectUrl),
          cancelUrl: Type.Optional(RedirectUrl),
        }),
        response: {
          200: Type.Object({ sessionId: Type.String(), url: Type.String() }),
          ...mobileErrors(401, 403, 429, 502),
        },
      },
    },
    async (request) => {
      const { amount, currency = 'USD', successUrl, cancelUrl } = request.body;
      const created = await payments.createCardPayment({
        accountId: request.auth!.account.id,
        purpose: 'topup',
        amountMinor: amount,
        currency: currency.toUpperCase() as Currency,
        successUrl,
        cancelUrl,
      });
      return { sessionId: created.sessionId, url: created.url };
    },
  );

  r.post(
    '/payments/crypto/create-invoice',
    {
      preHandler: limits.paymentSession,
      schema: {
        operationId: 'createCryptoInvoice',
        tags: ['Payments'],
        summary: 'Crypto wallet top-up',
        description: `Creates a crypto invoice for amount USD (a decimal string, at least "2", at most two decimals) and returns the provider invoice object; open its url. The payer picks the coin on the hosted page. Counts toward the ${perHour} payment sessions per account per hour (429 RATE_LIMITED with Retry-After).`,
        body: Type.Object({
          amount: Type.String({ maxLength: 16, description: 'USD, e.g. "10" or "10.50"' }),
          currency: Type.Optional(Type.String({ default: 'USD', description: 'USD only' })),
          url_return: Type.Optional(RedirectUrl),
        }),
        response: {
          200: Type.Object({ url: Type.String() }, { additionalProperties: true, title: 'CryptoInvoice' }),
          ...mobileErrors(401, 403, 429, 502),
        },
      },
    },
    async (request) => {
      const { amount, currency = 'USD', url_return } = request.body;
      const cents = parseDecimalToCents(amount);
      if (cents === null || cents < MIN_TOPUP_MINOR) {
        throw new AppError('VALIDATION_ERROR', 'amount must be a decimal string of at least 2', {
          field: 'amount',
        });
      }
      if (currency.toUpperCase() !== 'USD') {
        throw new AppError('VALIDATION_ERROR', 'currency must be USD', { field: 'currency' });
      }
      const created = await payments.createCryptoPayment({
        accountId: request.auth!.account.id,
        purpose: 'topup',
        amountCents: cents,
        currency: 'USD',
        returnUrl: url_return,
      });
      return created.invoice;
    },
  );

  await app.register(webhookRoutes);
}
