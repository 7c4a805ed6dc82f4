import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PushMessage } from '../../../src/domain/alerts/ports.js';
import { esims, events, sandboxEsimProfiles } from '../../../src/db/schema/index.js';
import { DAY, HOUR } from '../../../src/lib/clock.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { pickPlan } from '../../helpers/catalog.js';
import { createUser, type TestUser } from '../../helpers/factories.js';
import { adminPost } from '../../http/partner/helpers.js';

/**
 * Traveller alerts (issue 31 L2) end to end on the container: what the account's devices are
 * pushed (a recorder in place of the push delivery) and what the mail outbox holds.
 */
let t: TestApp;
let planId: string;
let priceCents: number;
let totalMb: number;
const pushes: Array<{ accountId: string; message: PushMessage; dedupeKey: string }> = [];

beforeAll(async () => {
  t = await buildTestApp();
  const plan = await pickPlan(t.container);
  planId = plan.id;
  priceCents = plan.effectivePriceCents;
  totalMb = plan.dataAmountMb;
  t.container.alerts.push = {
    async toAccount(_tx, accountId, message, dedupeKey) {
      pushes.push({ accountId, message, dedupeKey });
    },
  };
});
afterAll(() => t.close());
beforeEach(() => {
  pushes.length = 0;
});

async function buyWithWallet(user: TestUser) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/checkout',
    headers: user.auth,
    payload: { planId, paymentMethod: 'wallet' },
  });
  expect(res.statusCode, res.body).toBe(200);
  const [esim] = await t.container.db.select().from(esims).where(eq(esims.orderId, res.json().orderId));
  return esim!;
}

/** The operator's sandbox usage control, its DATA_USAGE / ESIM_STATUS webhooks applied. */
async function setUsage(iccid: string, usedMb: number) {
  expect((await adminPost(t, '/sandbox/esim-provider/usage', { iccid, usedMb })).statusCode).toBe(200);
  await t.container.worker.runDue();
}

const pushesTo = (accountId: string) => pushes.filter((p) => p.accountId === accountId);
/** The account's mail, without the purchase receipts (`… – order SVC-…`). */
const mailsTo = async (email: string) => {
  await t.container.worker.runDue();
  return (await t.container.mailer.list({ to: email })).filter((m) => !/SVC-/.test(m.subject));
};

describe('usage alerts of a web eSIM', () => {
  it('80 % and 100 % once each, a push and a mail carrying the ICCID and its page', async () => {
    const user = await createUser(t.container, { balanceCents: priceCents });
    const esim = await buyWithWallet(user);
    await setUsage(esim.iccid, Math.floor(totalMb * 0.5));
    expect(pushesTo(user.id)).toEqual([]);
    await setUsage(esim.iccid, Math.ceil(totalMb * 0.85));
    expect(pushesTo(user.id)).toEqual([
      {
        accountId: user.id,
        message: {
          title: '80 % of your eSIM data used',
          body: expect.stringContaining('20 % of its data left'),
          data: { kind: 'usage', url: `/esims/${esim.iccid}`, iccid: esim.iccid },
        },
        dedupeKey: `alert:usage:${esim.id}:80:0`,
      },
    ]);
    await setUsage(esim.iccid, Math.ceil(totalMb * 0.9));
    expect(pushesTo(user.id)).toHaveLength(1);
    await setUsage(esim.iccid, totalMb);
    expect(pushesTo(user.id).map((p) => p.message.title)).toEqual([
      '80 % of your eSIM data used',
      'Your eSIM data is used up',
    ]);
    const mails = await mailsTo(user.email);
    expect(mails.map((m) => m.subject).sort()).toEqual([
      '80 % of your eSIM data used',
      'Your eSIM data is used up',
    ]);
    for (const mail of mails) {
      expect(mail.text).toContain(`http://localhost:3000/esims/${esim.iccid}`);
      expect(mail.text).toContain(`ICCID: ${esim.iccid}`);
    }
    // A web eSIM is none of the Partner API's business.
    expect(await t.container.db.select().from(events).where(eq(events.accountId, user.id))).toEqual([]);
  });

  it('re-arms when a top-up brings usage back below a threshold; the next crossing alerts again', async () => {
    const user = await createUser(t.container, { balanceCents: priceCents });
    const esim = await buyWithWallet(user);
    await setUsage(esim.iccid, Math.ceil(totalMb * 0.85));
    // A top-up doubles the volume: 42 % used.
    await t.container.db
      .update(sandboxEsimProfiles)
      .set({ totalMb: totalMb * 2 })
      .where(eq(sandboxEsimProfiles.iccid, esim.iccid));
    await setUsage(esim.iccid, Math.ceil(totalMb * 0.85));
    const [rearmed] = await t.container.db.select().from(esims).where(eq(esims.id, esim.id));
    expect(rearmed).toMatchObject({ usageThresholdNotified: 0, usageRearms: 1 });
    await setUsage(esim.iccid, Math.ceil(totalMb * 1.7));
    expect(pushesTo(user.id).map((p) => p.dedupeKey)).toEqual([
      `alert:usage:${esim.id}:80:0`,
      `alert:usage:${esim.id}:80:1`,
    ]);
    expect((await mailsTo(user.email)).filter((m) => m.subject.startsWith('80 %'))).toHaveLength(2);
  });

  it('concurrent readings of one crossing alert once', async () => {
    const user = await createUser(t.container, { balanceCents: priceCents });
    const esim = await buyWithWallet(user);
    const reading = (n: number) =>
      t.container.providerNotifications.apply('sandbox', {
        id: `concurrent-${esim.id}-${n}`,
        type: 'DATA_USAGE',
        notice: {
          kind: 'usage',
          esim: { providerRef: esim.providerRef },
          usage: { usedMb: totalMb, totalMb },
        },
        payload: { n },
      });
    await Promise.all([1, 2, 3, 4, 5].map(reading));
    expect(pushesTo(user.id).map((p) => p.message.data.kind)).toEqual(['usage']);
    expect(await mailsTo(user.email)).toHaveLength(1);
  });

  it('honours the preferences and writes in the account’s language', async () => {
    const user = await createUser(t.container, { balanceCents: priceCents * 2, locale: 'de' });
    const patch = (notifications: object) =>
      t.app.inject({
        method: 'PATCH',
        url: '/api/v1/user/profile',
        headers: user.auth,
        payload: { notifications },
      });
    const off = await patch({ email: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().user.notifications).toEqual({ email: false, push: true });
    const me = await t.app.inject({ url: '/api/v1/auth/me', headers: user.auth });
    expect(me.json().user.notifications).toEqual({ email: false, push: true });

    const first = await buyWithWallet(user);
    await setUsage(first.iccid, totalMb);
    expect(pushesTo(user.id).map((p) => p.message.title)).toEqual(['Ihr eSIM-Datenvolumen ist aufgebraucht']);
    expect(await mailsTo(user.email)).toEqual([]);

    expect((await patch({ email: true, push: false })).json().user.notifications).toEqual({
      email: true,
      push: false,
    });
    const second = await buyWithWallet(user);
    await setUsage(second.iccid, totalMb);
    expect(pushesTo(user.id)).toHaveLength(1);
    const mails = await mailsTo(user.email);
    expect(mails.map((m) => m.subject)).toEqual(['Ihr eSIM-Datenvolumen ist aufgebraucht']);
    expect(mails[0]!.text).toContain(second.iccid);
    // An unknown channel changes nothing.
    expect((await patch({ sms: true })).json().user.notifications).toEqual({ email: true, push: false });
  });
});

describe('expiry alerts', () => {
  it('3 days, then 1 day before the end, each once; the periodic scan finds them as time passes', async () => {
    const user = await createUser(t.container, { balanceCents: priceCents, locale: 'fr' });
    const esim = await buyWithWallet(user);
    expect(
      (await adminPost(t, '/sandbox/esim-provider/expiry', { iccid: esim.iccid, daysLeft: 3 })).statusCode,
    ).toBe(200);
    await t.container.worker.runDue();
    expect(pushesTo(user.id).map((p) => [p.message.title, p.message.data.url])).toEqual([
      ['Votre eSIM expire dans 3 jours', `/esims/${esim.iccid}`],
    ]);
    await t.container.esimMilestones.scanExpiring();
    expect(pushesTo(user.id)).toHaveLength(1);
    t.clock.advance(2 * DAY + HOUR);
    await t.container.esimMilestones.scanExpiring();
    expect(pushesTo(user.id).map((p) => p.message.title)).toEqual([
      'Votre eSIM expire dans 3 jours',
      'Votre eSIM expire demain',
    ]);
    await t.container.esimMilestones.scanExpiring();
    expect(pushesTo(user.id)).toHaveLength(2);
    expect((await mailsTo(user.email)).map((m) => m.subject).sort()).toEqual([
      'Votre eSIM expire dans 3 jours',
      'Votre eSIM expire demain',
    ]);
  });
});

describe('eSIM ready and support answers', () => {
  it('a card order’s eSIM is announced when it is ready; a wallet order’s is not', async () => {
    const user = await createUser(t.container);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/checkout',
      headers: user.auth,
      payload: { planId, paymentMethod: 'card' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const page = new URL(res.json().url as string).pathname;
    await t.app.inject({ method: 'POST', url: `${page}/complete`, payload: { outcome: 'paid' } });
    await t.container.worker.runDue();
    const [esim] = await t.container.db.select().from(esims).where(eq(esims.orderId, res.json().orderId));
    expect(pushesTo(user.id)).toEqual([
      {
        accountId: user.id,
        message: {
          title: 'Your eSIM is ready',
          body: expect.any(String),
          data: { kind: 'esim_ready', url: `/esims/${esim!.iccid}`, iccid: esim!.iccid },
        },
        dedupeKey: `alert:esim_ready:${esim!.id}`,
      },
    ]);
    // Its e-mail is the receipt, which already says so (with the ICCID and QR code): no second one.
    const all = await t.container.mailer.list({ to: user.email });
    expect(all.map((m) => m.subject)).toEqual([expect.stringMatching(/^Your eSIM is ready – order SVC-/)]);
    expect(all[0]!.text).toContain(esim!.iccid);

    const walletUser = await createUser(t.container, { balanceCents: priceCents });
    await buyWithWallet(walletUser);
    expect(pushesTo(walletUser.id)).toEqual([]);
  });

  it('"eSIM ready" survives a failure right after completion: queued again, once', async () => {
    const user = await createUser(t.container);
    const recorder = t.container.alerts.push;
    let failures = 1;
    t.container.alerts.push = {
      async toAccount(tx, accountId, message, dedupeKey) {
        // The database going away between the order's completion and its announcement.
        if (accountId === user.id && failures-- > 0) throw new Error('connection terminated');
        await recorder.toAccount(tx, accountId, message, dedupeKey);
      },
    };
    try {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/checkout',
        headers: user.auth,
        payload: { planId, paymentMethod: 'card' },
      });
      const page = new URL(res.json().url as string).pathname;
      await t.app.inject({ method: 'POST', url: `${page}/complete`, payload: { outcome: 'paid' } });
      await t.container.worker.runDue();
      expect(pushesTo(user.id)).toEqual([]);
      t.clock.advance(HOUR);
      await t.container.worker.runDue();
      t.clock.advance(HOUR);
      await t.container.worker.runDue();
      expect(pushesTo(user.id).map((p) => p.message.data.kind)).toEqual(['esim_ready']);
      const receipts = await t.container.mailer.list({ to: user.email });
      expect(receipts.map((m) => m.subject)).toEqual([
        expect.stringMatching(/^Your eSIM is ready – order SVC-/),
      ]);
    } finally {
      t.container.alerts.push = recorder;
    }
  });

  it('a staff reply pushes "support answered" with the ticket’s page, once per reply', async () => {
    const user = await createUser(t.container, { locale: 'es' });
    const opened = await t.app.inject({
      method: 'POST',
      url: '/api/v1/support/tickets',
      headers: user.auth,
      payload: { subject: 'No data', message: 'My eSIM shows no signal in Lisbon' },
    });
    expect(opened.statusCode, opened.body).toBe(201);
    const ticketId = opened.json().ticket.id as string;
    const reply = await t.container.support.staffReply(ticketId, 'Please turn on data roaming.');
    expect(reply.status).toBe('ANSWERED');
    expect(pushesTo(user.id)).toEqual([
      {
        accountId: user.id,
        message: {
          title: 'Soporte ha respondido',
          body: expect.any(String),
          data: { kind: 'ticket_answered', url: `/support?ticket=${ticketId}`, ticketId },
        },
        dedupeKey: expect.stringMatching(new RegExp(`^alert:ticket:${ticketId}:\\d+$`)),
      },
    ]);
    await t.container.support.staffReply(ticketId, 'Did that help?');
    expect(pushesTo(user.id)).toHaveLength(2);
    // Support's own reply mails are the e-mails: no second mail per reply.
    expect(await mailsTo(user.email)).toHaveLength(2);
  });
});

describe('partner eSIMs are announced by events only', () => {
  it('no push or mail for an eSIM bought through the Partner API', async () => {
    const user = await createUser(t.container, { balanceCents: priceCents });
    const { key } = await t.container.apiKeys.generate(user.id);
    const order = await t.app.inject({
      method: 'POST',
      url: '/api/public/v1/orders',
      headers: { 'x-api-key': key },
      payload: { planId, quantity: 1 },
    });
    expect(order.statusCode, order.body).toBe(201);
    const iccid = order.json().esims[0].iccid as string;
    await setUsage(iccid, totalMb);
    await adminPost(t, '/sandbox/esim-provider/expiry', { iccid, daysLeft: 1 });
    await t.container.worker.runDue();
    expect(pushesTo(user.id)).toEqual([]);
    const sent = await t.container.db
      .select({ type: events.type })
      .from(events)
      .where(and(eq(events.accountId, user.id)));
    expect(sent.map((e) => e.type)).toEqual(
      expect.arrayContaining(['esim.usage_threshold', 'esim.expiring', 'esim.status_changed']),
    );
    expect((await mailsTo(user.email)).filter((m) => m.subject.includes('eSIM'))).toEqual([]);
  });
});
