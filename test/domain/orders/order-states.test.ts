import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  esims,
  fulfillmentAttempts,
  sandboxEsimProfiles,
  walletTransactions,
} from '../../../src/db/schema/index.js';
import type { AppError } from '../../../src/domain/errors.js';
import { EsimProviderError, type ProviderProfile } from '../../../src/providers/esim/types.js';
import { pickPlan } from '../../helpers/catalog.js';
import { buildTestContainer, type TestContainer } from '../../helpers/container.js';
import { balanceOf, createUser } from '../../helpers/factories.js';
import { expectLedgerInvariant } from '../../helpers/ledger.js';

/**
 * Rules tier: the order states PROCESSING → COMPLETED | REFUNDED, on the domain services alone.
 * The container is built with an eSIM provider that is down until a test lets it answer.
 */
describe('order state transitions', () => {
  let c: TestContainer;
  let planId: string;
  let price: number;
  let providerUp = false;
  let issueCalls = 0;
  /** Runs while the provider issues, before it answers (a concurrent refund, say). */
  let duringIssue: (() => Promise<unknown>) | undefined;
  /** Replaces what the provider answers (a provider repeating a profile, say). */
  let answer: ((issued: ProviderProfile[]) => ProviderProfile[]) | undefined;
  const cancelled: string[] = [];

  beforeAll(async () => {
    c = await buildTestContainer({
      esimProvider: (sandbox) => ({
        ...sandbox,
        issueProfiles: async (request) => {
          issueCalls += 1;
          if (!providerUp) throw new EsimProviderError('unavailable', 'provider down (test)', true);
          const issued = await sandbox.issueProfiles(request);
          await duringIssue?.();
          return answer ? answer(issued) : issued;
        },
        cancelProfile: async (ref) => {
          cancelled.push(ref);
          return sandbox.cancelProfile(ref);
        },
      }),
    });
    const plan = await pickPlan(c.container);
    planId = plan.id;
    price = plan.effectivePriceCents;
  });
  afterAll(() => c.close());

  /** A wallet order whose first fulfillment attempt failed: charged and PROCESSING. */
  async function processingOrder() {
    providerUp = false;
    const user = await createUser(c.container, { balanceCents: price });
    const failure = await c.container.orders
      .placeOrder({ accountId: user.id, channel: 'partner', planId, quantity: 1, paymentMethod: 'wallet' })
      .then(
        () => null,
        (error: AppError) => error,
      );
    expect(failure?.code).toBe('FULFILLMENT_FAILED');
    const orderId = (failure!.details as { orderId: string }).orderId;
    expect((await c.container.orders.fulfillment.loadOrder(orderId)).status).toBe('PROCESSING');
    expect(await balanceOf(c.container, user.id)).toBe(0);
    return { user, orderId };
  }

  it('PROCESSING → COMPLETED by a later attempt; a COMPLETED order is never refunded nor issued again', async () => {
    const { user, orderId } = await processingOrder();
    providerUp = true;
    const done = await c.container.orders.fulfillment.attempt(orderId, 'job');
    expect(done).toMatchObject({ ok: true, order: { status: 'COMPLETED' } });
    expect(await c.container.orders.fulfillment.refund(orderId, 'too late')).toBeNull();
    const calls = issueCalls;
    expect(await c.container.orders.fulfillment.attempt(orderId, 'admin')).toMatchObject({ ok: true });
    expect(issueCalls).toBe(calls);
    expect((await c.container.orders.fulfillment.loadOrder(orderId)).status).toBe('COMPLETED');
    expect(await balanceOf(c.container, user.id)).toBe(0);
    await expectLedgerInvariant(c.container);
  });

  it('PROCESSING → REFUNDED credits the price back once; a REFUNDED order is never completed', async () => {
    const { user, orderId } = await processingOrder();
    const refunded = await c.container.orders.fulfillment.refund(orderId, 'gave up');
    expect(refunded).toMatchObject({ id: orderId, status: 'REFUNDED' });
    expect(await c.container.orders.fulfillment.refund(orderId, 'again')).toBeNull();
    expect(await balanceOf(c.container, user.id)).toBe(price);
    const rows = await c.container.db
      .select({ kind: walletTransactions.kind, amount: walletTransactions.amountCents })
      .from(walletTransactions)
      .where(eq(walletTransactions.orderId, orderId));
    expect(rows.map((r) => [r.kind, r.amount]).sort()).toEqual([
      ['purchase', -price],
      ['refund', price],
    ]);

    providerUp = true;
    const calls = issueCalls;
    const late = await c.container.orders.fulfillment.attempt(orderId, 'job');
    expect(late).toMatchObject({ ok: false, retryable: false, order: { status: 'REFUNDED' } });
    expect(issueCalls).toBe(calls);
    await expectLedgerInvariant(c.container);
  });

  it('a refund that wins while the provider issues: no eSIM is stored, the profiles are handed back', async () => {
    const { user, orderId } = await processingOrder();
    providerUp = true;
    duringIssue = () => c.container.orders.fulfillment.refund(orderId, 'refunded meanwhile');
    try {
      const result = await c.container.orders.fulfillment.attempt(orderId, 'admin');
      expect(result).toMatchObject({ ok: false, retryable: false, order: { status: 'REFUNDED' } });
    } finally {
      duringIssue = undefined;
    }
    expect(await c.container.db.select().from(esims).where(eq(esims.orderId, orderId))).toEqual([]);
    const [profile] = await c.container.db
      .select()
      .from(sandboxEsimProfiles)
      .where(eq(sandboxEsimProfiles.orderRef, orderId));
    expect(cancelled).toContain(profile!.esimTranNo);
    expect(await balanceOf(c.container, user.id)).toBe(price);
    await expectLedgerInvariant(c.container);
  });

  it("a provider repeating another order's profile: nothing is stored, the attempt fails and is retried", async () => {
    providerUp = true;
    const first = await c.container.orders.placeOrder({
      accountId: (await createUser(c.container, { balanceCents: price })).id,
      channel: 'partner',
      planId,
      quantity: 1,
      paymentMethod: 'wallet',
    });
    const repeated = first.esims[0]!;
    const { orderId } = await processingOrder();
    providerUp = true;
    answer = (issued) => [{ ...issued[0]!, providerRef: repeated.providerRef }, ...issued.slice(1)];
    try {
      const result = await c.container.orders.fulfillment.attempt(orderId, 'job');
      // Never COMPLETED without its eSIM: the job retries, and refunds when retries run out.
      expect(result).toMatchObject({
        ok: false,
        retryable: true,
        order: { status: 'PROCESSING', fulfillmentAttempts: 2 },
      });
      expect((result as { error: Error }).error.message).toMatch(/already stored for another order/);
    } finally {
      answer = undefined;
    }
    const attempts = await c.container.db
      .select()
      .from(fulfillmentAttempts)
      .where(eq(fulfillmentAttempts.orderId, orderId));
    expect(attempts.map((a) => a.outcome)).toEqual(['failure', 'failure']);
    expect(await c.container.db.select().from(esims).where(eq(esims.orderId, orderId))).toEqual([]);
    // The earlier order's eSIM is untouched.
    const [still] = await c.container.db.select().from(esims).where(eq(esims.id, repeated.id));
    expect(still!.orderId).toBe(first.order.id);
    await expectLedgerInvariant(c.container);
  });
});
