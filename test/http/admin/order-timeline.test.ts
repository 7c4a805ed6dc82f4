import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../../src/db/schema/index.js';
import { SECOND } from '../../../src/lib/clock.js';
import { ADMIN_TOKEN, buildTestApp, type TestApp } from '../../helpers/app.js';
import { pickPlan } from '../../helpers/catalog.js';
import { balanceOf, createUser, type TestUser } from '../../helpers/factories.js';
import { expectLedgerInvariant } from '../../helpers/ledger.js';
import { signedInOperator, type SignedInOperator } from '../../helpers/operators.js';
import { startReceiver, type Receiver } from '../../helpers/webhook-receiver.js';

/** Issue 33 O2: GET /orders/{id}/timeline, and the order actions by named operators. */

let t: TestApp;
let receiver: Receiver;
let planId: string;
let priceCents: number;
let support: SignedInOperator;
let finance: SignedInOperator;
let owner: SignedInOperator;
const token = { authorization: `Bearer ${ADMIN_TOKEN}` };

interface Item {
  at: string;
  kind: string;
  title: string;
  detail?: string;
  status?: string;
  actor?: string;
  actorEmail?: string;
  actorName?: string;
  redacted?: true;
}

beforeAll(async () => {
  t = await buildTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
  receiver = await startReceiver(0);
  const plan = await pickPlan(t.container);
  planId = plan.id;
  priceCents = plan.effectivePriceCents;
  support = await signedInOperator(t, 'support');
  finance = await signedInOperator(t, 'finance');
  owner = await signedInOperator(t, 'owner');
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

const admin = (method: 'GET' | 'POST', url: string, headers: Record<string, string>, extra = {}) =>
  t.app.inject({ method, url: `/api/admin/v1${url}`, headers: { ...headers, ...extra } });

async function timeline(orderId: string, headers: Record<string, string> = token): Promise<Item[]> {
  const res = await admin('GET', `/orders/${orderId}/timeline`, headers);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().timeline.orderId).toBe(orderId);
  const items: Item[] = res.json().timeline.items;
  const times = items.map((i) => Date.parse(i.at));
  expect(times).toEqual([...times].sort((a, b) => a - b));
  return items;
}

async function checkout(user: TestUser, failures = 0): Promise<string> {
  if (failures) {
    await t.app.inject({
      method: 'POST',
      url: '/api/admin/v1/sandbox/esim-provider/faults',
      headers: token,
      payload: { failNext: failures },
    });
  }
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/checkout',
    headers: user.auth,
    payload: { planId, paymentMethod: 'wallet' },
  });
  expect(res.statusCode).toBe(failures ? 502 : 200);
  return res.json().orderId;
}

describe('GET /orders/{id}/timeline', () => {
  it('tells a completed order: placed, charged, provider call, completed, receipt mail', async () => {
    const user = await createUser(t.container, { balanceCents: priceCents });
    const orderId = await checkout(user);
    await t.container.worker.runDue();
    const items = await timeline(orderId);
    expect(items.map((i) => [i.kind, i.status])).toEqual([
      ['order', 'info'],
      ['wallet', 'info'],
      ['fulfilment', 'ok'],
      ['order', 'ok'],
      ['mail', 'info'],
    ]);
    expect(items[0]!.title).toMatch(/^Order SVC-.* placed$/);
    expect(items[1]!.title).toBe(`Wallet charged ${(priceCents / 100).toFixed(2)} USD`);
    expect(items[2]!.title).toBe('Provider call 1 while placing the order: eSIM issued');
    expect(items[3]!.title).toBe('Completed: 1 eSIM issued');
    expect(items[4]!.title).toContain(`Mail to ${user.email}: Your eSIM is ready`);
    expect((await admin('GET', '/orders/ord_nope/timeline', token)).statusCode).toBe(404);
  });

  it('tells a failed order retried by Support and refunded by Finance, naming both', async () => {
    const user = await createUser(t.container, { balanceCents: priceCents });
    const orderId = await checkout(user, 2);

    // Support retries (it fails again) but may not refund.
    t.clock.advance(SECOND);
    const retry = await admin('POST', `/orders/${orderId}/retry`, support.headers);
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json().outcome).toBe('failure');
    const refused = await admin('POST', `/orders/${orderId}/refund`, support.headers);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('ROLE_FORBIDDEN');

    t.clock.advance(SECOND);
    const refund = await admin('POST', `/orders/${orderId}/refund`, finance.headers, {
      'idempotency-key': `refund-${orderId}`,
    });
    expect(refund.statusCode, refund.body).toBe(200);
    expect(refund.json().order.status).toBe('REFUNDED');
    // The same click again answers the same, and refunds nothing more.
    const again = await admin('POST', `/orders/${orderId}/refund`, finance.headers, {
      'idempotency-key': `refund-${orderId}`,
    });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(refund.json());
    expect(await balanceOf(t.container, user.id)).toBe(priceCents);
    await expectLedgerInvariant(t.container);

    const rows = await t.container.db.select().from(auditLog).where(eq(auditLog.targetId, orderId));
    expect(rows.map((r) => [r.action, r.actor, r.before, r.after])).toEqual([
      [
        'order.retry',
        `operator:${support.id}`,
        { status: 'PROCESSING' },
        { status: 'PROCESSING', outcome: 'failure' },
      ],
      [
        'order.refund',
        `operator:${finance.id}`,
        { status: 'PROCESSING' },
        { status: 'REFUNDED', amountCents: priceCents },
      ],
    ]);

    await t.container.worker.runDue();
    const items = await timeline(orderId, support.headers);
    const titles = items.map((i) => i.title);
    expect(titles).toEqual([
      expect.stringMatching(/placed$/),
      expect.stringMatching(/^Wallet charged/),
      'Provider call 1 while placing the order: failed',
      'Support told that the eSIM is delayed',
      expect.stringMatching(/\[system ticket\] eSIM for order .* is delayed$/),
      'Provider call 2 by an operator: failed',
      'Operator retried fulfilment',
      'Operator refunded the order',
      `Refunded ${(priceCents / 100).toFixed(2)} USD to the wallet`,
    ]);
    const by = (title: string) => items.find((i) => i.title === title)!;
    expect(by('Provider call 1 while placing the order: failed')).toMatchObject({
      status: 'failed',
      detail: expect.stringContaining('fault'),
    });
    expect(by('Operator retried fulfilment')).toMatchObject({
      actor: `operator:${support.id}`,
      actorEmail: support.email,
      actorName: 'support operator',
      detail: 'status PROCESSING, outcome failure',
    });
    expect(by('Operator refunded the order')).toMatchObject({
      actor: `operator:${finance.id}`,
      actorEmail: finance.email,
      detail: `status PROCESSING → REFUNDED, amountCents ${priceCents}`,
    });
    expect(by(`Refunded ${(priceCents / 100).toFixed(2)} USD to the wallet`).detail).toBe(
      'refunded by operator',
    );
  });

  it('shows the retry job waiting, then Support retrying it to completion', async () => {
    const user = await createUser(t.container, { balanceCents: priceCents });
    const orderId = await checkout(user, 1);
    const waiting = await timeline(orderId);
    expect(waiting.at(-1)).toMatchObject({
      kind: 'job',
      title: 'Fulfilment job: next run planned',
      status: 'pending',
    });
    const retry = await admin('POST', `/orders/${orderId}/retry`, support.headers);
    expect(retry.json()).toMatchObject({ outcome: 'success', order: { status: 'COMPLETED' } });
    const done = await timeline(orderId);
    // The job left pending would find the order complete: not shown as still to come.
    expect(done.some((i) => i.kind === 'job')).toBe(false);
    expect(done.map((i) => i.title)).toContain('Provider call 2 by an operator: eSIM issued');
    expect(done.find((i) => i.title === 'Completed: 1 eSIM issued')?.status).toBe('ok');
  });

  it('hides the credentials of mails from Support, not from an Owner', async () => {
    const user = await createUser(t.container, { balanceCents: priceCents });
    const orderId = await checkout(user);
    await t.container.worker.runDue();
    const receiptOf = (items: Item[]) => items.find((i) => i.kind === 'mail')!;
    const [esim] = (await admin('GET', `/orders/${orderId}`, token)).json().order.esims;
    const installToken = new URL(esim.installUrl).pathname.split('/').pop()!;

    const forSupport = receiptOf(await timeline(orderId, support.headers));
    expect(forSupport.redacted).toBe(true);
    expect(forSupport.detail).toContain('/install/[redacted]');
    expect(forSupport.detail).not.toContain(installToken);
    expect(forSupport.detail).toContain(esim.iccid);

    const forOwner = receiptOf(await timeline(orderId, owner.headers));
    expect(forOwner.redacted).toBeUndefined();
    expect(forOwner.detail).toContain(`/install/${installToken}`);
  });

  it('hides the eSIMs’ install credentials of an order from every role but Owner', async () => {
    const user = await createUser(t.container, { balanceCents: priceCents });
    const orderId = await checkout(user);
    await t.container.worker.runDue();
    const orderFor = async (headers: Record<string, string>) =>
      (await admin('GET', `/orders/${orderId}`, headers)).json().order;
    const credentials = [
      'activationCode',
      'matchingId',
      'qrCodeUrl',
      'qrCodeSvgUrl',
      'iosInstallUrl',
      'installUrl',
    ];

    const forOwner = await orderFor(owner.headers);
    expect(forOwner.credentialsRedacted).toBe(false);
    expect(forOwner.esims[0].activationCode).toMatch(/^LPA:1\$/);
    for (const viewer of [support, finance]) {
      const order = await orderFor(viewer.headers);
      expect(order.credentialsRedacted).toBe(true);
      const [esim] = order.esims;
      // What Support needs to help stays: which eSIM, its state and usage.
      expect(esim.iccid).toBe(forOwner.esims[0].iccid);
      expect(esim.status).toBe(forOwner.esims[0].status);
      for (const field of credentials) expect(esim[field], field).toBe('[redacted]');
      expect(JSON.stringify(order)).not.toContain(forOwner.esims[0].matchingId);
    }
  });

  it('follows a Partner API order’s events to each webhook delivery attempt', async () => {
    const partner = await createUser(t.container, { balanceCents: priceCents });
    const { key } = await t.container.apiKeys.generate(partner.id);
    const headers = { 'x-api-key': key };
    const endpoint = await t.app.inject({
      method: 'POST',
      url: '/api/public/v1/webhook-endpoints',
      headers,
      payload: { url: receiver.url },
    });
    expect(endpoint.statusCode).toBe(201);
    receiver.state.status = 500;
    const placed = await t.app.inject({
      method: 'POST',
      url: '/api/public/v1/orders',
      headers,
      payload: { planId, quantity: 1 },
    });
    expect(placed.statusCode).toBe(201);
    await t.container.worker.runDue();
    receiver.state.status = 200;
    t.clock.advance(10 * SECOND);
    await t.container.worker.runDue();

    const items = await timeline(placed.json().id);
    const webhooks = items.filter((i) => i.kind === 'webhook');
    expect(webhooks.map((i) => [i.title, i.status])).toEqual([
      ['Partner event order.completed', 'info'],
      [`Webhook order.completed → ${receiver.url}: HTTP 500`, 'failed'],
      [`Webhook order.completed → ${receiver.url}: HTTP 200`, 'ok'],
    ]);
    expect(webhooks[1]!.detail).toMatch(/^Attempt 1, \d+ ms/);
    expect(items[0]!.detail).toMatch(/^Partner API: 1 ×/);
  });
});
