import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders as ordersTable, supportTickets } from '../../../src/db/schema/index.js';
import type { SellablePlan } from '../../../src/domain/catalog/catalog.service.js';
import { centsToUsd } from '../../../src/lib/money.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { pickPlan } from '../../helpers/catalog.js';
import { balanceOf } from '../../helpers/factories.js';
import { adminPost, createPartner, postOrder } from './helpers.js';
import { expectLedgerInvariant } from '../../helpers/ledger.js';

const ORDERS = '/api/public/v1/orders';

/** Partner orders where money is at stake: parallel charges, provider failure, retry, refund. */
describe('Partner orders: money', () => {
  let t: TestApp;
  let plan: SellablePlan;
  let price: number;

  beforeAll(async () => {
    t = await buildTestApp();
    plan = await pickPlan(t.container);
    price = plan.effectivePriceCents;
  });
  afterAll(() => t.close());

  const partner = (balanceCents: number) => createPartner(t, balanceCents);
  const order = (headers: Record<string, string>, payload: unknown) => postOrder(t, headers, payload);
  const admin = (url: string, payload: object) => adminPost(t, url, payload);

  /** Runs the background worker as if `ms` had passed. */
  async function runJobsAfter(ms: number) {
    t.clock.advance(ms);
    await t.container.worker.runDue();
  }

  describe('money under concurrency and provider failure', () => {
    it('12 parallel orders against a wallet covering 5: exactly 5 created, 7 × 402, balance 0', async () => {
      const p = await partner(price * 5);
      const responses = await Promise.all(
        Array.from({ length: 12 }, () => order(p.headers, { planId: plan.id, quantity: 1 })),
      );
      const statuses = responses.map((r) => r.statusCode).sort();
      expect(statuses).toEqual([...Array(5).fill(201), ...Array(7).fill(402)]);
      expect(await balanceOf(t.container, p.id)).toBe(0);
      const rows = await t.container.db.select().from(ordersTable).where(eq(ordersTable.accountId, p.id));
      expect(rows).toHaveLength(5);
      expect(rows.every((r) => r.status === 'COMPLETED')).toBe(true);
      await expectLedgerInvariant(t.container);
    });

    it('provider failure: 502 with the order id, charged once, then completed by the background retry', async () => {
      const p = await partner(price * 2);
      expect((await admin('/sandbox/esim-provider/faults', { failNext: 1 })).statusCode).toBe(200);
      const failed = await order(p.headers, { planId: plan.id, quantity: 1 });
      expect(failed.statusCode).toBe(502);
      const { error } = failed.json();
      expect(error.code).toBe('FULFILLMENT_FAILED');
      const orderId = error.details.orderId as string;
      expect(await balanceOf(t.container, p.id)).toBe(price);

      const pending = (await t.app.inject({ url: `${ORDERS}/${orderId}`, headers: p.headers })).json();
      expect(pending).toMatchObject({ id: orderId, status: 'PROCESSING', esims: [] });
      const tickets = await t.container.db
        .select()
        .from(supportTickets)
        .where(eq(supportTickets.orderId, orderId));
      expect(tickets).toHaveLength(1);

      await runJobsAfter(t.config.fulfillment.retryBaseSeconds * 1000);
      const done = (await t.app.inject({ url: `${ORDERS}/${orderId}`, headers: p.headers })).json();
      expect(done.status).toBe('COMPLETED');
      expect(done.esims).toHaveLength(1);
      expect(await balanceOf(t.container, p.id)).toBe(price);
      await expectLedgerInvariant(t.container);
    });

    it('provider failure until retries run out: the order is refunded to the wallet', async () => {
      const p = await partner(price);
      await admin('/sandbox/esim-provider/faults', { failNext: 1000 });
      try {
        const failed = await order(p.headers, { planId: plan.id, quantity: 1 });
        expect(failed.statusCode).toBe(502);
        const orderId = failed.json().error.details.orderId as string;
        expect(await balanceOf(t.container, p.id)).toBe(0);
        for (let i = 0; i < t.config.fulfillment.maxAttempts; i++) await runJobsAfter(24 * 60 * 60 * 1000);
        const refunded = (await t.app.inject({ url: `${ORDERS}/${orderId}`, headers: p.headers })).json();
        expect(refunded).toMatchObject({ status: 'REFUNDED', esims: [] });
        expect(await balanceOf(t.container, p.id)).toBe(price);
        const wallet = await t.app.inject({ url: '/api/public/v1/wallet', headers: p.headers });
        expect(wallet.json()).toEqual({
          balanceUsd: centsToUsd(price),
          currency: 'USD',
          lowBalanceThreshold: 50,
        });
        await expectLedgerInvariant(t.container);
      } finally {
        await admin('/sandbox/esim-provider/faults', { failNext: 0 });
      }
    });
  });
});
