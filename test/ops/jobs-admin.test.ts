import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { jobs } from '../../src/db/schema/index.js';
import { SECOND } from '../../src/lib/clock.js';
import { randomBase62 } from '../../src/lib/crypto.js';
import { ADMIN_TOKEN, buildTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
const get = (url: string, headers: Record<string, string> = admin) => t.app.inject({ url, headers });
const retry = (id: string | number, headers: Record<string, string> = admin) =>
  t.app.inject({ method: 'POST', url: `/api/admin/v1/jobs/${id}/retry`, headers, payload: {} });

async function rowsOf(kind: string) {
  return t.container.db.select().from(jobs).where(eq(jobs.kind, kind)).orderBy(jobs.id);
}

/** A job kind whose handler fails until `healthy` is set. */
function flakyKind() {
  const kind = `test.${randomBase62(8)}`;
  const state = { healthy: false, runs: 0 };
  t.container.jobHandlers[kind] = {
    async run() {
      state.runs++;
      if (!state.healthy) throw new Error('upstream said 503');
    },
    backoffMs: (attempts) => attempts * 10 * SECOND,
  };
  return { kind, state };
}

describe('dead-lettered jobs', () => {
  test('retries with backoff, then dead letter; an operator lists it, retries it (audited), and it runs again', async () => {
    const { kind, state } = flakyKind();
    await t.container.queue.enqueue(t.container.db, {
      kind,
      payload: { orderId: 'ord_x', webhookSecret: 'whsec_shh' },
      maxAttempts: 3,
    });
    await t.container.worker.runDue();
    let [job] = await rowsOf(kind);
    expect(job).toMatchObject({ status: 'pending', attempts: 1, lastError: 'upstream said 503' });
    const firstRetryAt = job!.runAt.getTime();
    expect(firstRetryAt).toBe(t.clock.now().getTime() + 10 * SECOND);

    // Not due yet: nothing runs.
    t.clock.advance(9 * SECOND);
    await t.container.worker.runDue();
    expect(state.runs).toBe(1);
    t.clock.advance(2 * SECOND);
    await t.container.worker.runDue();
    [job] = await rowsOf(kind);
    expect(job).toMatchObject({ status: 'pending', attempts: 2 });
    expect(job!.runAt.getTime()).toBe(t.clock.now().getTime() + 20 * SECOND);
    t.clock.advance(21 * SECOND);
    await t.container.worker.runDue();
    [job] = await rowsOf(kind);
    expect(job).toMatchObject({ status: 'failed', attempts: 3 });
    expect(state.runs).toBe(3);

    // Retention never purges a dead letter.
    t.clock.advance(365 * 24 * 3600 * SECOND);
    await t.container.maintenance.runRetention();
    expect(await rowsOf(kind)).toHaveLength(1);

    const listed = await get(`/api/admin/v1/jobs/failed?kind=${kind}`);
    expect(listed.statusCode).toBe(200);
    expect(listed.json().jobs).toEqual([
      expect.objectContaining({
        id: String(job!.id),
        kind,
        status: 'failed',
        attempts: 3,
        maxAttempts: 3,
        lastError: 'upstream said 503',
        payload: { orderId: 'ord_x', webhookSecret: '[REDACTED]' },
      }),
    ]);
    expect(listed.body).not.toContain('whsec_shh');

    state.healthy = true;
    const res = await retry(job!.id);
    expect(res.statusCode).toBe(200);
    expect(res.json().job).toMatchObject({ status: 'pending', attempts: 0 });
    const audit = await get(`/api/admin/v1/audit?target=${job!.id}`);
    expect(audit.json().entries).toEqual([
      expect.objectContaining({
        action: 'job.retry',
        targetType: 'job',
        targetId: String(job!.id),
        requestId: res.headers['x-request-id'],
      }),
    ]);

    await t.container.worker.runDue();
    [job] = await rowsOf(kind);
    expect(job).toMatchObject({ status: 'done', attempts: 1 });
    expect((await get(`/api/admin/v1/jobs/failed?kind=${kind}`)).json().jobs).toEqual([]);
    expect((await get(`/api/admin/v1/jobs/${job!.id}`)).json().job).toMatchObject({ status: 'done' });

    // Only failed jobs are retried.
    const again = await retry(job!.id);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: { code: 'INVALID_STATE' } });
  });

  test('a job of a kind nobody handles is dead-lettered at once', async () => {
    const kind = `test.unhandled.${randomBase62(6)}`;
    await t.container.queue.enqueue(t.container.db, { kind, maxAttempts: 5 });
    await t.container.worker.runDue();
    const [job] = await rowsOf(kind);
    expect(job).toMatchObject({ status: 'failed', lastError: `no handler for job kind ${kind}` });
  });

  test('retry while a job with the same dedupe key is pending → 409 CONFLICT, nothing changes', async () => {
    const { kind } = flakyKind();
    const dedupeKey = `dk-${randomBase62(6)}`;
    await t.container.queue.enqueue(t.container.db, { kind, dedupeKey, maxAttempts: 1 });
    await t.container.worker.runDue();
    const [dead] = await rowsOf(kind);
    expect(dead!.status).toBe('failed');
    await t.container.queue.enqueue(t.container.db, {
      kind,
      dedupeKey,
      runAt: new Date(t.clock.now().getTime() + 3600_000),
    });
    const res = await retry(dead!.id);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: { code: 'CONFLICT' } });
    expect((await rowsOf(kind)).map((j) => j.status)).toEqual(['failed', 'pending']);
    const audit = await get(`/api/admin/v1/audit?target=${dead!.id}`);
    expect(audit.json().entries).toEqual([]);
  });

  test('bad input and missing auth', async () => {
    expect((await retry(999_999_999)).statusCode).toBe(404);
    const bad = await retry('abc');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR' } });
    expect((await get('/api/admin/v1/jobs/failed?limit=0')).statusCode).toBe(400);
    expect((await get('/api/admin/v1/jobs/failed', {})).statusCode).toBe(401);
    expect((await retry(1, {})).statusCode).toBe(401);
  });

  test('pages with before', async () => {
    const kind = `test.page.${randomBase62(6)}`;
    for (let i = 0; i < 5; i++) {
      await t.container.queue.enqueue(t.container.db, { kind, payload: { i } });
      t.clock.advance(SECOND);
      await t.container.worker.runDue();
    }
    const first = (await get(`/api/admin/v1/jobs/failed?kind=${kind}&limit=2`)).json().jobs;
    expect(first.map((j: { payload: { i: number } }) => j.payload.i)).toEqual([4, 3]);
    const next = (await get(`/api/admin/v1/jobs/failed?kind=${kind}&limit=2&before=${first[1].id}`)).json()
      .jobs;
    expect(next.map((j: { payload: { i: number } }) => j.payload.i)).toEqual([2, 1]);
  });
});
