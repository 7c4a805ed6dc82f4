import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, buildTestApp, type TestApp } from '../../helpers/app.js';
import { createUser, type TestUser } from '../../helpers/factories.js';

const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

describe('admin support tickets', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const openTicket = async (user: TestUser, subject = 'Need help') => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/support/tickets',
      headers: user.auth,
      payload: { subject, category: 'payment', message: 'My card was charged twice' },
    });
    expect(res.statusCode).toBe(201);
    return res.json().ticket as { id: string };
  };
  const staffReply = (id: string, message: string, requestId?: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/admin/v1/tickets/${id}/messages`,
      headers: { ...admin, ...(requestId ? { 'x-request-id': requestId } : {}) },
      payload: { message },
    });
  const patch = (id: string, status: string, requestId?: string) =>
    t.app.inject({
      method: 'PATCH',
      url: `/api/admin/v1/tickets/${id}`,
      headers: { ...admin, ...(requestId ? { 'x-request-id': requestId } : {}) },
      payload: { status },
    });
  const auditFor = async (target: string) =>
    (await t.app.inject({ url: `/api/admin/v1/audit?target=${target}`, headers: admin })).json().entries;

  it('staff reply marks the ticket ANSWERED, audits it and e-mails the customer in Turkish', async () => {
    const user = await createUser(t.container, { locale: 'tr' });
    const ticket = await openTicket(user, 'Çift ödeme');
    t.clock.advance(1000);
    const res = await staffReply(ticket.id, 'We refunded the second charge.', 'req-staff-reply-1');
    expect(res.statusCode).toBe(201);
    const body = res.json().ticket;
    expect(body).toMatchObject({
      id: ticket.id,
      status: 'ANSWERED',
      accountId: user.id,
      systemCreated: false,
    });
    expect(body.messages.map((m: { author: string }) => m.author)).toEqual(['customer', 'staff']);

    const [mail] = await t.container.mailer.list({ to: user.email });
    expect(mail!.subject).toBe('Destek talebinize yanıt verildi: Çift ödeme');
    expect(mail!.text).toContain('We refunded the second charge.');
    expect(mail!.text).toContain(ticket.id);
    expect(mail!.html).toContain('Destek ekibimiz');

    const [entry] = await auditFor(ticket.id);
    expect(entry).toMatchObject({
      action: 'ticket.reply',
      targetType: 'ticket',
      targetId: ticket.id,
      before: { status: 'OPEN' },
      after: { status: 'ANSWERED' },
      requestId: 'req-staff-reply-1',
    });

    // The customer sees the staff message in their thread.
    const mine = (await t.app.inject({ url: '/api/v1/support/tickets', headers: user.auth })).json().tickets;
    expect(mine[0].status).toBe('ANSWERED');
    expect(mine[0].messages[1]).toMatchObject({ author: 'staff', message: 'We refunded the second charge.' });
  });

  it('e-mails an English-speaking customer in English and escapes HTML', async () => {
    const user = await createUser(t.container, { locale: 'en' });
    const ticket = await openTicket(user, 'Refund');
    await staffReply(ticket.id, 'Use <b>Settings</b> & retry');
    const [mail] = await t.container.mailer.list({ to: user.email });
    expect(mail!.subject).toBe('Your support ticket has a reply: Refund');
    expect(mail!.text).toContain('Use <b>Settings</b> & retry');
    expect(mail!.html).toContain('Use &lt;b&gt;Settings&lt;/b&gt; &amp; retry');
  });

  it('PATCH sets any status and writes an audit row; an unchanged status writes none', async () => {
    const user = await createUser(t.container);
    const ticket = await openTicket(user);
    const resolved = await patch(ticket.id, 'RESOLVED', 'req-patch-1');
    expect(resolved.statusCode).toBe(200);
    expect(resolved.json().ticket.status).toBe('RESOLVED');
    t.clock.advance(1000);
    expect((await patch(ticket.id, 'RESOLVED', 'req-patch-2')).statusCode).toBe(200);
    t.clock.advance(1000);
    expect((await patch(ticket.id, 'CLOSED', 'req-patch-3')).json().ticket.status).toBe('CLOSED');
    const entries = await auditFor(ticket.id);
    expect(entries.map((e: { requestId: string }) => e.requestId)).toEqual(['req-patch-3', 'req-patch-1']);
    expect(entries[0]).toMatchObject({
      action: 'ticket.status.update',
      before: { status: 'RESOLVED' },
      after: { status: 'CLOSED' },
    });
  });

  it('rejects an unknown status and unknown tickets', async () => {
    const user = await createUser(t.container);
    const ticket = await openTicket(user);
    const bad = await patch(ticket.id, 'PENDING');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('VALIDATION_ERROR');
    const missing = await patch('tkt_missing', 'CLOSED');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.code).toBe('TICKET_NOT_FOUND');
    expect((await staffReply('tkt_missing', 'hello')).statusCode).toBe(404);
    expect((await staffReply(ticket.id, '')).statusCode).toBe(400);
    expect(await auditFor('tkt_missing')).toEqual([]);
  });

  it('lists tickets by status with threads and owner, most recent activity first', async () => {
    const user = await createUser(t.container);
    const a = await openTicket(user, 'list-a');
    t.clock.advance(1000);
    const b = await openTicket(user, 'list-b');
    t.clock.advance(1000);
    await staffReply(a.id, 'answer');
    t.clock.advance(1000);

    const answered = await t.app.inject({ url: '/api/admin/v1/tickets?status=ANSWERED', headers: admin });
    expect(answered.statusCode).toBe(200);
    const answeredIds = answered.json().tickets.map((x: { id: string }) => x.id);
    expect(answeredIds).toContain(a.id);
    expect(answeredIds).not.toContain(b.id);
    expect(answered.json().tickets.every((x: { status: string }) => x.status === 'ANSWERED')).toBe(true);

    const all = (await t.app.inject({ url: '/api/admin/v1/tickets', headers: admin })).json().tickets;
    const mine = all.filter((x: { accountId: string }) => x.accountId === user.id);
    expect(mine.map((x: { id: string }) => x.id)).toEqual([a.id, b.id]);
    expect(mine[0]).toMatchObject({ email: user.email, systemCreated: false, orderId: null });
    expect(mine[0].messages.map((m: { author: string }) => m.author)).toEqual(['customer', 'staff']);

    const limited = await t.app.inject({ url: '/api/admin/v1/tickets?limit=1', headers: admin });
    expect(limited.json().tickets).toHaveLength(1);
    expect(
      (await t.app.inject({ url: '/api/admin/v1/tickets?status=NOPE', headers: admin })).statusCode,
    ).toBe(400);
  });

  it('a staff reply on a CLOSED ticket makes it ANSWERED, and the customer reply reopens it', async () => {
    const user = await createUser(t.container);
    const ticket = await openTicket(user);
    await patch(ticket.id, 'CLOSED');
    expect((await staffReply(ticket.id, 'one more note')).json().ticket.status).toBe('ANSWERED');
    const reopened = await t.app.inject({
      method: 'POST',
      url: `/api/v1/support/tickets/${ticket.id}/messages`,
      headers: user.auth,
      payload: { message: 'thanks, but…' },
    });
    expect(reopened.json().ticket.status).toBe('OPEN');
  });

  it('requires the admin token', async () => {
    expect((await t.app.inject({ url: '/api/admin/v1/tickets' })).statusCode).toBe(401);
    const patchNoAuth = await t.app.inject({
      method: 'PATCH',
      url: '/api/admin/v1/tickets/tkt_x',
      payload: { status: 'CLOSED' },
    });
    expect(patchNoAuth.statusCode).toBe(401);
  });
});
