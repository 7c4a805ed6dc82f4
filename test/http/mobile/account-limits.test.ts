import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { registerViaApi } from '../../helpers/accounts.js';

/**
 * Issue 28 H9: payment sessions (card top-up sessions, crypto invoices, card/crypto checkouts,
 * one shared budget) and support tickets and their messages are limited per account.
 */
describe('per-account limits on payment sessions and tickets', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      env: { PAYMENT_SESSION_LIMIT: '3', TICKET_LIMIT: '2', TICKET_MESSAGE_LIMIT: '2' },
    });
  });
  afterAll(() => t.close());

  const post = (auth: Record<string, string>, url: string, payload: object) =>
    t.app.inject({ method: 'POST', url, headers: auth, payload });
  const card = (auth: Record<string, string>) =>
    post(auth, '/api/v1/payments/card/create-session', { amount: 500, currency: 'USD' });
  const crypto = (auth: Record<string, string>) =>
    post(auth, '/api/v1/payments/crypto/create-invoice', { amount: '5' });
  const checkout = (auth: Record<string, string>, paymentMethod: string) =>
    post(auth, '/api/v1/checkout', { planId: 'no-such-plan', paymentMethod });

  function expectLimited(res: LightMyRequestResponse) {
    expect(res.statusCode, res.body).toBe(429);
    expect(res.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.headers['x-ratelimit-limit']).toBeDefined();
  }

  it('card sessions, crypto invoices and card/crypto checkouts share one budget per account', async () => {
    const user = await registerViaApi(t.app);
    expect((await card(user.auth)).statusCode).toBe(200);
    expect((await crypto(user.auth)).statusCode).toBe(200);
    // A checkout that would open a card payment spends the budget too (then fails on its plan).
    expect((await checkout(user.auth, 'card')).statusCode).toBe(400);
    expectLimited(await card(user.auth));
    expectLimited(await crypto(user.auth));
    expectLimited(await checkout(user.auth, 'crypto'));
    // A wallet checkout opens no payment session: not limited here.
    expect((await checkout(user.auth, 'wallet')).statusCode).toBe(400);
    // Another account has its own budget.
    const other = await registerViaApi(t.app);
    expect((await card(other.auth)).statusCode).toBe(200);
  });

  it('new tickets per day and ticket messages per hour, per account', async () => {
    const user = await registerViaApi(t.app);
    const open = () =>
      post(user.auth, '/api/v1/support/tickets', { subject: 'Help', message: 'x'.repeat(500) });
    const first = await open();
    expect(first.statusCode).toBe(201);
    expect((await open()).statusCode).toBe(201);
    expectLimited(await open());

    const ticketId = first.json().ticket.id as string;
    const reply = () => post(user.auth, `/api/v1/support/tickets/${ticketId}/messages`, { message: 'more' });
    expect((await reply()).statusCode).toBe(201);
    expect((await reply()).statusCode).toBe(201);
    expectLimited(await reply());

    const other = await registerViaApi(t.app);
    expect(
      (await post(other.auth, '/api/v1/support/tickets', { subject: 'Hi', message: 'hello' })).statusCode,
    ).toBe(201);
  });
});
