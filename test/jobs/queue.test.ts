import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '../../src/db/schema/index.js';
import { createWorker, type JobHandlers } from '../../src/jobs/worker.js';
import { MINUTE, SECOND } from '../../src/lib/clock.js';
import { randomBase62 } from '../../src/lib/crypto.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const silentLog = { warn: () => undefined, error: () => undefined } as never;

function worker(handlers: JobHandlers, concurrency = 4) {
  return createWorker({
    queue: t.container.queue,
    handlers,
    clock: t.clock,
    log: silentLog,
    concurrency,
    pollIntervalMs: 1000,
  });
}

const kind = () => `test.${randomBase62(8)}`;

async function jobRows(k: string) {
  return t.container.db.select().from(jobs).where(eq(jobs.kind, k)).orderBy(jobs.id);
}

describe('job queue', () => {
  it('two workers never run the same job; every job runs once', async () => {
    const k = kind();
    for (let i = 0; i < 30; i++) await t.container.queue.enqueue(t.container.db, { kind: k, payload: { i } });
    const runs: number[] = [];
    const handlers: JobHandlers = {
      [k]: {
        async run(job) {
          await new Promise((r) => setTimeout(r, 2));
          runs.push(job.payload.i as number);
        },
      },
    };
    const [a, b] = [worker(handlers, 3), worker(handlers, 5)];
    const [ranA, ranB] = await Promise.all([a.runDue(), b.runDue()]);
    expect(ranA + ranB).toBe(30);
    expect(runs.sort((x, y) => x - y)).toEqual(Array.from({ length: 30 }, (_, i) => i));
    expect((await jobRows(k)).every((j) => j.status === 'done' && j.attempts === 1)).toBe(true);
  });

  it('parallel claims hand out disjoint sets', async () => {
    const k = kind();
    for (let i = 0; i < 12; i++) await t.container.queue.enqueue(t.container.db, { kind: k });
    const claims = await Promise.all(['w1', 'w2', 'w3'].map((w) => t.container.queue.claim(w, 12)));
    const ids = claims
      .flat()
      .filter((j) => j.kind === k)
      .map((j) => j.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(12);
    await Promise.all(['w1', 'w2', 'w3'].map((w, i) => t.container.queue.claim(w, 0, claims[i])));
  });

  it('a failed job waits for its backoff, then runs again', async () => {
    const k = kind();
    let calls = 0;
    const w = worker({
      [k]: {
        async run() {
          calls++;
          if (calls === 1) throw new Error('first try fails');
        },
        backoffMs: (n) => n * 30 * SECOND,
      },
    });
    await t.container.queue.enqueue(t.container.db, { kind: k, maxAttempts: 3 });
    await w.runDue();
    const [failed] = await jobRows(k);
    expect(failed).toMatchObject({ status: 'pending', attempts: 1, lastError: 'first try fails' });
    expect(failed!.runAt.getTime()).toBe(t.clock.now().getTime() + 30 * SECOND);

    t.clock.advance(29 * SECOND);
    await w.runDue();
    expect(calls).toBe(1);
    t.clock.advance(2 * SECOND);
    await w.runDue();
    expect(calls).toBe(2);
    expect((await jobRows(k))[0]).toMatchObject({ status: 'done', attempts: 2 });
  });

  it('exhaustion calls onExhausted exactly once and the job stays failed', async () => {
    const k = kind();
    let exhausted = 0;
    let calls = 0;
    const w = worker({
      [k]: {
        async run() {
          calls++;
          throw new Error(`failure ${calls}`);
        },
        async onExhausted(_job, error) {
          exhausted++;
          expect(error.message).toBe('failure 3');
        },
        backoffMs: () => SECOND,
      },
    });
    await t.container.queue.enqueue(t.container.db, { kind: k, maxAttempts: 3 });
    for (let i = 0; i < 6; i++) {
      await w.runDue();
      t.clock.advance(2 * SECOND);
    }
    expect(calls).toBe(3);
    expect(exhausted).toBe(1);
    expect((await jobRows(k))[0]).toMatchObject({ status: 'failed', attempts: 3, lastError: 'failure 3' });
  });

  it('an exhaustion handler that throws keeps the job claimable; one that settles ends it handled', async () => {
    const k = kind();
    let exhaustions = 0;
    const w = worker({
      [k]: {
        async run() {
          throw new Error('provider down');
        },
        async onExhausted(_job, _error, settle) {
          exhaustions++;
          if (exhaustions === 1) throw new Error('refund failed');
          await t.container.db.transaction((tx) => settle(tx));
        },
        backoffMs: () => SECOND,
      },
    });
    await t.container.queue.enqueue(t.container.db, { kind: k, maxAttempts: 1 });
    await w.runDue();
    expect((await jobRows(k))[0]).toMatchObject({ status: 'pending', attempts: 1 });
    t.clock.advance(2 * SECOND);
    await w.runDue();
    expect(exhaustions).toBe(2);
    expect((await jobRows(k))[0]).toMatchObject({
      status: 'handled',
      attempts: 2,
      lastError: 'provider down',
    });
  });

  it("a claim marks its worker's finished jobs done in the same statement, never another worker's", async () => {
    const k = kind();
    const { queue, db } = t.container;
    for (let i = 0; i < 3; i++) await queue.enqueue(db, { kind: k, payload: { i } });
    const mine = (await queue.claim('w-a', 50)).filter((j) => j.kind === k);
    expect(mine).toHaveLength(3);
    // Another worker cannot mark them done.
    expect(await queue.claim('w-b', 0, mine)).toEqual([]);
    expect((await jobRows(k)).map((j) => j.status)).toEqual(['running', 'running', 'running']);

    await queue.enqueue(db, { kind: k, payload: { i: 3 } });
    // The lease of the finished jobs ran out meanwhile: they are recorded, not handed out again.
    t.clock.advance(5 * MINUTE + SECOND);
    const next = (await queue.claim('w-a', 50, mine)).filter((j) => j.kind === k);
    expect(next.map((j) => j.payload.i)).toEqual([3]);
    const rows = await jobRows(k);
    expect(rows.slice(0, 3).map((j) => [j.status, j.attempts, j.lockedBy, j.lockedUntil])).toEqual([
      ['done', 1, null, null],
      ['done', 1, null, null],
      ['done', 1, null, null],
    ]);
    expect(rows[3]).toMatchObject({ status: 'running', lockedBy: 'w-a' });
    await queue.claim('w-a', 0, next);
    expect((await jobRows(k))[3]).toMatchObject({ status: 'done', attempts: 1 });
  });

  it('a worker told to stop records the jobs it finished and claims no more', async () => {
    const k = kind();
    for (let i = 0; i < 2; i++) await t.container.queue.enqueue(t.container.db, { kind: k, payload: { i } });
    let stopped: Promise<void> | undefined;
    const w = worker(
      {
        [k]: {
          async run() {
            stopped ??= w.stop();
          },
        },
      },
      1,
    );
    w.start();
    await expect.poll(() => stopped !== undefined, { timeout: 5000 }).toBe(true);
    await stopped;
    expect((await jobRows(k)).map((j) => [j.status, j.attempts])).toEqual([
      ['done', 1],
      ['pending', 0],
    ]);
  });

  it('a worker whose claim failed while stopping records its finished job once the database answers', async () => {
    const k = kind();
    await t.container.queue.enqueue(t.container.db, { kind: k });
    const real = t.container.queue;
    let failNext = false;
    const queue = {
      ...real,
      claim: (...args: Parameters<typeof real.claim>) => {
        if (!failNext) return real.claim(...args);
        failNext = false;
        return Promise.reject(new Error('database away'));
      },
    };
    let stopped: Promise<void> | undefined;
    const w = createWorker({
      queue,
      clock: t.clock,
      log: silentLog,
      concurrency: 1,
      pollIntervalMs: 1000,
      handlers: {
        [k]: {
          async run() {
            failNext = true;
            stopped ??= w.stop();
          },
        },
      },
    });
    w.start();
    await expect.poll(() => stopped !== undefined, { timeout: 5000 }).toBe(true);
    await stopped;
    expect((await jobRows(k)).map((j) => [j.status, j.attempts])).toEqual([['done', 1]]);
  });

  it('a job whose worker died is reclaimed when its lease runs out; the dead worker cannot finish it', async () => {
    const k = kind();
    await t.container.queue.enqueue(t.container.db, { kind: k });
    const [claimed] = (await t.container.queue.claim('dead-worker', 50)).filter((j) => j.kind === k);
    expect(claimed).toBeDefined();
    expect((await t.container.queue.claim('other', 50)).filter((j) => j.kind === k)).toHaveLength(0);

    t.clock.advance(5 * MINUTE + SECOND);
    let ran = 0;
    await worker({ [k]: { run: async () => void ran++ } }).runDue();
    expect(ran).toBe(1);
    await t.container.queue.fail(claimed!, 'late failure from the dead worker', new Date());
    expect((await jobRows(k))[0]).toMatchObject({ status: 'done', attempts: 1, lastError: null });
  });

  it('claims the oldest due first, across pending jobs and jobs whose lease ran out', async () => {
    const k = kind();
    const { queue, db } = t.container;
    // A year back: older than any other job of this file, so these are the first due.
    const base = t.clock.now().getTime() - 365 * 24 * 60 * MINUTE;
    const at = (offsetMs: number) => new Date(base + offsetMs);
    await queue.enqueue(db, { kind: k, runAt: at(1000), payload: { name: 'expired' } });
    const [held] = await queue.claim('dead-worker', 1);
    expect(held).toMatchObject({ kind: k, payload: { name: 'expired' } });
    await queue.enqueue(db, { kind: k, runAt: at(2000), payload: { name: 'newer' } });
    await queue.enqueue(db, { kind: k, runAt: at(0), payload: { name: 'oldest' } });
    await queue.enqueue(db, { kind: k, runAt: at(3000), payload: { name: 'newest' } });
    t.clock.advance(5 * MINUTE + SECOND);

    const claimed = await queue.claim('w', 2);
    expect(claimed.map((j) => (j.payload as { name: string }).name)).toEqual(['oldest', 'expired']);
    expect((await queue.claim('w', 2)).map((j) => (j.payload as { name: string }).name)).toEqual([
      'newer',
      'newest',
    ]);
  });

  it('a dedupe key allows one pending or running job, and a new one once it is done', async () => {
    const k = kind();
    const key = `dedupe:${k}`;
    await t.container.queue.enqueue(t.container.db, { kind: k, dedupeKey: key });
    await t.container.queue.enqueue(t.container.db, { kind: k, dedupeKey: key });
    expect(await jobRows(k)).toHaveLength(1);
    await worker({ [k]: { run: async () => undefined } }).runDue();
    await t.container.queue.enqueue(t.container.db, { kind: k, dedupeKey: key });
    expect((await jobRows(k)).map((j) => j.status)).toEqual(['done', 'pending']);
  });

  it('jobs are not run before runAt, and a rolled-back transaction enqueues nothing', async () => {
    const k = kind();
    let ran = 0;
    const w = worker({ [k]: { run: async () => void ran++ } });
    await t.container.queue.enqueue(t.container.db, {
      kind: k,
      runAt: new Date(t.clock.now().getTime() + MINUTE),
    });
    await t.container.db
      .transaction(async (tx) => {
        await t.container.queue.enqueue(tx, { kind: k });
        throw new Error('rollback');
      })
      .catch(() => undefined);
    await w.runDue();
    expect(ran).toBe(0);
    expect(await jobRows(k)).toHaveLength(1);
    t.clock.advance(MINUTE);
    await w.runDue();
    expect(ran).toBe(1);
  });
});
