import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { esims, sandboxEsimProfiles } from '../../../src/db/schema/index.js';
import { ManualClock, MINUTE } from '../../../src/lib/clock.js';
import { createRateLimiter } from '../../../src/lib/rate-limiter.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { pickPlan } from '../../helpers/catalog.js';
import { createUser } from '../../helpers/factories.js';

describe('the poll’s rate limiter', () => {
  it('spaces calls evenly: never more than the rate in any one second', async () => {
    const clock = new ManualClock(new Date('2026-11-27T10:00:00Z'));
    const limiter = createRateLimiter({
      clock,
      perSecond: 8,
      sleep: async (ms) => clock.advance(ms),
    });
    const times: number[] = [];
    for (let i = 0; i < 40; i++) {
      await limiter.acquire();
      times.push(clock.now().getTime());
    }
    for (let i = 8; i < times.length; i++) expect(times[i]! - times[i - 8]!).toBeGreaterThanOrEqual(1000);
    // 40 calls at 8/s: 39 gaps of 125 ms.
    expect(times.at(-1)! - times[0]!).toBe(39 * 125);
    // Idle time is not saved up into a burst.
    clock.advance(10 * MINUTE);
    const before = clock.now().getTime();
    await limiter.acquire();
    await limiter.acquire();
    expect(clock.now().getTime() - before).toBe(125);
  });

  it('a clock that stands still does not make each wait longer than the last', async () => {
    const clock = new ManualClock(new Date('2026-11-27T10:00:00Z'));
    const waits: number[] = [];
    const limiter = createRateLimiter({ clock, perSecond: 4, sleep: async (ms) => void waits.push(ms) });
    for (let i = 0; i < 5; i++) await limiter.acquire();
    expect(waits).toEqual([0, 250, 250, 250, 250]);
  });
});

describe('refreshStatuses (the scheduled poll)', () => {
  let t: TestApp;
  const calls: number[] = [];

  beforeAll(async () => {
    t = await buildTestApp({
      env: { ESIM_POLL_BATCH: '3', ESIM_POLL_RATE_PER_SECOND: '8', USAGE_CACHE_SECONDS: '60' },
      esimProvider: (configured) => ({
        ...configured,
        queryProfiles: async (query) => {
          calls.push(performance.now());
          return configured.queryProfiles(query);
        },
      }),
    });
  });
  afterAll(() => t.close());

  it('reads at most ESIM_POLL_BATCH eSIMs per run, at ESIM_POLL_RATE_PER_SECOND, and stores install state', async () => {
    const plan = await pickPlan(t.container);
    const user = await createUser(t.container, { balanceCents: plan.effectivePriceCents * 5 });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/checkout',
      headers: user.auth,
      payload: { planId: plan.id, quantity: 5, paymentMethod: 'wallet' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const mine = await t.container.db.select().from(esims).where(eq(esims.accountId, user.id));
    await t.container.db
      .update(sandboxEsimProfiles)
      .set({ smdpStatus: 'ENABLED', usedMb: 10 })
      .where(
        inArray(
          sandboxEsimProfiles.iccid,
          mine.map((e) => e.iccid),
        ),
      );
    t.clock.advance(2 * MINUTE);
    calls.length = 0;
    expect(await t.container.orders.refreshStatuses()).toBe(3);
    expect(calls).toHaveLength(3);
    // 8 per second: at least 125 ms between two queries (a little less for timer rounding).
    for (let i = 1; i < calls.length; i++) expect(calls[i]! - calls[i - 1]!).toBeGreaterThanOrEqual(110);
    const polled = (await t.container.db.select().from(esims).where(eq(esims.accountId, user.id))).filter(
      (e) => e.installState === 'ENABLED',
    );
    expect(polled).toHaveLength(3);
    for (const e of polled) {
      expect(e.dataUsageMb).toBe(10);
      expect(e.usageUpdatedAt!.getTime()).toBe(t.clock.now().getTime());
    }
    // The next run takes the rest: the oldest checked first.
    expect(await t.container.orders.refreshStatuses()).toBe(2);
  });
});
