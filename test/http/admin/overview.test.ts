import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fulfillmentAttempts, jobs, orders, supportTickets } from '../../../src/db/schema/index.js';
import { DAY, HOUR, ManualClock } from '../../../src/lib/clock.js';
import { newId } from '../../../src/lib/ids.js';
import { randomBase62 } from '../../../src/lib/crypto.js';
import { ADMIN_TOKEN, buildTestApp, type TestApp } from '../../helpers/app.js';
import { pickPlan } from '../../helpers/catalog.js';
import { createUser, type TestUser } from '../../helpers/factories.js';

const NOON = new Date('2026-11-27T12:00:00.000Z');
const TODAY = new Date('2026-11-27T00:00:00.000Z');
const YESTERDAY_LATE = new Date(TODAY.getTime() - 1);

let t: TestApp;
let planId: string;
let user: TestUser;
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

const overview = async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/admin/v1/overview', headers: admin });
  expect(res.statusCode).toBe(200);
  return res.json().overview;
};

async function insertOrder(fields: {
  channel?: 'mobile' | 'partner';
  status: 'COMPLETED' | 'PROCESSING' | 'REFUNDED';
  amountCents?: number;
  at: Date;
  livemode?: boolean;
}): Promise<string> {
  const id = newId('ord');
  await t.container.db.insert(orders).values({
    id,
    orderNumber: `SVC-261127-${randomBase62(8).toUpperCase()}`,
    accountId: user.id,
    channel: fields.channel ?? 'mobile',
    planId,
    quantity: 1,
    amountCents: fields.amountCents ?? 100,
    paymentMethod: 'wallet',
    status: fields.status,
    createdAt: new Date(fields.at.getTime() - HOUR),
    updatedAt: fields.at,
    completedAt: fields.status === 'COMPLETED' ? fields.at : null,
    livemode: fields.livemode ?? true,
  });
  return id;
}

async function failedAttempt(orderId: string, at: Date): Promise<void> {
  await t.container.db.insert(fulfillmentAttempts).values({
    id: newId('att'),
    orderId,
    attempt: 1,
    outcome: 'failure',
    source: 'job',
    error: 'provider busy',
    createdAt: at,
  });
}

beforeAll(async () => {
  t = await buildTestApp({ clock: new ManualClock(NOON) });
  planId = (await pickPlan(t.container)).id;
  user = await createUser(t.container);
});
afterAll(() => t.close());

describe('GET /api/admin/v1/overview', () => {
  it('counts today’s live business by the clock’s UTC day', async () => {
    const before = await overview();
    expect(before).toMatchObject({
      day: { from: TODAY.toISOString(), to: new Date(TODAY.getTime() + DAY).toISOString() },
      generatedAt: NOON.toISOString(),
      sales: {
        channels: [
          { channel: 'mobile', orders: 0, revenueCents: 0 },
          { channel: 'partner', orders: 0, revenueCents: 0 },
        ],
        orders: 0,
        revenueCents: 0,
      },
      fulfilmentFailures: { ordersWithFailedAttempts: 0, refundedOrders: 0 },
      providerBalance: null,
    });

    // Counted: live orders completed today.
    await insertOrder({ status: 'COMPLETED', amountCents: 1000, at: TODAY });
    await insertOrder({ status: 'COMPLETED', amountCents: 2500, at: new Date(NOON.getTime() - HOUR) });
    await insertOrder({ channel: 'partner', status: 'COMPLETED', amountCents: 700, at: NOON });
    // Not counted: yesterday, test mode, not completed.
    await insertOrder({ status: 'COMPLETED', amountCents: 9000, at: YESTERDAY_LATE });
    await insertOrder({
      channel: 'partner',
      status: 'COMPLETED',
      amountCents: 9999,
      at: NOON,
      livemode: false,
    });
    const processing = await insertOrder({ status: 'PROCESSING', amountCents: 5000, at: NOON });
    // Failures: one order failed twice today (counted once), one only yesterday, a test-mode one.
    await failedAttempt(processing, new Date(NOON.getTime() - 2 * HOUR));
    await failedAttempt(processing, NOON);
    await failedAttempt(await insertOrder({ status: 'PROCESSING', at: YESTERDAY_LATE }), YESTERDAY_LATE);
    await failedAttempt(await insertOrder({ status: 'PROCESSING', at: NOON, livemode: false }), NOON);
    // Refunds: today counts, yesterday's does not.
    await insertOrder({ status: 'REFUNDED', at: NOON });
    await insertOrder({ status: 'REFUNDED', at: YESTERDAY_LATE });

    const now = await overview();
    expect(now.sales).toEqual({
      channels: [
        { channel: 'mobile', orders: 2, revenueCents: 3500 },
        { channel: 'partner', orders: 1, revenueCents: 700 },
      ],
      orders: 3,
      revenueCents: 4200,
    });
    expect(now.fulfilmentFailures).toEqual({ ordersWithFailedAttempts: 1, refundedOrders: 1 });

    // The next day starts from zero.
    t.clock.advance(DAY);
    const tomorrow = await overview();
    expect(tomorrow.sales.orders).toBe(0);
    expect(tomorrow.fulfilmentFailures).toEqual({ ordersWithFailedAttempts: 0, refundedOrders: 0 });
    t.clock.set(NOON);
  });

  it('counts dead jobs and open tickets, whatever their day', async () => {
    const before = await overview();
    const now = t.clock.now();
    await t.container.db.insert(jobs).values(
      (['failed', 'failed', 'done', 'handled'] as const).map((status) => ({
        kind: 'test.overview',
        payload: {},
        status,
        runAt: now,
        createdAt: new Date(now.getTime() - 3 * DAY),
        updatedAt: new Date(now.getTime() - 3 * DAY),
      })),
    );
    await t.container.db.insert(supportTickets).values(
      (['OPEN', 'OPEN', 'ANSWERED', 'RESOLVED', 'CLOSED'] as const).map((status) => ({
        id: newId('tkt'),
        accountId: user.id,
        subject: 'My eSIM',
        status,
        createdAt: new Date(now.getTime() - 5 * DAY),
        updatedAt: new Date(now.getTime() - 5 * DAY),
      })),
    );
    const after = await overview();
    expect(after.deadJobs - before.deadJobs).toBe(2);
    expect(after.tickets.open - before.tickets.open).toBe(2);
    expect(after.tickets.waitingForCustomer - before.tickets.waitingForCustomer).toBe(1);
  });

  it('401 without the token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/v1/overview' });
    expect(res.statusCode).toBe(401);
  });
});
