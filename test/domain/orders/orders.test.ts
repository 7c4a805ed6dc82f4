import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accounts,
  esims,
  idempotencyKeys,
  jobs,
  orders,
  plans,
  sandboxEsimProfiles,
  walletTransactions,
} from '../../../src/db/schema/index.js';
import { postAdjustment } from '../../../src/domain/wallet/postings.js';
import { createIdempotencyStore, type IdempotencyClaim } from '../../../src/domain/idempotency/store.js';
import { expectLedgerInvariant } from '../../helpers/ledger.js';
import type { AppError } from '../../../src/domain/errors.js';
import { ESIM_REFRESH_INTERVAL_MS } from '../../../src/domain/orders/order-jobs.js';
import { newOrderNumber } from '../../../src/domain/orders/order-numbers.js';
import { SECOND } from '../../../src/lib/clock.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { pickPlan } from '../../helpers/catalog.js';
import { balanceOf, createUser } from '../../helpers/factories.js';

let t: TestApp;
let planId: string;
let priceCents: number;
beforeAll(async () => {
  t = await buildTestApp();
  const plan = await pickPlan(t.container);
  planId = plan.id;
  priceCents = plan.effectivePriceCents;
});
afterAll(() => t.close());

describe('order numbers', () => {
  it('SVC- for mobile, SVC-API- for partner, readable and unique', () => {
    const at = new Date('2026-11-22T10:00:00Z');
    expect(newOrderNumber('mobile', at)).toMatch(/^SVC-261122-[0-9A-HJKMNP-TV-Z]{8}$/);
    expect(newOrderNumber('partner', at)).toMatch(/^SVC-API-261122-[0-9A-HJKMNP-TV-Z]{8}$/);
    const many = new Set(Array.from({ length: 5000 }, () => newOrderNumber('mobile', at)));
    expect(many.size).toBe(5000);
  });
});

describe('order service', () => {
  it('placeOrder for the partner channel completes synchronously with SVC-API- numbers', async () => {
    const user = await createUser(t.container, { balanceCents: priceCents });
    const placed = await t.container.orders.placeOrder({
      accountId: user.id,
      channel: 'partner',
      planId,
      quantity: 1,
      paymentMethod: 'wallet',
    });
    expect(placed.order.orderNumber).toMatch(/^SVC-API-/);
    expect(placed.order.status).toBe('COMPLETED');
    expect(placed.esims).toHaveLength(1);
    expect(placed.paymentUrl).toBeUndefined();
  });

  it('every wallet order pays the plan as it is now: a price or sale change since the last order is seen', async () => {
    const plan = await pickPlan(t.container);
    const user = await createUser(t.container, { balanceCents: 100_000 });
    const place = () =>
      t.container.orders.placeOrder({
        accountId: user.id,
        channel: 'partner',
        planId: plan.id,
        quantity: 2,
        paymentMethod: 'wallet',
      });
    const setPlan = (values: Partial<typeof plans.$inferInsert>) =>
      t.container.db.update(plans).set(values).where(eq(plans.id, plan.id));
    try {
      expect((await place()).order.amountCents).toBe(2 * plan.effectivePriceCents);
      // An operator's price override, written after the first order: the next order charges it.
      await setPlan({ priceOverrideCents: plan.effectivePriceCents + 100 });
      const repriced = await place();
      expect(repriced.order.amountCents).toBe(2 * (plan.effectivePriceCents + 100));
      expect(await balanceOf(t.container, user.id)).toBe(
        100_000 - 2 * plan.effectivePriceCents - 2 * (plan.effectivePriceCents + 100),
      );
      // Disabled by an operator: PLAN_NOT_FOUND, nothing written.
      await setPlan({ enabledByOperator: false });
      const before = await t.container.db.select().from(orders).where(eq(orders.accountId, user.id));
      const error = (await place().catch((e: unknown) => e)) as AppError;
      expect(error.code).toBe('PLAN_NOT_FOUND');
      expect(await t.container.db.select().from(orders).where(eq(orders.accountId, user.id))).toHaveLength(
        before.length,
      );
      // Sold again: found again, at its price.
      await setPlan({ enabledByOperator: true, priceOverrideCents: null });
      expect((await place()).order.amountCents).toBe(2 * plan.priceCents);
    } finally {
      await setPlan({ priceOverrideCents: plan.priceOverrideCents, enabledByOperator: true });
    }
  });

  it('a usual wallet order (plan seen before) is one statement: exact balance, then too little, live and test wallets', async () => {
    const plan = await pickPlan(t.container);
    const price = plan.effectivePriceCents;
    const seeder = await createUser(t.container, { balanceCents: price });
    const place = (accountId: string, livemode = true) =>
      t.container.orders.placeOrder({
        accountId,
        channel: 'partner',
        planId: plan.id,
        quantity: 1,
        paymentMethod: 'wallet',
        livemode,
      });
    await place(seeder.id); // the plan is seen from here on
    const user = await createUser(t.container, { balanceCents: price });
    await t.container.db.transaction((tx) =>
      postAdjustment(tx, {
        accountId: user.id,
        amountCents: price,
        description: 'test',
        at: t.clock.now(),
        livemode: false,
      }),
    );
    const rowsOf = async () => ({
      orders: await t.container.db.select().from(orders).where(eq(orders.accountId, user.id)),
      ledger: await t.container.db
        .select()
        .from(walletTransactions)
        .where(eq(walletTransactions.accountId, user.id)),
    });
    const placed = await place(user.id);
    expect(placed.order).toMatchObject({ status: 'COMPLETED', amountCents: price, livemode: true });
    expect(await balanceOf(t.container, user.id)).toBe(0);
    const after = await rowsOf();
    expect(after.ledger.filter((r) => r.kind === 'purchase')).toEqual([
      expect.objectContaining({
        amountCents: -price,
        balanceAfterCents: 0,
        orderId: placed.order.id,
        livemode: true,
      }),
    ]);
    // Nothing left: 402, and nothing written (no order, no job, no ledger row).
    const jobsBefore = (await t.container.db.select().from(jobs)).length;
    const error = (await place(user.id).catch((e: unknown) => e)) as AppError;
    expect(error.code).toBe('INSUFFICIENT_BALANCE');
    expect(await rowsOf()).toEqual(after);
    expect((await t.container.db.select().from(jobs)).length).toBe(jobsBefore);
    // Test mode: the test wallet pays; the live wallet is untouched.
    const test = await place(user.id, false);
    expect(test.order).toMatchObject({ status: 'COMPLETED', livemode: false });
    const [account] = await t.container.db.select().from(accounts).where(eq(accounts.id, user.id));
    expect(account).toMatchObject({ walletBalanceCents: 0, testWalletBalanceCents: 0 });
    await expectLedgerInvariant(t.container);
  });

  it('an order with an Idempotency-Key claim binds the order in its statement; a claim taken over places nothing', async () => {
    const plan = await pickPlan(t.container);
    const price = plan.effectivePriceCents;
    const store = createIdempotencyStore({ db: t.container.db, clock: t.clock });
    const user = await createUser(t.container, { balanceCents: 3 * price });
    const place = (claim: IdempotencyClaim) =>
      t.container.orders.placeOrder({
        accountId: user.id,
        channel: 'partner',
        planId: plan.id,
        quantity: 1,
        paymentMethod: 'wallet',
        idempotency: { claim },
      });
    const acquire = async (key: string) => {
      const acquired = await store.acquire({ accountId: user.id, scope: 'test.orders', key }, { key });
      expect(acquired.kind).toBe('run');
      return (acquired as { claim: IdempotencyClaim }).claim;
    };
    const rowOf = async (key: string) =>
      (
        await t.container.db
          .select()
          .from(idempotencyKeys)
          .where(and(eq(idempotencyKeys.accountId, user.id), eq(idempotencyKeys.key, key)))
      )[0]!;
    await place(await acquire('seen')); // the plan is seen from here on
    const claim = await acquire('k1');
    const placed = await place(claim);
    expect((await rowOf('k1')).responseBody).toEqual({ $bound: { orderId: placed.order.id } });

    // A retry took the claim over (its process was thought dead): this attempt must place nothing.
    const stale = await acquire('k2');
    await t.container.db
      .update(idempotencyKeys)
      .set({ createdAt: new Date(stale.claimedAt.getTime() + 1) })
      .where(and(eq(idempotencyKeys.accountId, user.id), eq(idempotencyKeys.key, 'k2')));
    const before = await t.container.db.select().from(orders).where(eq(orders.accountId, user.id));
    await expect(place(stale)).rejects.toThrow(/taken over/);
    expect(await t.container.db.select().from(orders).where(eq(orders.accountId, user.id))).toHaveLength(
      before.length,
    );
    expect(await balanceOf(t.container, user.id)).toBe(price);
    expect((await rowOf('k2')).responseBody).toBeNull();
    await expectLedgerInvariant(t.container);
  });

  it('rejects quantity outside 1–10 and unknown plans with domain errors', async () => {
    const user = await createUser(t.container, { balanceCents: 100_000 });
    const place = (over: object) =>
      t.container.orders
        .placeOrder({
          accountId: user.id,
          channel: 'partner',
          planId,
          quantity: 1,
          paymentMethod: 'wallet',
          ...over,
        })
        .then(
          () => null,
          (e: AppError) => e.code,
        );
    expect(await place({ quantity: 11 })).toBe('VALIDATION_ERROR');
    expect(await place({ quantity: 0 })).toBe('VALIDATION_ERROR');
    expect(await place({ planId: 'plan_missing' })).toBe('PLAN_NOT_FOUND');
  });

  it('listOrders pages newest first with limit, hasMore and startingAfter', async () => {
    const user = await createUser(t.container, { balanceCents: priceCents * 3 });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const placed = await t.container.orders.placeOrder({
        accountId: user.id,
        channel: 'partner',
        planId,
        quantity: 1,
        paymentMethod: 'wallet',
      });
      ids.unshift(placed.order.id);
      t.clock.advance(SECOND);
    }
    const page1 = await t.container.orders.listOrders(user.id, { limit: 2 });
    expect(page1.orders.map((o) => o.id)).toEqual(ids.slice(0, 2));
    expect(page1.hasMore).toBe(true);
    const page2 = await t.container.orders.listOrders(user.id, { limit: 2, startingAfter: ids[1] });
    expect(page2).toMatchObject({ hasMore: false });
    expect(page2.orders.map((o) => o.id)).toEqual([ids[2]]);
    const other = await createUser(t.container);
    await expect(t.container.orders.getOrder(other.id, ids[0]!)).rejects.toMatchObject({
      code: 'ORDER_NOT_FOUND',
    });
  });

  it('the periodic esims.refresh job updates status and usage and schedules its next run once', async () => {
    const user = await createUser(t.container, { balanceCents: priceCents });
    const placed = await t.container.orders.placeOrder({
      accountId: user.id,
      channel: 'mobile',
      planId,
      quantity: 1,
      paymentMethod: 'wallet',
    });
    const esim = placed.esims[0]!;
    await t.container.db
      .update(sandboxEsimProfiles)
      .set({ usedMb: 42, status: 'ACTIVE', activatedAt: t.clock.now() })
      .where(eq(sandboxEsimProfiles.esimTranNo, esim.providerRef));
    await t.container.startup();
    await t.container.startup(); // a second instance starting: still one refresh job
    t.clock.advance(t.config.usageCacheSeconds * SECOND);
    const pending = () =>
      t.container.db
        .select()
        .from(jobs)
        .where(and(eq(jobs.kind, 'esims.refresh'), eq(jobs.status, 'pending')));
    expect(await pending()).toHaveLength(1);
    await t.container.worker.runDue();
    const [row] = await t.container.db.select().from(esims).where(eq(esims.id, esim.id));
    expect(row).toMatchObject({ status: 'ACTIVE', dataUsageMb: 42 });
    expect(row!.activatedAt).not.toBeNull();
    const next = await pending();
    expect(next).toHaveLength(1);
    expect(next[0]!.runAt.getTime()).toBeGreaterThanOrEqual(
      t.clock.now().getTime() + ESIM_REFRESH_INTERVAL_MS - 1,
    );
  });
});
