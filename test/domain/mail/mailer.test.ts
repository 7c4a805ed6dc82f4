import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from '../../../src/domain/mail/mailer.js';
import { receiptQrPng } from '../../../src/domain/mail/receipts.js';
import { pickPlan } from '../../helpers/catalog.js';
import { createUser } from '../../helpers/factories.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { registerViaApi } from '../../helpers/accounts.js';

interface Received {
  from: string | undefined;
  to: string[];
  raw: string;
}

/** A real SMTP server on 127.0.0.1 that keeps what it receives; rejects recipients @reject.test. */
async function startSmtpServer(): Promise<{ server: SMTPServer; port: number; received: Received[] }> {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (address.address.endsWith('@reject.test')) return callback(new Error('mailbox unavailable'));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined,
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.server.address() as AddressInfo).port, received };
}

interface MimePart {
  headers: Record<string, string>;
  body: string;
}

/** Leaf parts of a raw MIME message (enough of RFC 2046 for what nodemailer writes). */
function mimeParts(raw: string): MimePart[] {
  const [head = '', ...rest] = raw.split(/\r?\n\r?\n/);
  const body = rest.join('\r\n\r\n');
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  const boundary = /boundary="?([^";]+)"?/i.exec(headers['content-type'] ?? '')?.[1];
  if (!/^multipart\//i.test(headers['content-type'] ?? '') || !boundary) return [{ headers, body }];
  return body
    .split(`--${boundary}`)
    .slice(1, -1)
    .flatMap((part) => mimeParts(part.replace(/^\r?\n/, '')));
}

function decodeBody(part: MimePart): Buffer {
  const encoding = (part.headers['content-transfer-encoding'] ?? '').toLowerCase();
  if (encoding === 'base64') return Buffer.from(part.body.replace(/\s+/g, ''), 'base64');
  if (encoding === 'quoted-printable') {
    const bytes = part.body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1');
  }
  return Buffer.from(part.body, 'utf8');
}

describe('mailer', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let t: TestApp;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await buildTestApp({
      env: {
        MAIL_TRANSPORT: 'smtp',
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        MAIL_FROM: 'eSIM Test <no-reply@esim.test>',
      },
    });
  });
  afterAll(async () => {
    await t.container.worker.runDue();
    await t.close();
    await new Promise<void>((resolve) => smtp.server.close(() => resolve()));
  });

  it('delivers through SMTP and records the message as sent', async () => {
    const record = await t.container.mailer.send({
      to: 'someone@example.com',
      subject: 'Hello over SMTP',
      text: 'plain body',
      html: '<p>html body</p>',
    });
    expect(record).toMatchObject({
      to: 'someone@example.com',
      subject: 'Hello over SMTP',
      status: 'sent',
      error: null,
    });
    expect(record.sentAt).toBeInstanceOf(Date);
    const delivered = smtp.received.find((m) => m.to.includes('someone@example.com'))!;
    expect(delivered.from).toBe('no-reply@esim.test');
    expect(delivered.raw).toContain('Subject: Hello over SMTP');
    expect(delivered.raw).toContain('plain body');
    expect(delivered.raw).toContain('<p>html body</p>');
  });

  it('records a delivery failure without throwing', async () => {
    const record = await t.container.mailer.send({ to: 'nobody@reject.test', subject: 'Bounce', text: 'x' });
    expect(record.status).toBe('failed');
    expect(record.error).toMatch(/mailbox unavailable/);
    const [listed] = await t.container.mailer.list({ to: 'nobody@reject.test' });
    expect(listed?.status).toBe('failed');
  });

  it('delivers the password reset message of forgot-password', async () => {
    const user = await registerViaApi(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/forgot-password',
      payload: { email: user.email, locale: 'en' },
    });
    expect(res.json()).toEqual({ success: true });
    await t.container.worker.runDue();
    const delivered = smtp.received.find((m) => m.to.includes(user.email))!;
    expect(delivered.raw).toContain('Subject: Reset your password');
    expect(delivered.raw.replace(/=\r?\n/g, '')).toMatch(/reset-password\?token=3D[A-Za-z0-9_-]{43}/);
    const [record] = await t.container.mailer.list({ to: user.email });
    expect(record!.status).toBe('sent');
  });

  it('delivers the order receipt with each QR code as an inline image of the activation string', async () => {
    const plan = await pickPlan(t.container);
    const user = await createUser(t.container, { balanceCents: plan.effectivePriceCents, locale: 'tr' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/checkout',
      headers: user.auth,
      payload: { planId: plan.id, paymentMethod: 'wallet' },
    });
    expect(res.json().status).toBe('COMPLETED');
    await t.container.worker.runDue();
    const delivered = smtp.received.find((m) => m.to.includes(user.email))!;
    expect(delivered).toBeDefined();
    const parts = mimeParts(delivered.raw);
    const image = parts.find((p) => /^image\/png/i.test(p.headers['content-type'] ?? ''))!;
    expect(image.headers['content-disposition']).toMatch(/^inline/);
    const cid = /^<(.+)>$/.exec(image.headers['content-id']!)![1]!;
    const html = parts.find((p) => /^text\/html/i.test(p.headers['content-type'] ?? ''))!;
    expect(decodeBody(html).toString('utf8')).toContain(`src="cid:${cid}"`);
    // multipart/related keeps the image with the HTML that shows it.
    expect(delivered.raw).toMatch(/Content-Type: multipart\/related/i);
    const esims = (await t.app.inject({ url: '/api/v1/user/esims', headers: user.auth })).json().esims;
    expect(decodeBody(image).equals(receiptQrPng(esims[0].activationCode))).toBe(true);
    const [record] = await t.container.mailer.list({ to: user.email });
    expect(record).toMatchObject({ status: 'sent' });
    expect(record!.attachments).toEqual([
      {
        filename: `esim-${esims[0].iccid}.png`,
        contentType: 'image/png',
        cid,
        size: decodeBody(image).length,
      },
    ]);
  });

  it('with MAIL_TRANSPORT=outbox only records', async () => {
    const before = smtp.received.length;
    const outbox = createMailer({
      db: t.container.db,
      clock: t.clock,
      transport: 'outbox',
      from: 'x@y.test',
    });
    const record = await outbox.send({ to: 'kept@example.com', subject: 'Kept', text: 'only recorded' });
    expect(record).toMatchObject({ status: 'recorded', sentAt: null });
    expect((await outbox.list({ to: 'KEPT@example.com' })).map((m) => m.id)).toEqual([record.id]);
    expect(smtp.received.length).toBe(before);
  });
});
