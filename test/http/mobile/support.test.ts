import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { supportTickets } from '../../../src/db/schema/index.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { createUser, type TestUser } from '../../helpers/factories.js';

interface ListedTicket {
  id: string;
  subject: string;
  status: string;
  createdAt: string;
  updatedAt: string;
  messages: Array<{ author: string; message: string }>;
}

describe('mobile support tickets', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const open = (user: TestUser, body: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/api/v1/support/tickets', headers: user.auth, payload: body });
  const reply = (user: TestUser, id: string, message: unknown) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/support/tickets/${id}/messages`,
      headers: user.auth,
      payload: { message },
    });
  const list = async (user: TestUser) => {
    const res = await t.app.inject({ url: '/api/v1/support/tickets', headers: user.auth });
    expect(res.statusCode).toBe(200);
    return res.json().tickets as ListedTicket[];
  };
  const forceStatus = (id: string, status: 'OPEN' | 'ANSWERED' | 'RESOLVED' | 'CLOSED') =>
    t.container.db.update(supportTickets).set({ status }).where(eq(supportTickets.id, id));

  it('creates a ticket with its first message', async () => {
    const user = await createUser(t.container);
    const res = await open(user, {
      subject: 'eSIM not activating',
      category: 'esim',
      message: 'Help please',
    });
    expect(res.statusCode).toBe(201);
    const { ticket } = res.json();
    expect(ticket).toMatchObject({
      subject: 'eSIM not activating',
      category: 'esim',
      status: 'OPEN',
      orderId: null,
    });
    expect(ticket.id).toMatch(/^tkt_/);
    expect(ticket.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(ticket.updatedAt).toBe(ticket.createdAt);
    expect(ticket.messages).toEqual([
      {
        id: expect.stringMatching(/^msg_/),
        author: 'customer',
        message: 'Help please',
        createdAt: ticket.createdAt,
      },
    ]);
    expect(Object.keys(ticket).sort()).toEqual(
      ['category', 'createdAt', 'id', 'messages', 'orderId', 'status', 'subject', 'updatedAt'].sort(),
    );
  });

  it('defaults the category to other and accepts the suggested categories', async () => {
    const user = await createUser(t.container);
    const res = await open(user, { subject: 'Hi', message: 'x' });
    expect(res.json().ticket.category).toBe('other');
    for (const category of ['order', 'payment', 'esim', 'account', 'other']) {
      expect((await open(user, { subject: 's', category, message: 'm' })).statusCode).toBe(201);
    }
    // Free text since issue 10 (S12): see test/http/security/requests.test.ts.
    const bad = await open(user, { subject: 's', category: 'x'.repeat(33), message: 'm' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('VALIDATION_ERROR');
  });

  it('enforces subject and message length limits', async () => {
    const user = await createUser(t.container);
    const cases: Array<[Record<string, unknown>, number]> = [
      [{ subject: '', message: 'm' }, 400],
      [{ subject: 'a'.repeat(201), message: 'm' }, 400],
      [{ subject: 'a'.repeat(200), message: 'm' }, 201],
      [{ subject: '   ', message: 'm' }, 400],
      [{ subject: 's', message: '' }, 400],
      [{ subject: 's', message: 'b'.repeat(5001) }, 400],
      [{ subject: 's', message: 'b'.repeat(5000) }, 201],
      [{ message: 'm' }, 400],
      [{ subject: 's' }, 400],
    ];
    for (const [body, status] of cases) {
      const res = await open(user, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 60)).toBe(status);
      if (status === 400) expect(res.json().code).toBe('VALIDATION_ERROR');
    }
    const created = (await open(user, { subject: 's', message: 'm' })).json().ticket;
    expect((await reply(user, created.id, '')).statusCode).toBe(400);
    expect((await reply(user, created.id, 'c'.repeat(5001))).statusCode).toBe(400);
    expect((await reply(user, created.id, 'c'.repeat(5000))).statusCode).toBe(201);
  });

  it('lists tickets by last activity with threads oldest first', async () => {
    const user = await createUser(t.container);
    const first = (await open(user, { subject: 'first', message: 'm1' })).json().ticket;
    t.clock.advance(1000);
    const second = (await open(user, { subject: 'second', message: 'm2' })).json().ticket;
    t.clock.advance(1000);
    expect((await list(user)).map((x) => x.subject)).toEqual(['second', 'first']);

    // A reply is activity: the older ticket moves to the top.
    expect((await reply(user, first.id, 'follow-up')).statusCode).toBe(201);
    t.clock.advance(1000);
    await reply(user, first.id, 'and another');
    const tickets = await list(user);
    expect(tickets.map((x) => x.id)).toEqual([first.id, second.id]);
    expect(tickets[0]!.messages.map((m) => m.message)).toEqual(['m1', 'follow-up', 'and another']);
    expect(new Date(tickets[0]!.updatedAt).getTime()).toBeGreaterThan(
      new Date(tickets[0]!.createdAt).getTime(),
    );
  });

  it('keeps thread order for messages written in the same millisecond', async () => {
    const user = await createUser(t.container);
    const ticket = (await open(user, { subject: 'burst', message: '0' })).json().ticket;
    for (let i = 1; i <= 5; i++) await reply(user, ticket.id, String(i));
    const [listed] = await list(user);
    expect(listed!.messages.map((m) => m.message)).toEqual(['0', '1', '2', '3', '4', '5']);
  });

  it('keeps every concurrent reply, each in its own thread position', async () => {
    const user = await createUser(t.container);
    const ticket = (await open(user, { subject: 'race', message: 'start' })).json().ticket;
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => reply(user, ticket.id, `r${i}`)));
    expect(results.map((r) => r.statusCode)).toEqual(Array(6).fill(201));
    const [listed] = await list(user);
    const bodies = listed!.messages.map((m) => m.message);
    expect(bodies[0]).toBe('start');
    expect(bodies.slice(1).sort()).toEqual(['r0', 'r1', 'r2', 'r3', 'r4', 'r5']);
  });

  it('shows only the caller’s tickets', async () => {
    const alice = await createUser(t.container);
    const bob = await createUser(t.container);
    await open(alice, { subject: 'alice', message: 'm' });
    expect(await list(bob)).toEqual([]);
    expect((await list(alice)).map((x) => x.subject)).toEqual(['alice']);
  });

  it.each(['ANSWERED', 'RESOLVED', 'CLOSED'] as const)(
    'reopens a %s ticket on a customer reply',
    async (status) => {
      const user = await createUser(t.container);
      const ticket = (await open(user, { subject: 's', message: 'm' })).json().ticket;
      await forceStatus(ticket.id, status);
      t.clock.advance(5000);
      const res = await reply(user, ticket.id, 'still broken');
      expect(res.statusCode).toBe(201);
      const updated = res.json().ticket;
      expect(updated.status).toBe('OPEN');
      expect(updated.updatedAt).toBe(t.clock.now().toISOString());
      expect(updated.messages.at(-1)).toMatchObject({ author: 'customer', message: 'still broken' });
    },
  );

  it('keeps an OPEN ticket OPEN on a customer reply', async () => {
    const user = await createUser(t.container);
    const ticket = (await open(user, { subject: 's', message: 'm' })).json().ticket;
    const res = await reply(user, ticket.id, 'more details');
    expect(res.json().ticket.status).toBe('OPEN');
    expect(res.json().ticket.messages).toHaveLength(2);
  });

  it('answers 404 for another account’s ticket and for an unknown id, changing nothing', async () => {
    const owner = await createUser(t.container);
    const other = await createUser(t.container);
    const ticket = (await open(owner, { subject: 's', message: 'm' })).json().ticket;
    await forceStatus(ticket.id, 'CLOSED');
    for (const id of [ticket.id, 'tkt_doesnotexist']) {
      const res = await reply(other, id, 'hijack');
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'Destek talebi bulunamadı.', code: 'TICKET_NOT_FOUND' });
    }
    const [mine] = await list(owner);
    expect(mine!.status).toBe('CLOSED');
    expect(mine!.messages).toHaveLength(1);
  });

  it('requires a session', async () => {
    const list401 = await t.app.inject({ url: '/api/v1/support/tickets' });
    expect(list401.statusCode).toBe(401);
    expect(list401.json().code).toBe('UNAUTHORIZED');
    const create401 = await t.app.inject({
      method: 'POST',
      url: '/api/v1/support/tickets',
      payload: { subject: 's', message: 'm' },
    });
    expect(create401.statusCode).toBe(401);
    const reply401 = await t.app.inject({
      method: 'POST',
      url: '/api/v1/support/tickets/tkt_x/messages',
      payload: { message: 'm' },
    });
    expect(reply401.statusCode).toBe(401);
  });
});
