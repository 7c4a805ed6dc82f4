import { createRequire } from 'node:module';
import type Stripe from 'stripe';
import type { Clock } from '../../lib/clock.js';
import { PaymentProviderError } from './errors.js';
import type { CardProvider, PaymentEventStatus, PaymentWebhookEvent } from './types.js';

export interface StripeOptions {
  secretKey: string;
  webhookSecret: string;
  /** Only for tests against a fake server: `http://127.0.0.1:4242`. */
  apiBaseUrl: string | undefined;
}

/** Stripe's default replay window for signed webhooks. */
const TOLERANCE_SECONDS = 300;

function clientOptions(apiBaseUrl: string | undefined): ConstructorParameters<typeof Stripe>[1] {
  const options: ConstructorParameters<typeof Stripe>[1] = {
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
  };
  if (!apiBaseUrl) return options;
  const url = new URL(apiBaseUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return {
    ...options,
    host: url.hostname,
    port: url.port || (protocol === 'http' ? 80 : 443),
    protocol,
  };
}

/** Maps Checkout events onto what they mean for our payment (docs.stripe.com/checkout/fulfillment). */
function statusOf(type: string, session: Stripe.Checkout.Session): PaymentEventStatus {
  switch (type) {
    case 'checkout.session.completed':
      // Delayed methods (bank debits) complete unpaid; money arrives with async_payment_succeeded.
      return session.payment_status === 'paid' ? 'paid' : null;
    case 'checkout.session.async_payment_succeeded':
      return 'paid';
    case 'checkout.session.async_payment_failed':
      return 'failed';
    case 'checkout.session.expired':
      return 'expired';
    default:
      return null;
  }
}

export function createStripeCardProvider(options: StripeOptions, clock: Clock): CardProvider {
  // Loaded only when CARD_PROVIDER=stripe: the SDK costs ~0.2–0.5 s of start-up and memory.
  const StripeSdk = createRequire(import.meta.url)('stripe') as typeof Stripe;
  const stripe = new StripeSdk(options.secretKey, clientOptions(options.apiBaseUrl));

  return {
    name: 'stripe',

    async createSession(input) {
      try {
        const session = await stripe.checkout.sessions.create(
          {
            mode: 'payment',
            line_items: [
              {
                quantity: 1,
                price_data: {
                  currency: input.currency.toLowerCase(),
                  unit_amount: input.amountMinor,
                  product_data: { name: input.description },
                },
              },
            ],
            success_url: input.successUrl,
            cancel_url: input.cancelUrl,
            client_reference_id: input.paymentId,
            metadata: { paymentId: input.paymentId, accountId: input.accountId, purpose: input.purpose },
          },
          // One payment, one session: a retried create returns Stripe's stored first answer.
          { idempotencyKey: input.paymentId },
        );
        if (!session.url) throw new Error('Stripe returned a session without url');
        return { sessionId: session.id, url: session.url };
      } catch (error) {
        throw new PaymentProviderError('unavailable', 'Card payment provider request failed', {
          provider: 'stripe',
          cause: error instanceof Error ? error.message : String(error),
        });
      }
    },

    async refund(input) {
      try {
        // The session names its PaymentIntent; an event without it (older API versions) is looked up.
        const intent =
          input.chargeRef ?? (await stripe.checkout.sessions.retrieve(input.providerRef)).payment_intent;
        const paymentIntent = typeof intent === 'string' ? intent : intent?.id;
        if (!paymentIntent) throw new Error('the session has no payment_intent');
        const refund = await stripe.refunds.create(
          { payment_intent: paymentIntent, metadata: { paymentId: input.paymentId } },
          // One refund per payment, however often the job runs.
          { idempotencyKey: `refund_${input.paymentId}` },
        );
        return { refundId: refund.id };
      } catch (error) {
        throw new PaymentProviderError('unavailable', 'Card payment provider refund failed', {
          provider: 'stripe',
          cause: error instanceof Error ? error.message : String(error),
        });
      }
    },

    parseWebhook(rawBody, headers): PaymentWebhookEvent {
      const header = headers['stripe-signature'];
      if (!header) throw new PaymentProviderError('invalid_signature', 'Missing Stripe-Signature header');
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(
          rawBody,
          header,
          options.webhookSecret,
          TOLERANCE_SECONDS,
          undefined,
          // Milliseconds: stripe-node divides by 1000 itself.
          clock.now().getTime(),
        );
      } catch {
        throw new PaymentProviderError('invalid_signature', 'Stripe signature verification failed');
      }
      const object = event.data.object as { object?: string };
      const session = object.object === 'checkout.session' ? (object as Stripe.Checkout.Session) : null;
      return {
        eventId: event.id,
        type: event.type,
        paymentId: session ? (session.client_reference_id ?? session.metadata?.paymentId ?? null) : null,
        providerRef: session?.id ?? null,
        status: session ? statusOf(event.type, session) : null,
        amountMinor: session?.amount_total ?? null,
        currency: session?.currency ? session.currency.toUpperCase() : null,
        chargeRef:
          typeof session?.payment_intent === 'string'
            ? session.payment_intent
            : (session?.payment_intent?.id ?? null),
        payload: event,
      };
    },
  };
}
