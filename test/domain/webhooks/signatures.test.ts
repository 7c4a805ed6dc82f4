import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../../src/db/client.js';
import type { AppError } from '../../../src/domain/errors.js';
import { paymentProviderFailure } from '../../../src/domain/payments/provider-errors.js';
import { newWebhookSecret, signWebhook } from '../../../src/domain/webhooks/signature.js';
import { ManualClock, SECOND } from '../../../src/lib/clock.js';
import {
  createCryptomusProvider,
  cryptomusSign,
  phpJsonEncode,
} from '../../../src/providers/payments/cryptomus.js';
import {
  createSandboxCardProvider,
  SANDBOX_SIGNATURE_HEADER,
  signSandboxPayload,
} from '../../../src/providers/payments/sandbox.js';
import { createStripeCardProvider } from '../../../src/providers/payments/stripe.js';

/**
 * Rules tier: the signatures of outbound partner webhooks and the verification of inbound
 * payment webhooks, as plain functions (no app, no database). The HTTP tests check that the
 * routes answer 400 INVALID_SIGNATURE; these check the rules behind it.
 */

async function rejection(parse: () => unknown): Promise<string | undefined> {
  try {
    await parse();
  } catch (error) {
    // Adapters throw their own PaymentProviderError; the payments area maps it to its code.
    return (paymentProviderFailure(error, 'webhook') as AppError).code;
  }
  return undefined;
}

describe('Standard Webhooks signature (outbound partner webhooks)', () => {
  it('matches the test vector of the Standard Webhooks specification', () => {
    expect(
      signWebhook(
        'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        'msg_p5jXN8AQM9LWM0D4loKWxJek',
        1614265330,
        '{"test": 2432232314}',
      ),
    ).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('keys by the base64 part after whsec_, and signs id, timestamp and body together', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const signature = signWebhook(secret, 'evt_1', 1_700_000_000, '{"a":1}');
    expect(signWebhook(secret.slice('whsec_'.length), 'evt_1', 1_700_000_000, '{"a":1}')).toBe(signature);
    expect(signWebhook(secret, 'evt_2', 1_700_000_000, '{"a":1}')).not.toBe(signature);
    expect(signWebhook(secret, 'evt_1', 1_700_000_001, '{"a":1}')).not.toBe(signature);
    expect(signWebhook(secret, 'evt_1', 1_700_000_000, '{"a":2}')).not.toBe(signature);
    expect(signWebhook(newWebhookSecret(), 'evt_1', 1_700_000_000, '{"a":1}')).not.toBe(signature);
  });
});

describe('Stripe webhook verification (inbound)', () => {
  const webhookSecret = 'whsec_rules_tier_test_secret';
  const signer = new Stripe('sk_test_signer_only');
  const clock = new ManualClock(new Date('2026-11-22T10:00:00Z'));
  const provider = createStripeCardProvider(
    { secretKey: 'sk_test_x', webhookSecret, apiBaseUrl: undefined },
    clock,
  );
  const now = () => Math.floor(clock.now().getTime() / 1000);
  const payload = JSON.stringify({
    id: 'evt_rules_1',
    object: 'event',
    type: 'checkout.session.completed',
    data: {
      object: {
        object: 'checkout.session',
        id: 'cs_test_1',
        client_reference_id: 'pay_1',
        payment_status: 'paid',
        amount_total: 1500,
        currency: 'usd',
      },
    },
  });
  const sign = (body: string, timestamp = now(), secret = webhookSecret) =>
    signer.webhooks.generateTestHeaderString({ payload: body, secret, timestamp });

  it('accepts a body signed with the endpoint secret and reads our payment from it', () => {
    const event = provider.parseWebhook(Buffer.from(payload), { 'stripe-signature': sign(payload) });
    expect(event).toMatchObject({
      eventId: 'evt_rules_1',
      paymentId: 'pay_1',
      providerRef: 'cs_test_1',
      amountMinor: 1500,
      currency: 'USD',
    });
  });

  it('refuses a missing header, another secret, a changed body and a signature older than 5 minutes', async () => {
    const parse = (body: string, header?: string) => () =>
      provider.parseWebhook(Buffer.from(body), header === undefined ? {} : { 'stripe-signature': header });
    expect(await rejection(parse(payload))).toBe('INVALID_SIGNATURE');
    expect(await rejection(parse(payload, sign(payload, now(), 'whsec_another')))).toBe('INVALID_SIGNATURE');
    expect(await rejection(parse(payload.replace('1500', '150000'), sign(payload)))).toBe(
      'INVALID_SIGNATURE',
    );
    const signedAt = now();
    clock.advance(301 * SECOND);
    expect(await rejection(parse(payload, sign(payload, signedAt)))).toBe('INVALID_SIGNATURE');
    expect(await rejection(parse(payload, sign(payload, now())))).toBeUndefined();
  });
});

describe('Cryptomus webhook verification (inbound)', () => {
  const apiKey = 'cryptomus-rules-tier-key';
  const provider = createCryptomusProvider({ merchantId: 'm1', apiKey, baseUrl: 'http://127.0.0.1:9' });
  /** The way Cryptomus signs: md5(base64(PHP json_encode(body without sign)) + key), added as `sign`. */
  const signed = (body: Record<string, unknown>, key = apiKey) =>
    JSON.stringify({ ...body, sign: cryptomusSign(phpJsonEncode(body), key) });
  const paid = {
    uuid: 'inv-1',
    order_id: 'pay_2',
    amount: '12.50',
    currency: 'USD',
    status: 'paid',
    is_final: true,
    url: 'https://pay.cryptomus.com/pay/inv-1',
  };

  it('accepts a body signed with the API key, with PHP escaping of "/", and reads the payment', () => {
    expect(phpJsonEncode(paid)).toContain('https:\\/\\/pay.cryptomus.com\\/pay\\/inv-1');
    const event = provider.parseWebhook(Buffer.from(signed(paid)), {});
    expect(event).toMatchObject({
      eventId: 'inv-1:paid',
      paymentId: 'pay_2',
      status: 'paid',
      amountMinor: 1250,
      currency: 'USD',
    });
  });

  it('refuses another key, a changed field, a missing sign and a body that is not JSON', async () => {
    const parse = (body: string) => () => provider.parseWebhook(Buffer.from(body), {});
    expect(await rejection(parse(signed(paid, 'another-key')))).toBe('INVALID_SIGNATURE');
    const forged = JSON.parse(signed(paid)) as Record<string, unknown>;
    expect(await rejection(parse(JSON.stringify({ ...forged, amount: '1250.00' })))).toBe(
      'INVALID_SIGNATURE',
    );
    expect(await rejection(parse(JSON.stringify(paid)))).toBe('INVALID_SIGNATURE');
    expect(await rejection(parse('not json'))).toBe('INVALID_SIGNATURE');
  });
});

describe('sandbox payment webhook verification (inbound)', () => {
  const secret = 'sandbox-rules-tier-secret';
  const clock = new ManualClock(new Date('2026-11-22T10:00:00Z'));
  const provider = createSandboxCardProvider({
    // Verification reads only the secret and the clock; the settlement side is not used here.
    db: {} as Db,
    clock,
    webhookSecret: async () => secret,
    publicBaseUrl: 'http://localhost:3000',
  });
  const body = JSON.stringify({
    id: 'sbx_evt_1',
    type: 'card.paid',
    data: { object: { id: 'sbx_1', reference: 'pay_3', amountMinor: 900, currency: 'USD', status: 'paid' } },
  });
  const now = () => Math.floor(clock.now().getTime() / 1000);
  const parse = (raw: string, header?: string) => () =>
    provider.parseWebhook(
      Buffer.from(raw),
      header === undefined ? {} : { [SANDBOX_SIGNATURE_HEADER]: header },
    );

  it('accepts t=<seconds>,v1=<HMAC> over "t.body" and maps card.paid to paid', async () => {
    const event = await parse(body, signSandboxPayload(secret, body, now()))();
    expect(event).toMatchObject({
      eventId: 'sbx_evt_1',
      paymentId: 'pay_3',
      status: 'paid',
      amountMinor: 900,
    });
  });

  it('refuses a missing or malformed header, another secret, a changed body and a stale timestamp', async () => {
    expect(await rejection(parse(body))).toBe('INVALID_SIGNATURE');
    expect(await rejection(parse(body, 'v1=abc'))).toBe('INVALID_SIGNATURE');
    expect(await rejection(parse(body, signSandboxPayload('another-secret', body, now())))).toBe(
      'INVALID_SIGNATURE',
    );
    expect(
      await rejection(parse(body.replace('900', '90000'), signSandboxPayload(secret, body, now()))),
    ).toBe('INVALID_SIGNATURE');
    const signedAt = now();
    clock.advance(301 * SECOND);
    expect(await rejection(parse(body, signSandboxPayload(secret, body, signedAt)))).toBe(
      'INVALID_SIGNATURE',
    );
    expect(await rejection(parse(body, signSandboxPayload(secret, body, now())))).toBeUndefined();
  });
});
