import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operators } from '../../../src/db/schema/index.js';
import { eq } from 'drizzle-orm';
import { ADMIN_TOKEN, buildTestApp, type TestApp } from '../../helpers/app.js';
import { pickPlan } from '../../helpers/catalog.js';
import { createUser, type TestUser } from '../../helpers/factories.js';
import { signedInOperator, type SignedInOperator } from '../../helpers/operators.js';

/**
 * Issue 33 O2/O3: the console's ticket page. One thread with internal notes and the operators who
 * wrote each staff message, the customer's orders beside it, assignment, and the inbox's filters.
 */
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
const ROOT = '/api/admin/v1';

interface Message {
  author: string;
  message: string;
  internal: boolean;
  operator: { id: string; email: string; name: string } | null;
}

let t: TestApp;
let planId: string;
let support: SignedInOperator;
let support2: SignedInOperator;
let finance: SignedInOperator;
let readonly: SignedInOperator;

beforeAll(async () => {
  t = await buildTestApp();
  planId = (await pickPlan(t.container)).id;
  support = await signedInOperator(t, 'support');
  support2 = await signedInOperator(t, 'support');
  finance = await signedInOperator(t, 'finance');
  readonly = await signedInOperator(t, 'readonly');
});
afterAll(() => t.close());

async function openTicket(user: TestUser, subject = 'No data in Lisbon'): Promise<string> {
  t.clock.advance(1000);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/support/tickets',
    headers: user.auth,
    payload: { subject, category: 'esim', message: 'My eSIM shows no signal' },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().ticket.id as string;
}

async function buy(user: TestUser): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/checkout',
    headers: user.auth,
    payload: { planId, quantity: 1, paymentMethod: 'wallet' },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().orderId as string;
}

const detail = (id: string, headers: Record<string, string> = admin) =>
  t.app.inject({ url: `${ROOT}/tickets/${id}`, headers });
const note = (id: string, message: string, headers: Record<string, string> = admin) => {
  t.clock.advance(1000);
  return t.app.inject({ method: 'POST', url: `${ROOT}/tickets/${id}/notes`, headers, payload: { message } });
};
const reply = (id: string, message: string, headers: Record<string, string> = admin) => {
  t.clock.advance(1000);
  return t.app.inject({
    method: 'POST',
    url: `${ROOT}/tickets/${id}/messages`,
    headers,
    payload: { message },
  });
};
const assign = (id: string, operatorId: string | null, headers: Record<string, string> = admin) => {
  t.clock.advance(1000);
  return t.app.inject({
    method: 'PUT',
    url: `${ROOT}/tickets/${id}/assignee`,
    headers,
    payload: { operatorId },
  });
};
const inbox = async (query: string, headers: Record<string, string> = admin) => {
  const res = await t.app.inject({ url: `${ROOT}/tickets?${query}`, headers });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().tickets as Array<{ id: string }>).map((x) => x.id);
};
const auditOf = async (target: string) =>
  (await t.app.inject({ url: `${ROOT}/audit?target=${target}`, headers: admin })).json().entries;

describe('GET /tickets/{id}', () => {
  it('shows the thread with notes marked and staff authors named, beside the customer’s orders', async () => {
    const user = await createUser(t.container, { balanceCents: 100_00 });
    const orderId = await buy(user);
    const id = await openTicket(user);
    expect((await reply(id, 'Turn on data roaming, please.', support.headers)).statusCode).toBe(201);
    const noted = await note(id, 'Checked the provider: the profile is fine.', support.headers);
    expect(noted.statusCode, noted.body).toBe(201);
    expect(noted.json().ticket.messages.at(-1)).toMatchObject({ internal: true, author: 'staff' });

    const res = await detail(id, readonly.headers);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    const who = { id: support.id, email: support.email, name: 'support operator' };
    expect(body.ticket.messages.map((m: Message) => [m.author, m.internal, m.operator])).toEqual([
      ['customer', false, null],
      ['staff', false, who],
      ['staff', true, who],
    ]);
    expect(body.ticket).toMatchObject({ id, accountId: user.id, email: user.email, assignee: null });
    expect(body.customer).toEqual({ accountId: user.id, email: user.email, matchedByEmail: false });
    expect(body.orders).toEqual([
      expect.objectContaining({
        id: orderId,
        status: 'COMPLETED',
        livemode: true,
        planName: expect.any(String),
      }),
    ]);
  });

  it('finds a guest’s orders through an account with their address; none without one', async () => {
    const user = await createUser(t.container, { balanceCents: 100_00 });
    const orderId = await buy(user);
    const contact = (email: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/support/contact',
        remoteAddress: `10.33.0.${Math.floor(Math.random() * 250)}`,
        payload: { email, name: 'Guest', subject: 'Where is my QR code?', message: 'Bought one yesterday' },
      });
    const matched = (await contact(user.email.toUpperCase())).json().ticket.id as string;
    const found = (await detail(matched)).json();
    expect(found.customer).toEqual({ accountId: user.id, email: user.email, matchedByEmail: true });
    expect(found.orders.map((o: { id: string }) => o.id)).toEqual([orderId]);

    const stranger = (await contact('nobody-here@example.com')).json().ticket.id as string;
    const none = (await detail(stranger)).json();
    expect(none.customer).toEqual({
      accountId: null,
      email: 'nobody-here@example.com',
      matchedByEmail: false,
    });
    expect(none.orders).toEqual([]);
  });

  it('answers 404 TICKET_NOT_FOUND for an unknown ticket', async () => {
    const res = await detail('tkt_missing');
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('TICKET_NOT_FOUND');
  });
});

describe('POST /tickets/{id}/notes', () => {
  it('keeps status and last activity, audits without the text, and the token signs as nobody', async () => {
    const user = await createUser(t.container);
    const id = await openTicket(user);
    await reply(id, 'Answered.');
    const before = (await detail(id)).json().ticket;
    const res = await note(id, 'Customer called; refund promised for tomorrow.');
    expect(res.statusCode, res.body).toBe(201);
    const after = res.json().ticket;
    expect(after.status).toBe('ANSWERED');
    expect(after.updatedAt).toBe(before.updatedAt);
    expect(after.messages.at(-1)).toMatchObject({ internal: true, operator: null });
    const [entry] = await auditOf(id);
    expect(entry).toMatchObject({ action: 'ticket.note', actor: 'token', before: null });
    expect(JSON.stringify(entry)).not.toContain('refund promised');
  });

  it('refuses a blank note (400) and an unknown ticket (404)', async () => {
    const user = await createUser(t.container);
    const id = await openTicket(user);
    expect((await note(id, '   ')).statusCode).toBe(400);
    expect((await note('tkt_missing', 'x')).statusCode).toBe(404);
  });
});

describe('PUT /tickets/{id}/assignee', () => {
  it('assigns, reassigns and unassigns, each audited with before and after', async () => {
    const user = await createUser(t.container);
    const id = await openTicket(user);
    const mine = await assign(id, support.id, support.headers);
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json().ticket.assignee).toEqual({
      id: support.id,
      email: support.email,
      name: 'support operator',
    });
    expect((await assign(id, support.id, support.headers)).statusCode).toBe(200); // no change, no row
    await assign(id, support2.id, support.headers);
    const cleared = await assign(id, null, support2.headers);
    expect(cleared.json().ticket.assignee).toBeNull();

    const entries = (await auditOf(id)).filter((e: { action: string }) => e.action === 'ticket.assign');
    expect(
      entries.map((e: { actor: string; before: unknown; after: unknown }) => [e.actor, e.before, e.after]),
    ).toEqual([
      [
        `operator:${support2.id}`,
        { assigneeId: support2.id, assigneeEmail: support2.email },
        { assigneeId: null, assigneeEmail: null },
      ],
      [
        `operator:${support.id}`,
        { assigneeId: support.id, assigneeEmail: support.email },
        { assigneeId: support2.id, assigneeEmail: support2.email },
      ],
      [
        `operator:${support.id}`,
        { assigneeId: null, assigneeEmail: null },
        { assigneeId: support.id, assigneeEmail: support.email },
      ],
    ]);
    expect(entries[0].actorEmail).toBe(support2.email);
  });

  it('404 for an unknown operator, 409 for a disabled one, 400 without operatorId', async () => {
    const user = await createUser(t.container);
    const id = await openTicket(user);
    const unknown = await assign(id, 'opr_nobody');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toEqual({ code: 'NOT_FOUND', message: 'Operator not found' });
    const gone = await signedInOperator(t, 'support');
    await t.database.db.update(operators).set({ status: 'DISABLED' }).where(eq(operators.id, gone.id));
    const disabled = await assign(id, gone.id);
    expect(disabled.statusCode).toBe(409);
    expect(disabled.json().error.code).toBe('INVALID_STATE');
    const empty = await t.app.inject({
      method: 'PUT',
      url: `${ROOT}/tickets/${id}/assignee`,
      headers: admin,
      payload: {},
    });
    expect(empty.statusCode).toBe(400);
    expect((await assign('tkt_missing', support.id)).statusCode).toBe(404);
  });
});

describe('GET /tickets filters', () => {
  it('filters by one or several statuses and by assignee me, unassigned or an id', async () => {
    const user = await createUser(t.container);
    const open = await openTicket(user, 'Open one');
    const answered = await openTicket(user, 'Answered one');
    await reply(answered, 'Done?');
    const closed = await openTicket(user, 'Closed one');
    const resolved = await openTicket(user, 'Resolved one');
    for (const [id, status] of [
      [closed, 'CLOSED'],
      [resolved, 'RESOLVED'],
    ] as const) {
      t.clock.advance(1000);
      await t.app.inject({
        method: 'PATCH',
        url: `${ROOT}/tickets/${id}`,
        headers: admin,
        payload: { status },
      });
    }
    await assign(open, support.id);
    await assign(answered, support2.id);

    const ours = [open, answered, closed, resolved];
    const only = (ids: string[]) => ids.filter((id) => ours.includes(id));
    expect(only(await inbox('status=OPEN'))).toEqual([open]);
    expect(only(await inbox('status=ANSWERED'))).toEqual([answered]);
    expect(only(await inbox('status=RESOLVED&status=CLOSED'))).toEqual([resolved, closed]);
    expect(only(await inbox('assignee=me', support.headers))).toEqual([open]);
    expect(only(await inbox(`assignee=${support2.id}`))).toEqual([answered]);
    expect(only(await inbox('assignee=unassigned&status=CLOSED&status=RESOLVED'))).toEqual([
      resolved,
      closed,
    ]);
    expect(only(await inbox('assignee=me&status=ANSWERED', support.headers))).toEqual([]);

    const listed = (
      await t.app.inject({ url: `${ROOT}/tickets?assignee=me`, headers: support.headers })
    ).json();
    expect(listed.tickets[0].assignee).toEqual({
      id: support.id,
      email: support.email,
      name: 'support operator',
    });

    const byToken = await t.app.inject({ url: `${ROOT}/tickets?assignee=me`, headers: admin });
    expect(byToken.statusCode).toBe(400);
    expect(byToken.json().error.code).toBe('VALIDATION_ERROR');
    expect((await t.app.inject({ url: `${ROOT}/tickets?status=LOST`, headers: admin })).statusCode).toBe(400);
  });

  it('pages with a cursor that only works with its own filters', async () => {
    const user = await createUser(t.container);
    for (let i = 0; i < 3; i++) await assign(await openTicket(user, `Paged ${i}`), support2.id);
    const first = await t.app.inject({
      url: `${ROOT}/tickets?assignee=${support2.id}&limit=2`,
      headers: admin,
    });
    const { nextCursor } = first.json();
    expect(nextCursor).toEqual(expect.any(String));
    const next = await t.app.inject({
      url: `${ROOT}/tickets?assignee=${support2.id}&limit=2&cursor=${nextCursor}`,
      headers: admin,
    });
    expect(next.statusCode).toBe(200);
    const other = await t.app.inject({
      url: `${ROOT}/tickets?assignee=unassigned&cursor=${nextCursor}`,
      headers: admin,
    });
    expect(other.statusCode).toBe(400);
  });
});

describe('roles', () => {
  it('Finance and Read-only may read but not reply, note or assign (403); Support may', async () => {
    const user = await createUser(t.container);
    const id = await openTicket(user);
    for (const who of [finance, readonly]) {
      expect((await detail(id, who.headers)).statusCode).toBe(200);
      for (const res of [
        await reply(id, 'From finance', who.headers),
        await note(id, 'From finance', who.headers),
        await assign(id, who.id, who.headers),
      ]) {
        expect(res.statusCode).toBe(403);
        expect(res.json().error.code).toBe('ROLE_FORBIDDEN');
      }
    }
    expect((await reply(id, 'From support', support.headers)).statusCode).toBe(201);
    expect((await note(id, 'From support', support.headers)).statusCode).toBe(201);
    expect((await assign(id, support.id, support.headers)).statusCode).toBe(200);
    const messages = (await detail(id)).json().ticket.messages as Message[];
    expect(messages.map((m) => m.message)).toEqual([
      'My eSIM shows no signal',
      'From support',
      'From support',
    ]);
  });
});
