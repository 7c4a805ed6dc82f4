import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders } from '../../../src/db/schema/index.js';
import { newId } from '../../../src/lib/ids.js';
import { nextLink } from '../../../src/http/shared/pagination.js';
import { ADMIN_TOKEN, buildTestApp, type TestApp } from '../../helpers/app.js';
import { pickPlan } from '../../helpers/catalog.js';
import { createUser, type TestUser } from '../../helpers/factories.js';

type NewOrder = typeof orders.$inferInsert;

let t: TestApp;
let planId: string;
let alice: TestUser;
let bob: TestUser;
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
const start = Date.parse('2026-11-01T00:00:00.000Z');
const rows: NewOrder[] = [];

const list = (query = '', headers: Record<string, string> = admin) =>
  t.app.inject({ method: 'GET', url: `/api/admin/v1/orders${query ? `?${query}` : ''}`, headers });
const ids = (res: { json(): { orders: Array<{ id: string }> } }) => res.json().orders.map((o) => o.id);

/** The expected answer: rows matching `keep`, newest first (created_at, id). */
const expected = (keep: (r: NewOrder) => boolean) =>
  rows
    .filter(keep)
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1))
    .map((r) => r.id);

function order(i: number, over: Partial<NewOrder>): NewOrder {
  // Pairs of orders share a millisecond: the id decides among them.
  const at = new Date(start + Math.floor(i / 2) * 3_600_000);
  return {
    id: newId('ord'),
    orderNumber: `SVC-LIST-${i}`,
    accountId: alice.id,
    channel: 'mobile',
    planId,
    quantity: 1,
    amountCents: 1250,
    paymentMethod: 'wallet',
    status: 'COMPLETED',
    createdAt: at,
    updatedAt: at,
    completedAt: at,
    livemode: true,
    ...over,
  };
}

beforeAll(async () => {
  t = await buildTestApp();
  planId = (await pickPlan(t.container)).id;
  alice = await createUser(t.container, { email: 'alice-list@example.com' });
  bob = await createUser(t.container, { email: 'bob-list@example.com' });
  const statuses = ['COMPLETED', 'PROCESSING', 'REFUNDED', 'AWAITING_PAYMENT', 'CANCELLED'] as const;
  const methods = ['wallet', 'card', 'crypto'] as const;
  for (let i = 0; i < 40; i++)
    rows.push(
      order(i, {
        accountId: i % 3 === 0 ? bob.id : alice.id,
        channel: i % 4 === 0 ? 'partner' : 'mobile',
        status: statuses[i % statuses.length]!,
        paymentMethod: methods[i % methods.length]!,
        livemode: i % 5 !== 4,
        completedAt: i % 5 === 0 ? new Date(start + Math.floor(i / 2) * 3_600_000) : null,
      }),
    );
  await t.container.db.insert(orders).values(rows);
});
afterAll(() => t.close());

describe('GET /api/admin/v1/orders', () => {
  it('answers 401 without the token or with a wrong one', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong-token-wrong-token' }] as Array<
      Record<string, string>
    >) {
      const res = await list('', headers);
      expect(res.statusCode).toBe(401);
      expect(res.json().error.code).toBe('UNAUTHORIZED');
    }
  });

  it('lists live orders newest first, 25 a page, with the buyer and the plan', async () => {
    const res = await list();
    expect(res.statusCode, res.body).toBe(200);
    const live = expected((r) => r.livemode !== false);
    expect(ids(res)).toEqual(live.slice(0, 25));
    expect(res.json().nextCursor).toEqual(expect.any(String));
    const first = res.json().orders[0];
    const row = rows.find((r) => r.id === first.id)!;
    expect(first).toEqual({
      id: row.id,
      orderNumber: row.orderNumber,
      status: row.status,
      channel: row.channel,
      paymentMethod: row.paymentMethod,
      livemode: true,
      amountUsd: 12.5,
      currency: 'USD',
      planId,
      planName: expect.any(String),
      quantity: 1,
      accountId: row.accountId,
      accountEmail: row.accountId === bob.id ? bob.email : alice.email,
      lastError: null,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.createdAt.toISOString(),
      completedAt: row.completedAt ? row.completedAt.toISOString() : null,
    });
  });

  it('keeps test and live apart: mode=test, mode=all', async () => {
    expect(ids(await list('mode=test'))).toEqual(expected((r) => r.livemode === false));
    const all = await list('mode=all&limit=100');
    expect(ids(all)).toEqual(expected(() => true));
    expect(all.json().nextCursor).toBeNull();
  });

  it('filters by status, channel, payment method and account', async () => {
    const cases: Array<[string, (r: NewOrder) => boolean]> = [
      ['status=PROCESSING', (r) => r.status === 'PROCESSING'],
      ['status=REFUNDED', (r) => r.status === 'REFUNDED'],
      ['channel=partner', (r) => r.channel === 'partner'],
      ['channel=mobile', (r) => r.channel === 'mobile'],
      ['paymentMethod=card', (r) => r.paymentMethod === 'card'],
      ['paymentMethod=crypto', (r) => r.paymentMethod === 'crypto'],
      [`accountId=${bob.id}`, (r) => r.accountId === bob.id],
      [
        `accountId=${alice.id}&paymentMethod=card&channel=mobile`,
        (r) => r.accountId === alice.id && r.paymentMethod === 'card' && r.channel === 'mobile',
      ],
    ];
    for (const [query, keep] of cases) {
      const want = expected((r) => r.livemode !== false && keep(r));
      expect(want.length, query).toBeGreaterThan(0);
      const res = await list(`${query}&limit=100`);
      expect(res.statusCode, res.body).toBe(200);
      expect(ids(res), query).toEqual(want);
    }
    expect(ids(await list('accountId=acc_nobody'))).toEqual([]);
  });

  it('filters by creation time: from included, to excluded', async () => {
    const from = new Date(start + 3 * 3_600_000);
    const to = new Date(start + 8 * 3_600_000);
    const res = await list(`mode=all&from=${from.toISOString()}&to=${to.toISOString()}`);
    expect(res.statusCode, res.body).toBe(200);
    const want = expected((r) => r.createdAt >= from && r.createdAt < to);
    expect(want).toHaveLength(10);
    expect(ids(res)).toEqual(want);
    expect(ids(await list(`mode=all&from=${to.toISOString()}&to=${to.toISOString()}`))).toEqual([]);
  });

  it('pages through every order once, in order, with the filters kept in the Link', async () => {
    for (const query of ['mode=all&limit=4', 'limit=3&channel=mobile', 'limit=1&status=COMPLETED']) {
      const seen: string[] = [];
      let url: string | null = `/api/admin/v1/orders?${query}`;
      while (url) {
        const res = await t.app.inject({ url, headers: admin });
        expect(res.statusCode, res.body).toBe(200);
        seen.push(...ids(res));
        const link = nextLink(res.headers.link);
        expect(link === null).toBe(res.json().nextCursor === null);
        url = link;
      }
      const params = new URLSearchParams(query);
      const keep = (r: NewOrder) =>
        (params.get('mode') === 'all' || r.livemode !== false) &&
        (!params.get('channel') || r.channel === params.get('channel')) &&
        (!params.get('status') || r.status === params.get('status'));
      expect(seen, query).toEqual(expected(keep));
    }
  });

  it('refuses bad filters with 400 VALIDATION_ERROR', async () => {
    const first = await list('limit=2');
    const cursor = first.json().nextCursor as string;
    for (const query of [
      'status=DONE',
      'channel=web',
      'paymentMethod=cash',
      'mode=sandbox',
      'from=yesterday',
      'to=2026-13-01T00:00:00Z',
      'from=2026-11-02T00:00:00.000Z&to=2026-11-01T00:00:00.000Z',
      'limit=0',
      'limit=101',
      'cursor=nonsense',
      // A cursor only works with the filters it came with.
      `cursor=${cursor}&status=COMPLETED`,
      `cursor=${cursor}&mode=all`,
    ]) {
      const res = await list(query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.code, query).toBe('VALIDATION_ERROR');
    }
    expect((await list(`cursor=${cursor}&limit=2`)).statusCode).toBe(200);
  });
});
