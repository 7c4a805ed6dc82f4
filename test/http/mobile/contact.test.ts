import { Writable } from 'node:stream';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContainer } from '../../../src/container.js';
import { buildApp, loggerOptions } from '../../../src/http/app.js';
import { silentLogger } from '../../../src/lib/logger.js';
import { ADMIN_TOKEN, BASE_URL, buildTestApp, type TestApp } from '../../helpers/app.js';
import { testConfig } from '../../helpers/config.js';
import { createUser } from '../../helpers/factories.js';
import { mobileShape } from '../security/shapes.js';

/**
 * Issue 30 T3: the contact form opens a ticket for a guest (no account); the operator's reply is
 * mailed with a link to /support/guest/<token>, where the guest reads the thread and answers.
 */
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
const SUPPORT_EMAIL = 'team@roam.example';
const LINK = new RegExp(`${BASE_URL}/support/guest/([A-Za-z0-9_-]{43})`);

interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string | null;
}

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ env: { SUPPORT_EMAIL } });
});
afterAll(() => t.close());

let ipCounter = 0;
/** Each call from its own client address unless one is given: the per-IP limit stays out of the way. */
function contact(body: Record<string, unknown>, options: { ip?: string; lang?: string } = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/support/contact',
    remoteAddress: options.ip ?? `10.1.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`,
    headers: { 'accept-language': options.lang ?? 'en' },
    payload: body,
  });
}

const form = (email: string, extra: Record<string, unknown> = {}) => ({
  email,
  name: 'Ayşe Yılmaz',
  subject: 'Does the Japan plan work in Okinawa?',
  message: 'Hello,\nI fly next week. Will the 5 GB plan work on Okinawa too?',
  ...extra,
});

async function mailsTo(email: string): Promise<Mail[]> {
  const res = await t.app.inject({
    url: `/api/admin/v1/mail?to=${encodeURIComponent(email)}`,
    headers: admin,
  });
  expect(res.statusCode).toBe(200);
  return res.json().messages;
}

async function staffReply(ticketId: string, message: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/admin/v1/tickets/${ticketId}/messages`,
    headers: admin,
    payload: { message },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().ticket;
}

/** The token of the newest staff-reply mail to `email`. */
async function linkToken(email: string): Promise<string> {
  const [mail] = await mailsTo(email);
  const match = LINK.exec(mail!.text);
  expect(match, mail!.text).not.toBeNull();
  return match![1]!;
}

const guestGet = (token: string) => t.app.inject({ url: `/api/v1/support/guest/${token}` });
const guestPost = (token: string, message: unknown) =>
  t.app.inject({ method: 'POST', url: `/api/v1/support/guest/${token}/messages`, payload: { message } });

function expectLimited(res: LightMyRequestResponse) {
  expect(res.statusCode, res.body).toBe(429);
  mobileShape(res.json(), 'RATE_LIMITED');
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(3600);
}

describe('POST /api/v1/support/contact', () => {
  it('opens a guest ticket without a session, in the operator queue, and tells SUPPORT_EMAIL', async () => {
    const res = await contact(form('  Ayse@Example.COM '));
    expect(res.statusCode, res.body).toBe(201);
    const { ticket } = res.json();
    expect(ticket).toEqual({
      id: expect.stringMatching(/^tkt_/),
      subject: 'Does the Japan plan work in Okinawa?',
      status: 'OPEN',
      createdAt: expect.any(String),
    });
    const queue = await t.app.inject({ url: '/api/admin/v1/tickets?status=OPEN', headers: admin });
    const listed = queue.json().tickets.find((x: { id: string }) => x.id === ticket.id);
    expect(listed).toMatchObject({
      accountId: null,
      email: 'ayse@example.com',
      guest: { email: 'ayse@example.com', name: 'Ayşe Yılmaz' },
      status: 'OPEN',
      messages: [{ author: 'customer', message: form('').message }],
    });
    const [notice] = (await mailsTo(SUPPORT_EMAIL)).filter((m) => m.text.includes(ticket.id));
    expect(notice).toMatchObject({ subject: '[contact form] Does the Japan plan work in Okinawa?' });
    expect(notice!.text).toContain('From: Ayşe Yılmaz <ayse@example.com>');
    // Nothing goes to the guest before an operator answers (the form is no mail relay).
    expect(await mailsTo('ayse@example.com')).toEqual([]);
  });

  it('checks the fields', async () => {
    for (const body of [
      form('not-an-address'),
      form('x@example.com', { name: '   ' }),
      form('x@example.com', { subject: ' ' }),
      form('x@example.com', { message: '' }),
      form('x@example.com', { message: 'x'.repeat(5001) }),
      { email: 'x@example.com', subject: 'Hi', message: 'Hi' },
    ]) {
      const res = await contact(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      mobileShape(res.json(), 'VALIDATION_ERROR');
    }
  });

  it('allows 5 per address per hour by default, from any IP, then 429 with Retry-After', async () => {
    for (let i = 0; i < 5; i++) expect((await contact(form('flood@example.com'))).statusCode).toBe(201);
    expectLimited(await contact(form('FLOOD@example.com ')));
    expect((await contact(form('someone-else@example.com'))).statusCode).toBe(201);
  });

  it('allows 20 per client IP per hour by default, whatever the address, then 429 with Retry-After', async () => {
    const ip = '10.9.9.9';
    for (let i = 0; i < 20; i++) {
      expect((await contact(form(`ip-${i}@example.com`), { ip })).statusCode).toBe(201);
    }
    expectLimited(await contact(form('ip-new@example.com'), { ip }));
    expect((await contact(form('ip-new@example.com'), { ip: '10.9.9.10' })).statusCode).toBe(201);
  });
});

describe('guest thread', () => {
  it('mails the operator reply with a link, in the language of the form', async () => {
    const email = 'mehmet@example.com';
    const { ticket } = (await contact(form(email, { name: 'Mehmet' }), { lang: 'tr-TR,tr;q=0.9' })).json();
    await staffReply(ticket.id, 'Evet, Okinawa kapsamda.');
    const [mail] = await mailsTo(email);
    expect(mail!.subject).toBe('Mesajınıza yanıt verildi: Does the Japan plan work in Okinawa?');
    expect(mail!.text).toContain('Merhaba Mehmet,');
    expect(mail!.text).toContain('Evet, Okinawa kapsamda.');
    expect(mail!.text).toMatch(LINK);
    expect(mail!.html).toContain(`<a href="${BASE_URL}/support/guest/`);
  });

  it('shows the thread behind the link and takes the guest’s answer', async () => {
    const email = 'reader@example.com';
    const { ticket } = (await contact(form(email))).json();
    t.clock.advance(1000);
    await staffReply(ticket.id, 'Yes, Okinawa is covered.');
    const token = await linkToken(email);

    const read = await guestGet(token);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.headers['cache-control']).toBe('no-store');
    expect(read.json()).toEqual({
      ticket: {
        id: ticket.id,
        name: 'Ayşe Yılmaz',
        subject: 'Does the Japan plan work in Okinawa?',
        status: 'ANSWERED',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        messages: [
          {
            id: expect.any(String),
            author: 'customer',
            message: form('').message,
            createdAt: expect.any(String),
          },
          {
            id: expect.any(String),
            author: 'staff',
            message: 'Yes, Okinawa is covered.',
            createdAt: expect.any(String),
          },
        ],
      },
    });

    t.clock.advance(1000);
    const answer = await guestPost(token, 'Thank you! And in Hokkaido?');
    expect(answer.statusCode, answer.body).toBe(201);
    expect(answer.json().ticket).toMatchObject({ status: 'OPEN' });
    expect(answer.json().ticket.messages.at(-1)).toMatchObject({
      author: 'customer',
      message: 'Thank you! And in Hokkaido?',
    });
    const queue = await t.app.inject({ url: '/api/admin/v1/tickets?status=OPEN', headers: admin });
    expect(queue.json().tickets.find((x: { id: string }) => x.id === ticket.id).messages).toHaveLength(3);
  });

  it('answers 404 for a wrong token, and for the link of an earlier mail after a new reply', async () => {
    const wrong = 'A'.repeat(43);
    const read = await guestGet(wrong);
    expect(read.statusCode).toBe(404);
    mobileShape(read.json(), 'TICKET_NOT_FOUND');
    expect((await guestPost(wrong, 'hello')).statusCode).toBe(404);
    expect((await guestGet('short')).statusCode).toBe(400);

    const email = 'rotate@example.com';
    const { ticket } = (await contact(form(email))).json();
    // Before any reply there is no link at all.
    await staffReply(ticket.id, 'First answer.');
    const first = await linkToken(email);
    t.clock.advance(1000);
    await staffReply(ticket.id, 'Second answer.');
    const second = await linkToken(email);
    expect(second).not.toBe(first);
    expect((await guestGet(first)).statusCode).toBe(404);
    expect((await guestGet(second)).json().ticket.messages).toHaveLength(3);
  });

  it('is not reachable from an account, and customers’ tickets are not reachable by a link', async () => {
    const user = await createUser(t.container);
    const { ticket } = (await contact(form('outsider@example.com'))).json();
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/support/tickets/${ticket.id}/messages`,
      headers: user.auth,
      payload: { message: 'mine?' },
    });
    expect(res.statusCode).toBe(404);
    const mine = await t.app.inject({ url: '/api/v1/support/tickets', headers: user.auth });
    expect(mine.json().tickets).toEqual([]);
  });
});

describe('guest links in logs', () => {
  it('never logs the token of a guest link', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const config = testConfig({ LOG_LEVEL: 'info' });
    const container = createContainer({ config, database: t.database, clock: t.clock, log: silentLogger });
    const app = await buildApp({ container, logger: { ...(loggerOptions(config) as object), stream } });
    try {
      const { ticket } = (await contact(form('logged@example.com'))).json();
      await staffReply(ticket.id, 'Logged reply.');
      const token = await linkToken('logged@example.com');
      expect((await app.inject({ url: `/api/v1/support/guest/${token}` })).statusCode).toBe(200);
      const post = await app.inject({
        method: 'POST',
        url: `/api/v1/support/guest/${token}/messages`,
        payload: { message: 'hi' },
      });
      expect(post.statusCode).toBe(201);
      await app.inject({ url: `/support/guest/${token}` });
      await app.inject({ url: `/api/v1/support/guest/${token}/unknown` });
      const log = lines.join('');
      expect(log).toContain('/api/v1/support/guest/[REDACTED]');
      expect(log).not.toContain(token);
    } finally {
      await app.close();
      await container.close();
    }
  });
});
