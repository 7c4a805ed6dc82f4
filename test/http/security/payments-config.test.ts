import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, appSecrets, payments } from '../../../src/db/schema/index.js';
import { SANDBOX_SECRET_NAME } from '../../../src/providers/payments/registry.js';
import { signSandboxPayload } from '../../../src/providers/payments/sandbox.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { balanceOf, createUser, type TestUser } from '../../helpers/factories.js';

/** S1 (HTTP side; the refusal of mixed configurations is in test/config/config.test.ts) and S6, S7. */

const stripeEnv = {
  CARD_PROVIDER: 'stripe',
  CRYPTO_PROVIDER: 'off',
  STRIPE_SECRET_KEY: 'sk_test_never_called',
  STRIPE_WEBHOOK_SECRET: 'whsec_never_called',
  STRIPE_API_BASE_URL: 'http://127.0.0.1:1',
};

function sandboxEvent(paymentId: string, kind: 'card' | 'crypto', amountMinor: number) {
  return JSON.stringify({
    id: `evt_forged_${paymentId}`,
    type: `${kind}.paid`,
    data: {
      object: { id: 'cs_sbx_forged', reference: paymentId, amountMinor, currency: 'USD', status: 'paid' },
    },
  });
}

describe('S1: a real card provider with crypto switched off', () => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await buildTestApp({ env: stripeEnv });
    user = await createUser(t.container);
  });
  afterAll(async () => t.close());

  it('registers no sandbox hosted page at all', async () => {
    for (const url of ['/sandbox/crypto/inv_sbx_x', '/sandbox/card/cs_sbx_x']) {
      expect((await t.app.inject({ url })).statusCode).toBe(404);
      const complete = await t.app.inject({
        method: 'POST',
        url: `${url}/complete`,
        payload: { outcome: 'paid' },
      });
      expect(complete.statusCode).toBe(404);
    }
  });

  it('answers 503 SERVICE_UNAVAILABLE for a crypto invoice and records no payment', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/payments/crypto/create-invoice',
      headers: { ...user.auth, 'accept-language': 'en' },
      payload: { amount: '10' },
    });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(await t.container.db.select().from(payments).where(eq(payments.accountId, user.id))).toEqual([]);
  });

  it('credits nothing for sandbox-signed webhooks, whatever secret they use', async () => {
    const now = Math.floor(t.clock.now().getTime() / 1000);
    for (const secret of [
      'sandbox-webhook-secret-change-me',
      await t.container.paymentProviders.sandboxSecret(),
    ]) {
      for (const kind of ['card', 'crypto'] as const) {
        const body = sandboxEvent('pay_whatever', kind, 100_000);
        const res = await t.app.inject({
          method: 'POST',
          url: `/api/v1/payments/${kind}/webhook`,
          headers: {
            'content-type': 'application/json',
            'sandbox-signature': signSandboxPayload(secret, body, now),
          },
          payload: body,
        });
        expect(res.statusCode).toBe(kind === 'card' ? 400 : 404);
      }
    }
    expect(await balanceOf(t.container, user.id)).toBe(0);
  });
});

describe('S1: the sandbox webhook secret', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t.close());

  it('is random, kept in the database, shared by instances; the published constant is refused', async () => {
    const user = await createUser(t.container);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/payments/card/create-session',
      headers: user.auth,
      payload: { amount: 1000, currency: 'USD' },
    });
    expect(res.statusCode).toBe(200);
    const [payment] = await t.container.db.select().from(payments).where(eq(payments.accountId, user.id));
    const now = Math.floor(t.clock.now().getTime() / 1000);
    const webhook = (secret: string) => {
      const body = sandboxEvent(payment!.id, 'card', 1000).replace('cs_sbx_forged', payment!.providerRef!);
      return t.app.inject({
        method: 'POST',
        url: '/api/v1/payments/card/webhook',
        headers: {
          'content-type': 'application/json',
          'sandbox-signature': signSandboxPayload(secret, body, now),
        },
        payload: body,
      });
    };

    const published = await webhook('sandbox-webhook-secret-change-me');
    expect(published.statusCode).toBe(400);
    expect(published.json()).toMatchObject({ code: 'INVALID_SIGNATURE' });
    expect(await balanceOf(t.container, user.id)).toBe(0);

    const [stored] = await t.container.db
      .select()
      .from(appSecrets)
      .where(eq(appSecrets.name, SANDBOX_SECRET_NAME));
    expect(stored!.value.length).toBeGreaterThanOrEqual(32);
    const second = await buildTestApp({ shareWith: t });
    try {
      expect(await second.container.paymentProviders.sandboxSecret()).toBe(stored!.value);
    } finally {
      await second.close();
    }
    const signed = await webhook(stored!.value);
    expect(signed.json()).toEqual({ received: true, outcome: 'credited' });
    expect(await balanceOf(t.container, user.id)).toBe(1000);
  });
});

describe('S6 and S7: top-up bounds in US dollars and redirect targets', () => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await buildTestApp({ env: { APP_URL_SCHEMES: 'myapp,esim-app' } });
    user = await createUser(t.container);
  });
  afterAll(async () => t.close());

  const card = (payload: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/payments/card/create-session',
      headers: user.auth,
      payload,
    });
  const crypto = (payload: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/payments/crypto/create-invoice',
      headers: user.auth,
      payload,
    });

  it('refuses a card top-up worth less than US$2 in another currency (200 kuruş)', async () => {
    const res = await card({ amount: 200, currency: 'TRY' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
  });

  it('refuses top-ups over US$10,000 by card and by crypto', async () => {
    expect((await card({ amount: 1_000_001, currency: 'USD' })).statusCode).toBe(400);
    expect((await card({ amount: 1_000_000, currency: 'USD' })).statusCode).toBe(200);
    const huge = await crypto({ amount: '999999999999.99' });
    expect(huge.statusCode).toBe(400);
    expect(huge.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect((await crypto({ amount: '10000.01' })).statusCode).toBe(400);
    expect((await crypto({ amount: '10000' })).statusCode).toBe(200);
  });

  it('never lets an operator adjustment push a balance past the safe-integer range', async () => {
    const admin = { authorization: `Bearer ${t.config.adminToken}` };
    const adjust = (amountUsd: number) =>
      t.app.inject({
        method: 'POST',
        url: `/api/admin/v1/accounts/${user.id}/wallet/adjustments`,
        headers: admin,
        payload: { amountUsd, reason: 'limit test' },
      });
    const first = await adjust(999_999_999_999.99);
    expect(first.statusCode).toBe(200);
    // Bring the balance next to the limit directly; ~90 maximal adjustments would do the same.
    const nearMax = Number.MAX_SAFE_INTEGER - 50;
    await t.container.db
      .update(accounts)
      .set({ walletBalanceCents: nearMax })
      .where(eq(accounts.id, user.id));
    const over = await adjust(1);
    expect(over.statusCode).toBe(400);
    expect(over.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR' } });
    expect(await balanceOf(t.container, user.id)).toBe(nearMax);
    expect((await adjust(0.5)).statusCode).toBe(200);
    expect(await balanceOf(t.container, user.id)).toBe(Number.MAX_SAFE_INTEGER);
  });

  it.each([
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    'java\tscript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'file:///etc/passwd',
    'intent://scan/#Intent;scheme=zxing;end',
    'vbscript:msgbox(1)',
    'otherapp://wallet',
    'http://shop.example/wallet',
    'https://user:pass@shop.example/',
    '//shop.example/wallet',
    '/relative',
  ])('refuses the redirect target %s with 400', async (target) => {
    for (const res of [
      await card({ amount: 500, successUrl: target }),
      await card({ amount: 500, cancelUrl: target }),
      await crypto({ amount: '5', url_return: target }),
    ]) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    }
  });

  it.each([
    'https://shop.example/wallet?x=1',
    'http://localhost:5173/wallet',
    'http://127.0.0.1:8080/done',
    'http://[::1]:8080/done',
    'myapp://wallet/done',
    'esim-app://payment',
  ])('accepts the redirect target %s', async (target) => {
    expect((await card({ amount: 500, successUrl: target, cancelUrl: target })).statusCode).toBe(200);
    expect((await crypto({ amount: '5', url_return: target })).statusCode).toBe(200);
  });
});
