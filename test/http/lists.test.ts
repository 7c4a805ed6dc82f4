import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { esims, jobs, orders, supportTickets } from '../../src/db/schema/index.js';
import { postLedgerEntry } from '../../src/domain/wallet/ledger.js';
import { encodeCursor, nextLink, nextPageUrl } from '../../src/http/shared/pagination.js';
import { randomBase62 } from '../../src/lib/crypto.js';
import { newId } from '../../src/lib/ids.js';
import { ADMIN_TOKEN, buildTestApp, type TestApp } from '../helpers/app.js';
import { pickPlan } from '../helpers/catalog.js';
import { createUser, type TestUser } from '../helpers/factories.js';
import { createPartner } from './partner/helpers.js';

/**
 * Cursor pagination on every list (issue 12): paging returns every row exactly once in order, the
 * Link header and nextCursor agree, bad limit/cursor answer 400 in the surface's shape, and a
 * cursor of one account or list is refused by another.
 */
let t: TestApp;
let planId: string;
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

beforeAll(async () => {
  t = await buildTestApp();
  planId = (await pickPlan(t.container)).id;
});
afterAll(() => t.close());

type Headers = Record<string, string>;
const uid = () => randomBase62(16);

async function get(url: string, headers: Headers) {
  return t.app.inject({ method: 'GET', url, headers });
}

/**
 * Follows Link from `url` to the last page; checks every page's Link against its nextCursor and
 * returns the ids in the order seen.
 */
async function walk(url: string, headers: Headers, field: string, id = (x: { id: string }) => x.id) {
  const seen: string[] = [];
  const pages: number[] = [];
  let next: string | null = url;
  for (let i = 0; next && i < 1000; i++) {
    const res = await get(next, headers);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    const rows = body[field] as Array<{ id: string }>;
    pages.push(rows.length);
    seen.push(...rows.map(id));
    next = nextLink(res.headers.link);
    if (next) {
      expect(body.nextCursor).toEqual(new URL(next, 'http://x').searchParams.get('cursor'));
      // The same query, only the cursor changed.
      expect(next).toBe(nextPageUrl(url, body.nextCursor));
    } else {
      expect(body.nextCursor).toBeNull();
    }
  }
  return { seen, pages };
}

async function insertOrders(
  accountId: string,
  n: number,
  sameMillisecond = 3,
  channel: 'mobile' | 'partner' = 'mobile',
) {
  const rows = [];
  const start = t.clock.now().getTime();
  for (let i = 0; i < n; i++) {
    // Groups of rows share a timestamp: the id decides among them.
    const at = new Date(start - Math.floor(i / sameMillisecond) * 1000);
    rows.push({
      id: newId('ord'),
      orderNumber: `${channel === 'partner' ? 'SVC-API-' : 'SVC-'}TEST-${uid()}`,
      accountId,
      channel,
      planId,
      quantity: 1,
      amountCents: 100,
      paymentMethod: 'wallet' as const,
      status: 'COMPLETED' as const,
      createdAt: at,
      updatedAt: at,
    });
  }
  await t.container.db.insert(orders).values(rows);
  return rows;
}

const newestFirst = (rows: Array<{ id: string; createdAt: Date }>) =>
  [...rows]
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1))
    .map((r) => r.id);

function expectMobile400(res: { statusCode: number; json(): unknown }) {
  expect(res.statusCode).toBe(400);
  expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', error: expect.any(String) });
}

function expectPartner400(res: { statusCode: number; json(): unknown }) {
  expect(res.statusCode).toBe(400);
  expect(res.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR', message: expect.any(String) } });
}

describe('Mobile lists', () => {
  let user: TestUser;
  let other: TestUser;
  let orderRows: Awaited<ReturnType<typeof insertOrders>>;

  beforeAll(async () => {
    user = await createUser(t.container);
    other = await createUser(t.container);
    orderRows = await insertOrders(user.id, 11);
    await insertOrders(other.id, 2);
  });

  it('orders: every row once, newest first, in pages; Link and nextCursor agree', async () => {
    const unpaged = await get('/api/v1/user/orders', user.auth);
    expect(unpaged.headers.link).toBeUndefined();
    expect(unpaged.json().nextCursor).toBeUndefined();
    const all = unpaged.json().orders.map((o: { id: string }) => o.id);
    expect(all).toEqual(newestFirst(orderRows));

    const { seen, pages } = await walk('/api/v1/user/orders?limit=4', user.auth, 'orders');
    expect(seen).toEqual(all);
    expect(pages).toEqual([4, 4, 3]);

    // A page that ends exactly at the last row has no next page.
    const exact = await get('/api/v1/user/orders?limit=11', user.auth);
    expect(exact.json().nextCursor).toBeNull();
    expect(exact.headers.link).toBeUndefined();
  });

  it('orders inserted while paging do not shift the pages (keyset, not offset)', async () => {
    const first = await get('/api/v1/user/orders?limit=5', user.auth);
    t.clock.advance(60_000);
    await insertOrders(user.id, 3); // newer than everything: before the cursor
    const rest = await walk(nextLink(first.headers.link)!, user.auth, 'orders');
    const ids = [...first.json().orders.map((o: { id: string }) => o.id), ...rest.seen];
    expect(ids).toEqual(newestFirst(orderRows));
  });

  it('eSIMs, wallet transactions and tickets page the same way', async () => {
    const owner = await createUser(t.container);
    const [order] = await insertOrders(owner.id, 1);
    const base = t.clock.now().getTime();
    await t.container.db.insert(esims).values(
      Array.from({ length: 7 }, (_, i) => ({
        id: newId('esim'),
        orderId: order!.id,
        accountId: owner.id,
        planId,
        iccid: `8990${String(i).padStart(16, '0')}`,
        providerRef: uid(),
        smdpAddress: 'smdp.example',
        matchingId: uid(),
        activationCode: 'LPA:1$smdp.example$x',
        qrToken: uid(),
        totalVolumeMb: 1024,
        usageCheckedAt: new Date(base),
        createdAt: new Date(base - (i % 3) * 1000),
        updatedAt: new Date(base),
        status: 'CANCELLED' as const,
      })),
    );
    const allEsims = (await get('/api/v1/user/esims', owner.auth))
      .json()
      .esims.map((e: { id: string }) => e.id);
    expect(allEsims).toHaveLength(7);
    expect((await walk('/api/v1/user/esims?limit=3', owner.auth, 'esims')).seen).toEqual(allEsims);

    for (let i = 0; i < 9; i++) {
      await t.container.db.transaction((tx) =>
        postLedgerEntry(tx, {
          accountId: owner.id,
          kind: 'deposit',
          amountCents: 100 + i,
          reference: `test:list:${uid()}`,
          at: new Date(base - Math.floor(i / 4) * 1000), // ties broken by insertion order
        }),
      );
    }
    const allTx = (await get('/api/v1/user/wallet/transactions', owner.auth))
      .json()
      .transactions.map((x: { id: string }) => x.id);
    expect(allTx).toHaveLength(9);
    expect((await walk('/api/v1/user/wallet/transactions?limit=2', owner.auth, 'transactions')).seen).toEqual(
      allTx,
    );

    for (let i = 0; i < 5; i++) {
      await t.container.support.create(owner.id, { subject: `s${i}`, message: 'hello' });
      if (i % 2) t.clock.advance(1000);
    }
    const allTickets = (await get('/api/v1/support/tickets', owner.auth))
      .json()
      .tickets.map((x: { id: string }) => x.id);
    expect(allTickets).toHaveLength(5);
    const walked = await walk('/api/v1/support/tickets?limit=2', owner.auth, 'tickets');
    expect(walked.seen).toEqual(allTickets);
    expect(walked.pages).toEqual([2, 2, 1]);
  });

  it('the wallet keeps its unpaged default of 50 and names the rest in Link', async () => {
    const rich = await createUser(t.container);
    for (let i = 0; i < 52; i++) {
      await t.container.db.transaction((tx) =>
        postLedgerEntry(tx, {
          accountId: rich.id,
          kind: 'deposit',
          amountCents: 1,
          reference: `test:list:${uid()}`,
          at: t.clock.now(),
        }),
      );
    }
    const res = await get('/api/v1/user/wallet/transactions', rich.auth);
    expect(res.json().transactions).toHaveLength(50);
    expect(res.json().nextCursor).toBeUndefined();
    const next = nextLink(res.headers.link)!;
    expect(next).toMatch(/^\/api\/v1\/user\/wallet\/transactions\?cursor=/);
    const rest = await get(next, rich.auth);
    expect(rest.json().transactions).toHaveLength(2);
    expect(rest.json().nextCursor).toBeNull();
  });

  it('bad limit or cursor → 400 in the Mobile shape; another account’s or list’s cursor is refused', async () => {
    for (const q of [
      'limit=0',
      'limit=101',
      'limit=abc',
      'limit=1.5',
      'cursor=',
      'cursor=abc',
      'cursor=a.b',
    ]) {
      expectMobile400(await get(`/api/v1/user/orders?${q}`, user.auth));
    }
    const page = await get('/api/v1/user/orders?limit=2', user.auth);
    const cursor = page.json().nextCursor as string;
    // Another account with the same cursor.
    expectMobile400(await get(`/api/v1/user/orders?limit=2&cursor=${cursor}`, other.auth));
    // Another list of the same account.
    expectMobile400(await get(`/api/v1/user/esims?limit=2&cursor=${cursor}`, user.auth));
    expectMobile400(await get(`/api/v1/support/tickets?limit=2&cursor=${cursor}`, user.auth));
    // An edited cursor (another position, old tag).
    const [payload, tag] = cursor.split('.');
    const forged = `${Buffer.from(JSON.stringify([0, 'ord_x'])).toString('base64url')}.${tag}`;
    expect(payload).not.toBe(forged.split('.')[0]);
    expectMobile400(await get(`/api/v1/user/orders?limit=2&cursor=${forged}`, user.auth));
    // The genuine one still works.
    expect((await get(`/api/v1/user/orders?limit=2&cursor=${cursor}`, user.auth)).statusCode).toBe(200);
  });
});

describe('Partner orders', () => {
  it('pages with cursor and Link, keeps hasMore and startingAfter; cursors are bound to account and mode', async () => {
    const p = await createPartner(t);
    const other = await createPartner(t);
    // The Partner API lists only orders placed through it (issue 28 H12).
    const rows = await insertOrders(p.id, 7, 3, 'partner');
    const root = '/api/public/v1/orders';

    const unpaged = (await get(root, p.headers)).json();
    expect(unpaged).toEqual({ orders: expect.any(Array), hasMore: false });
    expect(unpaged.orders.map((o: { id: string }) => o.id)).toEqual(newestFirst(rows));

    const { seen, pages } = await walk(`${root}?limit=3`, p.headers, 'orders');
    expect(seen).toEqual(newestFirst(rows));
    expect(pages).toEqual([3, 3, 1]);
    const first = (await get(`${root}?limit=3`, p.headers)).json();
    expect(first.hasMore).toBe(true);

    for (const q of [
      'limit=0',
      'limit=101',
      'limit=abc',
      'cursor=nope',
      `cursor=${first.nextCursor}&startingAfter=${first.orders[2].id}`,
    ]) {
      expectPartner400(await get(`${root}?${q}`, p.headers));
    }
    expectPartner400(await get(`${root}?limit=3&cursor=${first.nextCursor}`, other.headers));
    // A test key of the same account: another list.
    const { key: testKey } = await t.container.apiKeys.generate(p.id, 'test');
    expectPartner400(await get(`${root}?limit=3&cursor=${first.nextCursor}`, { 'x-api-key': testKey }));
  });
});

describe('Operator lists', () => {
  it('accounts, audit, mail, tickets, dead letters and plans page with Link and nextCursor', async () => {
    // Accounts: newest first; created here so there are at least 5.
    for (let i = 0; i < 5; i++) await createUser(t.container);
    const accounts = (await get('/api/admin/v1/accounts', admin))
      .json()
      .accounts.map((a: { id: string }) => a.id);
    const walkedAccounts = await walk('/api/admin/v1/accounts?limit=4', admin, 'accounts');
    expect(walkedAccounts.seen.slice(0, accounts.length)).toEqual(accounts);

    const target = uid();
    await t.container.db.transaction(async (tx) => {
      for (let i = 0; i < 5; i++)
        await t.container.audit.record(tx, { action: 'test.list', targetType: 'test', targetId: target });
    });
    const audit = await walk(`/api/admin/v1/audit?target=${target}&limit=2`, admin, 'entries');
    expect(audit.pages).toEqual([2, 2, 1]);
    expect(new Set(audit.seen).size).toBe(5);
    expect(audit.seen).toEqual(
      (await get(`/api/admin/v1/audit?target=${target}`, admin))
        .json()
        .entries.map((e: { id: string }) => e.id),
    );

    const to = `list-${uid().toLowerCase()}@example.com`;
    for (let i = 0; i < 3; i++) await t.container.mailer.send({ to, subject: `m${i}`, text: 'x' });
    const mail = await walk(`/api/admin/v1/mail?to=${encodeURIComponent(to)}&limit=2`, admin, 'messages');
    expect(mail.pages).toEqual([2, 1]);

    const owner = await createUser(t.container);
    for (let i = 0; i < 3; i++)
      await t.container.support.create(owner.id, { subject: `q${i}`, message: 'm' });
    await t.container.db.update(supportTickets).set({ status: 'CLOSED' });
    const tickets = await walk('/api/admin/v1/tickets?status=CLOSED&limit=2', admin, 'tickets');
    expect(tickets.seen).toEqual(
      (await get('/api/admin/v1/tickets?status=CLOSED', admin))
        .json()
        .tickets.map((x: { id: string }) => x.id),
    );

    const kind = `test.list.${uid()}`;
    const now = t.clock.now();
    await t.container.db.insert(jobs).values(
      Array.from({ length: 5 }, () => ({
        kind,
        payload: {},
        status: 'failed' as const,
        runAt: now,
        createdAt: now,
        updatedAt: now,
      })),
    );
    const failed = await walk(`/api/admin/v1/jobs/failed?kind=${kind}&limit=2`, admin, 'jobs');
    expect(failed.pages).toEqual([2, 2, 1]);
    expect(failed.seen).toEqual(
      (await get(`/api/admin/v1/jobs/failed?kind=${kind}`, admin))
        .json()
        .jobs.map((j: { id: string }) => j.id),
    );

    const plans = (await get('/api/admin/v1/plans', admin)).json().plans.map((p: { id: string }) => p.id);
    expect(plans.length).toBeGreaterThan(5);
    const walkedPlans = await walk('/api/admin/v1/plans?limit=100', admin, 'plans');
    expect(walkedPlans.seen).toEqual(plans);
  });

  it('bad limit or cursor → 400 in the operator shape; a cursor is bound to its list and filters', async () => {
    for (const q of ['limit=0', 'limit=101', 'limit=abc', 'cursor=x']) {
      expectPartner400(await get(`/api/admin/v1/audit?${q}`, admin));
      expectPartner400(await get(`/api/admin/v1/accounts?${q}`, admin));
    }
    const page = (await get('/api/admin/v1/accounts?limit=1', admin)).json();
    expectPartner400(await get(`/api/admin/v1/audit?limit=1&cursor=${page.nextCursor}`, admin));
    expectPartner400(await get(`/api/admin/v1/mail?limit=1&cursor=${page.nextCursor}`, admin));
    // Same list, other filter.
    const closed = (await get('/api/admin/v1/tickets?status=CLOSED&limit=1', admin)).json();
    expectPartner400(
      await get(`/api/admin/v1/tickets?status=OPEN&limit=1&cursor=${closed.nextCursor}`, admin),
    );
    // A well-formed cursor made for another scope.
    const foreign = encodeCursor(
      'admin.accounts',
      ['someone@example.com'],
      ['date', 'string'],
      [new Date(), 'acc_x'],
    );
    expectPartner400(await get(`/api/admin/v1/accounts?limit=1&cursor=${foreign}`, admin));
  });
});
