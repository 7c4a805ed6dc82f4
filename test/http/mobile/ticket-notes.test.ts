import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, BASE_URL, buildTestApp, type TestApp } from '../../helpers/app.js';
import { createUser, type TestUser } from '../../helpers/factories.js';
import { signedInOperator, type SignedInOperator } from '../../helpers/operators.js';
import { pushesOf } from '../../helpers/push.js';

/**
 * Issue 33: an operator's internal note never reaches the customer. Not in the app's thread or
 * list, not behind the guest's link, not in a mail, a push or the data export.
 */
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
const NOTE = 'INTERNAL: customer is on the fraud watch list';
const LINK = new RegExp(`${BASE_URL}/support/guest/([A-Za-z0-9_-]{43})`);

let t: TestApp;
let support: SignedInOperator;
beforeAll(async () => {
  t = await buildTestApp();
  support = await signedInOperator(t, 'support');
});
afterAll(() => t.close());

const staff = (path: string, message: string) => {
  t.clock.advance(1000);
  return t.app.inject({
    method: 'POST',
    url: `/api/admin/v1/tickets/${path}`,
    headers: support.headers,
    payload: { message },
  });
};

async function mailsTo(
  email: string,
): Promise<Array<{ subject: string; text: string; html: string | null }>> {
  const res = await t.app.inject({
    url: `/api/admin/v1/mail?to=${encodeURIComponent(email)}`,
    headers: admin,
  });
  return res.json().messages;
}

async function openTicket(user: TestUser): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/support/tickets',
    headers: user.auth,
    payload: { subject: 'Charged twice', category: 'payment', message: 'Two charges on my card' },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().ticket.id as string;
}

describe('internal notes and the customer', () => {
  it('the app’s thread, list, mails, pushes and data export never show a note', async () => {
    const user = await createUser(t.container);
    const device = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/push-devices',
      headers: user.auth,
      payload: { platform: 'ANDROID', pushToken: `fcm-${user.id}` },
    });
    expect(device.statusCode, device.body).toBe(200);
    const id = await openTicket(user);
    expect((await staff(`${id}/messages`, 'We refunded the second charge.')).statusCode).toBe(201);
    const mails = (await mailsTo(user.email)).length;
    const pushes = (await pushesOf(t.app, user.id)).length;
    expect(pushes).toBe(1);
    const listBefore = (await t.app.inject({ url: '/api/v1/support/tickets', headers: user.auth })).json();

    expect((await staff(`${id}/notes`, NOTE)).statusCode).toBe(201);

    const list = await t.app.inject({ url: '/api/v1/support/tickets', headers: user.auth });
    expect(list.body).not.toContain(NOTE);
    // Nothing the customer sees moved: status, last activity, the thread.
    expect(list.json()).toEqual(listBefore);
    expect(await mailsTo(user.email)).toHaveLength(mails);
    expect(await pushesOf(t.app, user.id)).toHaveLength(pushes);
    for (const mail of await mailsTo(user.email)) expect(JSON.stringify(mail)).not.toContain(NOTE);
    const exported = await t.app.inject({ url: '/api/v1/user/export', headers: user.auth });
    expect(exported.statusCode).toBe(200);
    expect(exported.body).not.toContain(NOTE);

    // The customer answers after the note: their thread is whole and in order, still without it.
    t.clock.advance(1000);
    const answered = await t.app.inject({
      method: 'POST',
      url: `/api/v1/support/tickets/${id}/messages`,
      headers: user.auth,
      payload: { message: 'Thanks!' },
    });
    expect(answered.statusCode, answered.body).toBe(201);
    expect(answered.body).not.toContain(NOTE);
    const thread = answered.json().ticket.messages as Array<{ author: string; message: string }>;
    expect(thread.map((m) => m.message)).toEqual([
      'Two charges on my card',
      'We refunded the second charge.',
      'Thanks!',
    ]);
    // The console still has all four, the note in its place.
    const console = (await t.app.inject({ url: `/api/admin/v1/tickets/${id}`, headers: admin })).json();
    expect(console.ticket.messages.map((m: { internal: boolean }) => m.internal)).toEqual([
      false,
      false,
      true,
      false,
    ]);
  });

  it('the guest’s link never shows a note, before or after their answer', async () => {
    const email = `guest-${Date.now()}@example.com`;
    const opened = await t.app.inject({
      method: 'POST',
      url: '/api/v1/support/contact',
      payload: { email, name: 'Guest', subject: 'Okinawa?', message: 'Does the Japan plan work there?' },
    });
    expect(opened.statusCode, opened.body).toBe(201);
    const id = opened.json().ticket.id as string;
    expect((await staff(`${id}/notes`, NOTE)).statusCode).toBe(201);
    expect(await mailsTo(email)).toEqual([]); // a note mails nobody
    expect((await staff(`${id}/messages`, 'Yes, it does.')).statusCode).toBe(201);
    expect((await staff(`${id}/notes`, `${NOTE} (2)`)).statusCode).toBe(201);

    const [mail] = await mailsTo(email);
    expect(JSON.stringify(mail)).not.toContain(NOTE);
    const token = LINK.exec(mail!.text)![1]!;
    const thread = await t.app.inject({ url: `/api/v1/support/guest/${token}` });
    expect(thread.statusCode, thread.body).toBe(200);
    expect(thread.body).not.toContain(NOTE);
    expect(thread.json().ticket.messages.map((m: { message: string }) => m.message)).toEqual([
      'Does the Japan plan work there?',
      'Yes, it does.',
    ]);
    const answered = await t.app.inject({
      method: 'POST',
      url: `/api/v1/support/guest/${token}/messages`,
      payload: { message: 'Great, thanks' },
    });
    expect(answered.statusCode, answered.body).toBe(201);
    expect(answered.body).not.toContain(NOTE);
    expect(answered.json().ticket.messages).toHaveLength(3);
  });
});
