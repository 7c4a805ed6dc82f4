import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, buildTestApp, type TestApp } from '../../helpers/app.js';
import { createUser } from '../../helpers/factories.js';

const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

describe('admin audit log', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const record = (targetId: string, action: string, requestId?: string) =>
    t.container.audit.record(t.container.db, {
      action,
      targetType: 'thing',
      targetId,
      before: { n: 1 },
      after: { n: 2 },
      ...(requestId ? { requestId } : {}),
    });
  const get = (query: string) => t.app.inject({ url: `/api/admin/v1/audit${query}`, headers: admin });

  it('lists entries newest first with every field', async () => {
    await record('tgt_a', 'thing.first', 'req-1');
    t.clock.advance(1000);
    await record('tgt_a', 'thing.second');
    const res = await get('?target=tgt_a');
    expect(res.statusCode).toBe(200);
    const { entries } = res.json();
    expect(entries.map((e: { action: string }) => e.action)).toEqual(['thing.second', 'thing.first']);
    expect(entries[1]).toEqual({
      id: expect.stringMatching(/^aud_/),
      action: 'thing.first',
      targetType: 'thing',
      targetId: 'tgt_a',
      before: { n: 1 },
      after: { n: 2 },
      requestId: 'req-1',
      // Written outside any request: no actor (issue 33 adds who, and an operator's e-mail and name).
      actor: null,
      actorEmail: null,
      actorName: null,
      createdAt: expect.stringMatching(/Z$/),
    });
    expect(entries[0].requestId).toBeNull();
  });

  it('filters by target and limits the page', async () => {
    t.clock.advance(1000);
    await record('tgt_b', 'thing.other');
    const onlyB = (await get('?target=tgt_b')).json().entries;
    expect(onlyB.map((e: { targetId: string }) => e.targetId)).toEqual(['tgt_b']);
    expect((await get('?target=tgt_none')).json().entries).toEqual([]);
    const all = (await get('')).json().entries;
    expect(all.length).toBeGreaterThanOrEqual(3);
    expect(all[0].targetId).toBe('tgt_b');
    expect((await get('?limit=1')).json().entries).toHaveLength(1);
    expect((await get('?limit=0')).statusCode).toBe(400);
    expect((await get('?limit=501')).statusCode).toBe(400);
  });

  it('records admin ticket actions with the request id of the admin call', async () => {
    const acc = await createUser(t.container);
    const { id } = await t.container.support.openSystemTicket({
      accountId: acc.id,
      orderId: 'ord_audit',
      subject: 'Order failed',
      message: 'Provider error',
    });
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/v1/tickets/${id}`,
      headers: { ...admin, 'x-request-id': 'audit-req-42' },
      payload: { status: 'RESOLVED' },
    });
    expect(res.statusCode).toBe(200);
    const [entry] = (await get(`?target=${id}`)).json().entries;
    expect(entry).toMatchObject({
      action: 'ticket.status.update',
      requestId: 'audit-req-42',
      after: { status: 'RESOLVED' },
    });
  });

  it('requires the admin token', async () => {
    expect((await t.app.inject({ url: '/api/admin/v1/audit' })).statusCode).toBe(401);
  });
});
