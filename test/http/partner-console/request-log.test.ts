import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partnerRequests } from '../../../src/db/schema/index.js';
import { DAY } from '../../../src/lib/clock.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { pickPlan } from '../../helpers/catalog.js';
import { PARTNER_ROOT, postOrder } from '../partner/helpers.js';
import { partnerTeam } from './helpers.js';

/** Issue 32 C3: the request log of the Partner API, over the Partner API and in the dashboard. */
describe('the Partner API request log', () => {
  let t: TestApp;
  let team: Awaited<ReturnType<typeof partnerTeam>>;
  let testKey: string;
  beforeAll(async () => {
    t = await buildTestApp();
    team = await partnerTeam(t);
    testKey = (await t.container.apiKeys.generate(team.owner.id, 'test')).key;
  });
  afterAll(() => t.close());

  const live = () => ({ 'x-api-key': team.key });
  const test = () => ({ 'x-api-key': testKey });
  const logOf = async (headers: Record<string, string>, query = '') => {
    await t.container.requestLog.flush();
    const res = await t.app.inject({ url: `${PARTNER_ROOT}/requests${query}`, headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: Array<Record<string, unknown>>; hasMore: boolean; nextCursor?: string | null }>();
  };

  it('records method, path without query, status, duration, request id, idempotency key and error code', async () => {
    const plan = await pickPlan(t.container);
    const ok = await postOrder(t, live(), { planId: plan.id, quantity: 1 }, { 'idempotency-key': 'ord-1' });
    expect(ok.statusCode).toBe(201);
    t.clock.advance(1000); // entries are dated by arrival, on the service's clock
    const bad = await postOrder(t, live(), { planId: 'plan_nope', quantity: 0, note: 'secretish' });
    expect(bad.statusCode).toBe(400);
    t.clock.advance(1000);
    const read = await t.app.inject({
      url: `${PARTNER_ROOT}/orders?limit=2&token=hunter2`,
      headers: { ...live(), 'x-request-id': 'support-mail-4711' },
    });
    expect(read.statusCode).toBe(200);
    // Nothing is written inside the request: the entries wait for the next batch.
    expect(t.container.requestLog.pending()).toBeGreaterThanOrEqual(3);

    const { data } = await logOf(live());
    expect(data.slice(0, 3)).toEqual([
      expect.objectContaining({
        method: 'GET',
        route: '/api/public/v1/orders',
        path: '/api/public/v1/orders',
        status: 200,
        requestId: 'support-mail-4711',
        idempotencyKey: null,
        errorCode: null,
        livemode: true,
      }),
      expect.objectContaining({ method: 'POST', status: 400, errorCode: 'VALIDATION_ERROR' }),
      expect.objectContaining({
        method: 'POST',
        path: '/api/public/v1/orders',
        status: 201,
        idempotencyKey: 'ord-1',
        errorCode: null,
        requestId: ok.headers['x-request-id'],
      }),
    ]);
    for (const entry of data) expect(typeof entry.durationMs).toBe('number');
    // No bodies, no query strings, anywhere in the stored rows.
    const rows = await t.container.db
      .select()
      .from(partnerRequests)
      .where(eq(partnerRequests.accountId, team.owner.id));
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain('hunter2');
    expect(stored).not.toContain('secretish');
    expect(stored).not.toContain('plan_nope');
    expect(stored).not.toContain('?');
  });

  it('does not log a call without a valid key', async () => {
    const before = (await logOf(live())).data.length;
    const res = await t.app.inject({
      url: `${PARTNER_ROOT}/wallet`,
      headers: { 'x-api-key': 'svc_live_sk_nope' },
    });
    expect(res.statusCode).toBe(401);
    expect((await logOf(live())).data.length).toBe(before + 1); // the GET /requests just made
  });

  it('filters by status class, path prefix and request id, and pages newest first', async () => {
    t.clock.advance(1000);
    await t.app.inject({ url: `${PARTNER_ROOT}/orders/ord_missing`, headers: live() });
    const errors = await logOf(live(), '?status=4xx');
    expect(errors.data.length).toBeGreaterThanOrEqual(2);
    expect(errors.data.every((e) => (e.status as number) >= 400 && (e.status as number) < 500)).toBe(true);
    expect(errors.data[0]).toMatchObject({
      path: '/api/public/v1/orders/ord_missing',
      errorCode: 'ORDER_NOT_FOUND',
    });
    const ok = await logOf(live(), '?status=2xx');
    expect(ok.data.every((e) => e.status === 200 || e.status === 201)).toBe(true);
    expect((await logOf(live(), '?status=5xx')).data).toEqual([]);

    const byPath = await logOf(live(), `?path=${encodeURIComponent('/api/public/v1/orders/')}`);
    expect(byPath.data.map((e) => e.path)).toEqual(['/api/public/v1/orders/ord_missing']);
    const like = await logOf(live(), `?path=${encodeURIComponent('/api/public/v1/orders%')}`);
    expect(like.data).toEqual([]);

    const one = await logOf(live(), '?requestId=support-mail-4711');
    expect(one.data).toHaveLength(1);

    const first = await logOf(live(), '?limit=2');
    expect(first.data).toHaveLength(2);
    expect(first.hasMore).toBe(true);
    const second = await logOf(live(), `?limit=2&cursor=${first.nextCursor}`);
    expect(String(second.data[0]!.createdAt) <= String(first.data[1]!.createdAt)).toBe(true);
    expect(second.data.map((e) => e.requestId)).not.toContain(first.data[0]!.requestId);
    const bad = await t.app.inject({ url: `${PARTNER_ROOT}/requests?status=1xx`, headers: live() });
    expect(bad.statusCode).toBe(400);
  });

  it('keeps test and live apart', async () => {
    await t.app.inject({
      url: `${PARTNER_ROOT}/wallet`,
      headers: { ...test(), 'x-request-id': 'test-only-1' },
    });
    const testLog = await logOf(test());
    expect(testLog.data.map((e) => e.requestId)).toContain('test-only-1');
    expect(testLog.data.every((e) => e.livemode === false)).toBe(true);
    expect((await logOf(live(), '?requestId=test-only-1')).data).toEqual([]);
    expect((await logOf(live())).data.every((e) => e.livemode === true)).toBe(true);

    const dashboardTest = await t.app.inject({
      url: team.url('/requests?mode=test&requestId=test-only-1'),
      headers: team.developer.auth,
    });
    expect(dashboardTest.json().data).toHaveLength(1);
    const dashboardLive = await t.app.inject({
      url: team.url('/requests?requestId=test-only-1'),
      headers: team.developer.auth,
    });
    expect(dashboardLive.json().data).toEqual([]);
  });

  it('lets the roles with requests.read read it in the dashboard, and refuses Finance', async () => {
    for (const who of ['owner', 'admin', 'developer', 'viewer'] as const) {
      const res = await t.app.inject({ url: team.url('/requests?status=2xx'), headers: team[who].auth });
      expect(res.statusCode, who).toBe(200);
      expect(res.json().data.length, who).toBeGreaterThan(0);
    }
    const finance = await t.app.inject({ url: team.url('/requests'), headers: team.finance.auth });
    expect(finance.statusCode).toBe(403);
    expect(finance.json().code).toBe('ROLE_FORBIDDEN');
    const stranger = await t.app.inject({ url: team.url('/requests'), headers: team.stranger.auth });
    expect(stranger.statusCode).toBe(404);
  });

  it('is purged after 30 days by the retention job', async () => {
    await t.container.requestLog.flush();
    const kept = (await logOf(live(), '?limit=100')).data.length;
    expect(kept).toBeGreaterThan(0);
    t.clock.advance(31 * DAY);
    const result = await t.container.maintenance.runRetention();
    expect(result.partnerRequests).toBeGreaterThanOrEqual(kept);
    // Only the GET /requests made now is left.
    expect((await logOf(live(), '?limit=100')).data).toHaveLength(1);
  });
});
