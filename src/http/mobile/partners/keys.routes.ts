import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../../domain/errors.js';
import { MIN_TOPUP_MINOR } from '../../../domain/payments/payments.service.js';
import { HOUR } from '../../../lib/clock.js';
import { centsToUsd, CURRENCIES, type Currency } from '../../../lib/money.js';
import { createRateLimitGuard } from '../../shared/rate-limit.js';
import { IsoDate, mobileErrors, Nullable } from '../../shared/schemas.js';

const Mode = Type.Union([Type.Literal('live'), Type.Literal('test')]);
const KeyInfo = Nullable(
  Type.Object(
    {
      apiKeyPrefix: Type.String({ description: 'Display form, e.g. svc_test_sk_AbCd…WxYz (never the key)' }),
      apiKeyGeneratedAt: IsoDate,
    },
    { title: 'PartnerKeyInfo' },
  ),
);
const RedirectUrl = Type.String({ maxLength: 2048, description: 'http(s) URL to return to after paying' });
const tags = ['Partner dashboard'];

/** The partner's API keys, test wallet reset and wallet top-ups (issue 32 C1, C4), in the dashboard scope. */
export async function keysRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { partnerConsole, config } = app.container;
  const perHour = config.abuseLimits.paymentSessionsPerHour;
  // The same budget as a member's own top-ups (POST /payments/card/create-session), per partner:
  // a team cannot open payment sessions faster than one account can.
  const topUpLimit = await createRateLimitGuard(app, [
    {
      name: 'payment-session:partner',
      max: perHour,
      windowMs: HOUR,
      key: (request) => (request.params as { partnerId?: string }).partnerId,
    },
  ]);

  r.get(
    '/keys',
    {
      config: { permission: 'keys.read' },
      schema: {
        operationId: 'listPartnerKeys',
        tags,
        summary: "The partner's API keys",
        description:
          'Display prefix and generation time of the live and the test key (null when none); never a key.',
        response: { 200: Type.Object({ live: KeyInfo, test: KeyInfo }) },
      },
    },
    async (request) => {
      const keys = await partnerConsole.keys(request.partnerAccess!.partnerId);
      const show = (k: (typeof keys)['live']) =>
        k ? { apiKeyPrefix: k.apiKeyPrefix, apiKeyGeneratedAt: k.apiKeyGeneratedAt.toISOString() } : null;
      return { live: show(keys.live), test: show(keys.test) };
    },
  );

  r.post(
    '/keys',
    {
      config: { permission: 'keys.write' },
      schema: {
        operationId: 'generatePartnerKey',
        tags,
        summary: 'Generate or rotate a key',
        description:
          "Replaces the partner's key of `mode` (the old one stops working at once); the key belongs to the " +
          'partner, not to you, and appears only in this response. The first test key opens the test wallet ' +
          'with 1000.00 USD. Audited (without the key).',
        body: Type.Object({ mode: Mode }, { additionalProperties: false }),
        response: {
          200: Type.Object({
            key: Type.String({
              description: 'svc_live_sk_ or svc_test_sk_ and 40 base62 characters; shown once',
            }),
            mode: Mode,
            apiKeyPrefix: Type.String(),
            apiKeyGeneratedAt: IsoDate,
          }),
        },
      },
    },
    async (request) => {
      const made = await partnerConsole.rotateKey(request.partnerAccess!, request.body.mode, request.id);
      return { ...made, apiKeyGeneratedAt: made.apiKeyGeneratedAt.toISOString() };
    },
  );

  r.post(
    '/test-wallet/reset',
    {
      config: { permission: 'testmode.write' },
      schema: {
        operationId: 'resetPartnerTestWallet',
        tags,
        summary: 'Reset the test wallet',
        description:
          "Sets the partner's test wallet back to 1000.00 USD (what the Partner API's POST /test/wallet/reset does). " +
          'The live wallet is untouched.',
        response: { 200: Type.Object({ testBalanceUsd: Type.Number() }) },
      },
    },
    async (request) => ({
      testBalanceUsd: centsToUsd(await partnerConsole.resetTestWallet(request.partnerAccess!, request.id)),
    }),
  );

  r.post(
    '/wallet/top-ups',
    {
      config: { permission: 'wallet.topup' },
      preHandler: topUpLimit,
      schema: {
        operationId: 'createPartnerTopUp',
        tags,
        summary: "Top up the partner's wallet",
        description:
          "Opens a card payment page (or crypto invoice) whose payment credits the PARTNER's live wallet, not " +
          'yours, once the provider confirms it, like any top-up. `amount` in minor units of `currency` ' +
          `(crypto: USD cents), at least ${MIN_TOPUP_MINOR}. Live mode only (?mode=test: 400). At most ${perHour} ` +
          'payment sessions per partner per hour (429 RATE_LIMITED with Retry-After).',
        body: Type.Object(
          {
            method: Type.Union([Type.Literal('card'), Type.Literal('crypto')]),
            amount: Type.Integer({ minimum: MIN_TOPUP_MINOR, maximum: 100_000_000 }),
            currency: Type.Optional(
              Type.String({ pattern: '^[A-Za-z]{3}$', default: 'USD', description: CURRENCIES.join(', ') }),
            ),
            successUrl: Type.Optional(RedirectUrl),
            cancelUrl: Type.Optional(RedirectUrl),
          },
          { additionalProperties: false },
        ),
        response: {
          201: Type.Object({
            paymentId: Type.String(),
            url: Type.String({ description: 'Open it in a browser to pay' }),
          }),
          ...mobileErrors(429, 502, 503),
        },
      },
    },
    async (request, reply) => {
      if (!request.livemode)
        throw new AppError('VALIDATION_ERROR', 'Top-ups are live money: drop ?mode=test', { field: 'mode' });
      const { method, amount, currency = 'USD', successUrl, cancelUrl } = request.body;
      const started = await partnerConsole.startTopUp(
        request.partnerAccess!,
        { method, amountCents: amount, currency: currency.toUpperCase() as Currency, successUrl, cancelUrl },
        request.id,
      );
      reply.code(201);
      return started;
    },
  );
}
