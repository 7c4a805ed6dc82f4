import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, buildTestApp, type TestApp } from '../../helpers/app.js';
import { createUser } from '../../helpers/factories.js';

const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

describe('support.openSystemTicket', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { SUPPORT_EMAIL: 'ops@example.com' } });
  });
  afterAll(() => t.close());

  const input = (accountId: string, orderId: string) => ({
    accountId,
    orderId,
    subject: 'Your order could not be completed',
    message: 'The eSIM provider failed to issue your eSIM. We are retrying.',
  });

  it('opens a system ticket the operator sees with its order id', async () => {
    const user = await createUser(t.container);
    const { id } = await t.container.support.openSystemTicket(input(user.id, 'ord_sys_1'));
    expect(id).toMatch(/^tkt_/);
    const tickets = (await t.app.inject({ url: '/api/admin/v1/tickets?status=OPEN', headers: admin })).json()
      .tickets;
    const ticket = tickets.find((x: { id: string }) => x.id === id);
    expect(ticket).toMatchObject({
      accountId: user.id,
      email: user.email,
      systemCreated: true,
      orderId: 'ord_sys_1',
      category: 'order',
      status: 'OPEN',
      subject: 'Your order could not be completed',
    });
    expect(ticket.messages).toEqual([
      expect.objectContaining({ author: 'system', message: input(user.id, 'x').message }),
    ]);
    const [notice] = await t.container.mailer.list({ to: 'ops@example.com' });
    expect(notice!.subject).toBe('[system ticket] Your order could not be completed');
    expect(notice!.text).toContain('ord_sys_1');
  });

  it('shows the ticket to the customer with the system message as staff', async () => {
    const user = await createUser(t.container);
    const { id } = await t.container.support.openSystemTicket(input(user.id, 'ord_sys_2'));
    const res = await t.app.inject({ url: '/api/v1/support/tickets', headers: user.auth });
    const [ticket] = res.json().tickets;
    expect(ticket).toMatchObject({ id, orderId: 'ord_sys_2', category: 'order', status: 'OPEN' });
    expect(ticket.messages.map((m: { author: string }) => m.author)).toEqual(['staff']);
    // The customer can answer it like any other ticket.
    const reply = await t.app.inject({
      method: 'POST',
      url: `/api/v1/support/tickets/${id}/messages`,
      headers: user.auth,
      payload: { message: 'Please refund me instead' },
    });
    expect(reply.statusCode).toBe(201);
    expect(reply.json().ticket.messages.map((m: { author: string }) => m.author)).toEqual([
      'staff',
      'customer',
    ]);
  });

  it('reuses the order’s ticket on a second failure, reopening it', async () => {
    const user = await createUser(t.container);
    const first = await t.container.support.openSystemTicket(input(user.id, 'ord_sys_3'));
    await t.container.support.setStatus(first.id, 'RESOLVED');
    t.clock.advance(1000);
    const second = await t.container.support.openSystemTicket({
      ...input(user.id, 'ord_sys_3'),
      message: 'Failed again',
    });
    expect(second.id).toBe(first.id);
    const [ticket] = await t.container.support.listForAccount(user.id);
    expect(ticket!.status).toBe('OPEN');
    expect(ticket!.messages.map((m) => m.message)).toEqual([input(user.id, 'x').message, 'Failed again']);
    const notices = await t.container.mailer.list({ to: 'ops@example.com' });
    expect(notices.filter((m) => m.text.includes('ord_sys_3'))).toHaveLength(1);
  });

  it('opens one ticket for concurrent calls about the same order', async () => {
    const user = await createUser(t.container);
    const results = await Promise.all(
      Array.from({ length: 4 }, () => t.container.support.openSystemTicket(input(user.id, 'ord_sys_4'))),
    );
    expect(new Set(results.map((r) => r.id)).size).toBe(1);
    const [ticket] = await t.container.support.listForAccount(user.id);
    expect(ticket!.messages).toHaveLength(4);
  });
});
