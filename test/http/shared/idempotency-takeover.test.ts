import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idempotencyKeys, orders } from '../../../src/db/schema/index.js';
import { IDEMPOTENCY_LEASE_MS, requestHash } from '../../../src/domain/idempotency/store.js';
import { SECOND } from '../../../src/lib/clock.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { pickPlan } from '../../helpers/catalog.js';
import { balanceOf, createUser, type TestUser } from '../../helpers/factories.js';
import { expectLedgerInvariant } from '../../helpers/ledger.js';

/**
 * A key left in progress by a request whose process died: before, 409 IDEMPOTENCY_KEY_IN_USE for
 * 24 h; now a retry after the lease takes it over, and never charges twice (the injectable clock
 * stands in for the minute that passes).
 */
let t: TestApp;
let planId: string;
let PRICE: number;

beforeAll(async () => {
  t = await buildTestApp();
  const plan = await pickPlan(t.container);
  planId = plan.id;
  PRICE = plan.effectivePriceCents;
});
afterAll(() => t.close());

const body = () => ({ planId, quantity: 1, paymentMethod: 'wallet' });
const checkout = (user: TestUser, key: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/checkout',
    headers: { ...user.auth, 'idempotency-key': key },
    payload: body(),
  });

/** The row a crashed request leaves: claimed, maybe bound to the order it placed, never completed. */
async function deadClaim(user: TestUser, key: string, bound?: { orderId: string }) {
  await t.container.db.insert(idempotencyKeys).values({
    accountId: user.id,
    scope: 'mobile.checkout',
    key,
    requestHash: requestHash(body()),
    status: 'in_progress',
    responseBody: bound ? { $bound: bound } : null,
    createdAt: t.clock.now(),
  });
}

const ordersOf = (user: TestUser) =>
  t.container.db.select().from(orders).where(eq(orders.accountId, user.id));

describe('Idempotency-Key takeover after a crash', () => {
  it('a retry after the lease answers from the order the dead request placed, without charging again', async () => {
    const user = await createUser(t.container, { balanceCents: 2 * PRICE });
    const placed = await t.container.orders.placeOrder({
      accountId: user.id,
      channel: 'mobile',
      planId,
      quantity: 1,
      paymentMethod: 'wallet',
    });
    await deadClaim(user, 'crashed-1', { orderId: placed.order.id });
    t.clock.advance(IDEMPOTENCY_LEASE_MS + SECOND);

    const retry = await checkout(user, 'crashed-1');
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toMatchObject({ success: true, orderId: placed.order.id, status: 'COMPLETED' });
    const again = await checkout(user, 'crashed-1');
    expect(again.json()).toEqual(retry.json());
    expect(await ordersOf(user)).toHaveLength(1);
    expect(await balanceOf(t.container, user.id)).toBe(PRICE);
    await expectLedgerInvariant(t.container);
  });

  it('a dead request that placed nothing is simply run again by the retry', async () => {
    const user = await createUser(t.container, { balanceCents: 2 * PRICE });
    await deadClaim(user, 'crashed-2');
    t.clock.advance(IDEMPOTENCY_LEASE_MS + SECOND);
    const retry = await checkout(user, 'crashed-2');
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toMatchObject({ success: true, status: 'COMPLETED' });
    expect(await ordersOf(user)).toHaveLength(1);
    expect(await balanceOf(t.container, user.id)).toBe(PRICE);
  });
});
