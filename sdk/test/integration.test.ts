import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOrder,
  createPartnerClient,
  isNotModified,
  newIdempotencyKey,
  PartnerApiError,
  unwrap,
  type PartnerClient,
  type Plan,
} from '../src/index.js';
import { startLiveService, type LiveService } from './live-service.js';

/**
 * The SDK against a running service: a partner registers, generates a key, funds the wallet on
 * the sandbox card page, reads the catalog and places an order with an Idempotency-Key.
 * Registration and top-up belong to the Mobile/Web API, so they use plain fetch.
 */
describe('Partner SDK against a live service', () => {
  let service: LiveService;
  let client: PartnerClient;
  let apiKey: string;

  async function mobile(path: string, token: string | undefined, body?: unknown) {
    const res = await fetch(`${service.baseUrl}/api/v1${path}`, {
      method: 'POST',
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'manual',
    });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  }

  beforeAll(async () => {
    service = await startLiveService();
    const email = `sdk-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@partner.example`;
    const registered = await mobile('/auth/register', undefined, {
      firstName: 'Ada',
      lastName: 'Partner',
      email,
      password: 'a long sdk test password',
    });
    expect(registered.status).toBe(200);
    const token = registered.json.token as string;
    const generated = await mobile('/user/api-key/generate', token);
    expect(generated.status).toBe(200);
    apiKey = generated.json.key as string;
    expect(apiKey).toMatch(/^svc_(live|test)_sk_/);

    // $50.00 on the sandbox card page, the way a shopper presses "Pay".
    const session = await mobile('/payments/card/create-session', token, { amount: 5000, currency: 'USD' });
    expect(session.status).toBe(200);
    const paid = await fetch(`${session.json.url as string}/complete`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ outcome: 'paid' }),
      redirect: 'manual',
    });
    expect(paid.status).toBe(303);

    client = createPartnerClient({ baseUrl: service.baseUrl, apiKey });
  });

  afterAll(async () => {
    await service?.stop();
  });

  it('reads the wallet the top-up credited', async () => {
    const wallet = await unwrap(client.GET('/api/public/v1/wallet'));
    expect(wallet).toEqual({ balanceUsd: 50, currency: 'USD', lowBalanceThreshold: 50 });
  });

  it('lists destinations, orders with an Idempotency-Key, and gets the order', async () => {
    const catalog = await unwrap(client.GET('/api/public/v1/destinations'));
    expect(catalog.countries.length).toBeGreaterThan(0);
    const plan = catalog.countries
      .flatMap((country) => country.plans)
      .find((p: Plan) => !p.isTopUp && p.priceUsd <= 25);
    expect(plan).toBeDefined();

    const country = await unwrap(
      client.GET('/api/public/v1/destinations/{code}', {
        params: { path: { code: catalog.countries[0]!.code } },
      }),
    );
    expect(country.code).toBe(catalog.countries[0]!.code);

    const idempotencyKey = newIdempotencyKey();
    const first = await createOrder(client, { planId: plan!.id, quantity: 1 }, { idempotencyKey });
    expect(first.response.status).toBe(201);
    const order = first.data!;
    expect(order.status).toBe('COMPLETED');
    expect(order.esims).toHaveLength(1);
    expect(order.esims[0]!.activationCode).toMatch(/^LPA:1\$/);

    // A retry with the same key answers the same order and charges once.
    const retry = await createOrder(client, { planId: plan!.id, quantity: 1 }, { idempotencyKey });
    expect(retry.response.status).toBe(201);
    expect(retry.data!.id).toBe(order.id);
    const wallet = await unwrap(client.GET('/api/public/v1/wallet'));
    expect(wallet.balanceUsd).toBeCloseTo(50 - plan!.priceUsd, 2);

    // The same key with another body is refused.
    const reused = await createOrder(client, { planId: plan!.id, quantity: 2 }, { idempotencyKey });
    expect(reused.response.status).toBe(409);
    expect(reused.error?.error.code).toBe('IDEMPOTENCY_KEY_REUSED');

    const fetched = await unwrap(
      client.GET('/api/public/v1/orders/{id}', { params: { path: { id: order.id } } }),
    );
    expect(fetched.id).toBe(order.id);
    expect(fetched.esims[0]!.iccid).toBe(order.esims[0]!.iccid);
    expect(typeof fetched.esims[0]!.dataUsageMb).toBe('number');

    const list = await unwrap(client.GET('/api/public/v1/orders', { params: { query: { limit: 10 } } }));
    expect(list.orders.map((o) => o.id)).toEqual([order.id]);
    expect(list.hasMore).toBe(false);
  });

  it('answers NotModified to a conditional catalog GET whose ETag is current (H19)', async () => {
    const first = await client.GET('/api/public/v1/destinations');
    const etag = first.response.headers.get('etag');
    expect(etag).toBeTruthy();
    const again = await unwrap(
      client.GET('/api/public/v1/destinations', { params: { header: { 'If-None-Match': etag! } } }),
    );
    expect(again).toEqual({ notModified: true, status: 304, etag });
    expect(isNotModified(again)).toBe(true);
  });

  it('turns error answers into typed errors', async () => {
    const missing = client.GET('/api/public/v1/orders/{id}', {
      params: { path: { id: 'ord_does_not_exist' } },
    });
    const err = await unwrap(missing).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PartnerApiError);
    expect(err).toMatchObject({ status: 404, code: 'ORDER_NOT_FOUND' });
    expect((err as PartnerApiError).requestId).toBeTruthy();

    const stranger = createPartnerClient({ baseUrl: service.baseUrl, apiKey: 'svc_live_sk_not_a_real_key' });
    const denied = await stranger.GET('/api/public/v1/wallet');
    expect(denied.response.status).toBe(401);
    expect(denied.error?.error.code).toBe('UNAUTHORIZED');
  });
});
