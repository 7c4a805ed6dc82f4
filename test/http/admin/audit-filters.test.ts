import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAs } from '../../../src/lib/actor-context.js';
import { ADMIN_TOKEN, buildTestApp, type TestApp } from '../../helpers/app.js';
import { signedInOperator, type SignedInOperator } from '../../helpers/operators.js';

/** Issue 33: the console's audit log filters by actor, action prefix, target and time, and names operators. */
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

interface Entry {
  action: string;
  targetId: string;
  actor: string | null;
  actorEmail: string | null;
  actorName: string | null;
  createdAt: string;
}

let t: TestApp;
let owner: SignedInOperator;
let support: SignedInOperator;
const start = new Date();

beforeAll(async () => {
  t = await buildTestApp();
  owner = await signedInOperator(t, 'owner');
  support = await signedInOperator(t, 'support');
  t.clock.set(start);
  // One row a second, oldest first: [actor, action, target].
  const rows: Array<[string, string, string]> = [
    ['token', 'account.status.update', 'acc_1'],
    [`operator:${owner.id}`, 'wallet.adjust', 'acc_1'],
    [`operator:${support.id}`, 'ticket.reply', 'tkt_1'],
    [`operator:${support.id}`, 'ticket.note', 'tkt_1'],
    [`operator:${owner.id}`, 'ticket_x.other', 'tkt_2'],
    ['system', 'order.refund', 'ord_1'],
  ];
  for (const [actor, action, target] of rows) {
    t.clock.advance(1000);
    await runAs(actor, () =>
      t.container.audit.record(t.container.db, { action, targetType: 'thing', targetId: target }),
    );
  }
});
afterAll(() => t.close());

const at = (seconds: number) => new Date(start.getTime() + seconds * 1000).toISOString();
async function list(query: string, headers: Record<string, string> = admin): Promise<Entry[]> {
  const res = await t.app.inject({ url: `/api/admin/v1/audit?${query}`, headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().entries;
}
const actions = (entries: Entry[]) => entries.map((e) => e.action);

describe('GET /audit filters', () => {
  it('names each operator actor by e-mail and name; the token and the system by their tag', async () => {
    const entries = await list('', support.headers);
    expect(entries.slice(0, 3).map((e) => [e.actor, e.actorEmail, e.actorName])).toEqual([
      ['system', null, null],
      [`operator:${owner.id}`, owner.email, 'owner operator'],
      [`operator:${support.id}`, support.email, 'support operator'],
    ]);
    expect(entries.find((e) => e.actor === 'token')).toMatchObject({ actorEmail: null, actorName: null });
  });

  it('filters by actor exactly', async () => {
    expect(actions(await list(`actor=operator:${support.id}`))).toEqual(['ticket.note', 'ticket.reply']);
    expect(actions(await list('actor=token'))).toContain('account.status.update');
    expect(await list('actor=operator:opr_nobody')).toEqual([]);
  });

  it('filters by an action prefix taken literally', async () => {
    expect(actions(await list(`action=ticket.&actor=operator:${support.id}`))).toEqual([
      'ticket.note',
      'ticket.reply',
    ]);
    // `_` is no wildcard: "ticket_" does not match "ticket.".
    expect(actions(await list('action=ticket_'))).toEqual(['ticket_x.other']);
    expect(actions(await list('action=ticket.note'))).toEqual(['ticket.note']);
    expect(await list('action=%25')).toEqual([]);
  });

  it('filters by target and by time, from included and to excluded', async () => {
    expect(actions(await list('target=acc_1'))).toEqual(['wallet.adjust', 'account.status.update']);
    expect(actions(await list(`from=${at(3)}&to=${at(5)}`))).toEqual(['ticket.note', 'ticket.reply']);
    expect(actions(await list(`from=${at(6)}`))).toEqual(['order.refund']);
    const bad = await t.app.inject({ url: `/api/admin/v1/audit?from=${at(5)}&to=${at(1)}`, headers: admin });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('VALIDATION_ERROR');
    expect(
      (await t.app.inject({ url: '/api/admin/v1/audit?from=yesterday', headers: admin })).statusCode,
    ).toBe(400);
  });

  it('pages with filters; a cursor does not carry over to other filters', async () => {
    const query = `from=${at(1)}&to=${at(7)}`;
    const first = await t.app.inject({ url: `/api/admin/v1/audit?${query}&limit=4`, headers: admin });
    const { entries, nextCursor } = first.json();
    expect(actions(entries)).toEqual(['order.refund', 'ticket_x.other', 'ticket.note', 'ticket.reply']);
    const second = await t.app.inject({
      url: `/api/admin/v1/audit?${query}&limit=4&cursor=${nextCursor}`,
      headers: admin,
    });
    expect(actions(second.json().entries)).toEqual(['wallet.adjust', 'account.status.update']);
    expect(second.json().nextCursor).toBeNull();
    const other = await t.app.inject({
      url: `/api/admin/v1/audit?actor=token&cursor=${nextCursor}`,
      headers: admin,
    });
    expect(other.statusCode).toBe(400);
  });
});
