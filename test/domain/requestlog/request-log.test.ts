import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partnerRequests } from '../../../src/db/schema/index.js';
import { createRequestLog } from '../../../src/domain/requestlog/request-log.js';
import type { NewPartnerRequest } from '../../../src/domain/requestlog/request-log.repository.js';
import { DAY, ManualClock } from '../../../src/lib/clock.js';
import { silentLogger } from '../../../src/lib/logger.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { createUser } from '../../helpers/factories.js';

/** Issue 32 C3: the request log writes in batches, off the request path, within its bounds. */
describe('the request log recorder', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const entry = (accountId: string, clock: ManualClock, n: number): NewPartnerRequest => ({
    accountId,
    livemode: true,
    createdAt: clock.now(),
    method: 'GET',
    route: '/api/public/v1/wallet',
    path: '/api/public/v1/wallet',
    status: 200,
    durationMs: 3,
    requestId: `r-${n}`,
    idempotencyKey: null,
    errorCode: null,
  });
  const stored = async (accountId: string) =>
    (await t.container.db.select().from(partnerRequests).where(eq(partnerRequests.accountId, accountId)))
      .length;

  it('writes nothing at record time, then one batch after the delay', async () => {
    const clock = new ManualClock();
    const { id } = await createUser(t.container);
    const log = createRequestLog({ db: t.container.db, clock, log: silentLogger, flushMs: 50 });
    for (let i = 0; i < 3; i++) log.record(entry(id, clock, i));
    expect(await stored(id)).toBe(0);
    expect(log.pending()).toBe(3);
    await new Promise((r) => setTimeout(r, 150));
    await log.flush(); // waits for the timer's write, if still running
    expect(await stored(id)).toBe(3);
    expect(log.pending()).toBe(0);
    await log.close();
  });

  it('stores each field as recorded: nulls, quotes, commas, braces and the time to the millisecond', async () => {
    const clock = new ManualClock(new Date('2026-11-27T10:11:12.345Z'));
    const { id } = await createUser(t.container);
    const log = createRequestLog({ db: t.container.db, clock, log: silentLogger, flushMs: 60_000 });
    const odd: NewPartnerRequest = {
      ...entry(id, clock, 1),
      livemode: false,
      method: 'POST',
      route: null,
      path: '/api/public/v1/orders/{"a",b}\\ NULL',
      status: 402,
      durationMs: 0,
      idempotencyKey: 'key "with" quotes, commas',
      errorCode: 'INSUFFICIENT_BALANCE',
    };
    log.record(entry(id, clock, 0));
    log.record(odd);
    await log.close();
    const rows = await t.container.db
      .select()
      .from(partnerRequests)
      .where(eq(partnerRequests.accountId, id))
      .orderBy(partnerRequests.seq);
    expect(rows.map(({ seq: _seq, ...row }) => row)).toEqual([entry(id, clock, 0), odd]);
  });

  it('writes as soon as a batch is full, and the rest on close', async () => {
    const clock = new ManualClock();
    const { id } = await createUser(t.container);
    const log = createRequestLog({ db: t.container.db, clock, log: silentLogger, batch: 2, flushMs: 60_000 });
    for (let i = 0; i < 5; i++) log.record(entry(id, clock, i));
    await log.close();
    expect(await stored(id)).toBe(5);
  });

  it('keeps at most the daily cap per account, and starts again the next UTC day', async () => {
    const clock = new ManualClock(new Date('2026-11-20T10:00:00Z'));
    const [a, b] = [await createUser(t.container), await createUser(t.container)];
    const log = createRequestLog({ db: t.container.db, clock, log: silentLogger, dailyCap: 3 });
    for (let i = 0; i < 5; i++) log.record(entry(a.id, clock, i));
    log.record(entry(b.id, clock, 0));
    clock.advance(DAY);
    log.record(entry(a.id, clock, 9));
    await log.close();
    expect(await stored(a.id)).toBe(4);
    expect(await stored(b.id)).toBe(1);
  });

  it('keeps entries the database refused for the next batch, bounded', async () => {
    const clock = new ManualClock();
    const failing = {
      insert: () => {
        throw new Error('database gone');
      },
    };
    const log = createRequestLog({
      db: failing as never,
      clock,
      log: silentLogger,
      maxBuffered: 2,
      flushMs: 60_000,
    });
    for (let i = 0; i < 3; i++) log.record(entry('acc_x', clock, i));
    await log.flush();
    expect(log.pending()).toBe(2);
  });

  it('purges entries older than 30 days on the injected clock', async () => {
    const clock = new ManualClock(new Date('2026-10-01T00:00:00Z'));
    const { id } = await createUser(t.container);
    const log = createRequestLog({ db: t.container.db, clock, log: silentLogger });
    log.record(entry(id, clock, 1));
    clock.advance(20 * DAY);
    log.record(entry(id, clock, 2));
    await log.flush();
    clock.advance(10 * DAY + 1000);
    expect(await log.purge()).toBeGreaterThanOrEqual(1);
    const left = await t.container.db.select().from(partnerRequests).where(eq(partnerRequests.accountId, id));
    expect(left.map((r) => r.requestId)).toEqual(['r-2']);
    await log.close();
  });
});
