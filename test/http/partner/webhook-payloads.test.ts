import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../../../src/domain/events/outbox.js';
import { SECOND } from '../../../src/lib/clock.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { pickPlan } from '../../helpers/catalog.js';
import { createUser } from '../../helpers/factories.js';
import { startReceiver, type Receiver } from '../../helpers/webhook-receiver.js';
import { adminPost, PARTNER_ROOT, postOrder } from './helpers.js';

/**
 * H13: every event type, delivered for real to an endpoint, matches its own schema in the Partner
 * document's OpenAPI 3.1 `webhooks` section. Objects are closed for this check, so a payload with
 * a field the document does not name (or a wrapper such as `{ wallet }`) fails.
 */
let t: TestApp;
let receiver: Receiver;
type Json = Record<string, unknown>;

beforeAll(async () => {
  t = await buildTestApp({
    env: {
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      FULFILLMENT_MAX_ATTEMPTS: '2',
      FULFILLMENT_RETRY_BASE_SECONDS: '1',
    },
  });
  receiver = await startReceiver(3403);
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

function closed(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closed);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node))
    out[key] = ['example', 'examples'].includes(key) ? value : closed(value);
  if (out.type === 'object' && out.properties && out.additionalProperties === undefined)
    out.additionalProperties = false;
  return out;
}

async function deliverAll() {
  for (let i = 0; i < 4; i++) {
    await t.container.worker.runDue();
    t.clock.advance(5 * SECOND);
  }
  await t.container.worker.runDue();
}

describe('every event type’s delivery matches its webhook schema', () => {
  it('order.*, esim.*, wallet.*, ping', async () => {
    const doc = (await t.app.inject({ url: `${PARTNER_ROOT}/openapi.json` })).json<Json>();
    const webhooks = doc.webhooks as Record<string, { post: Json }>;
    expect(Object.keys(webhooks).sort()).toEqual([...EVENT_TYPES, 'ping'].sort());

    const plan = await pickPlan(t.container);
    const user = await createUser(t.container, { balanceCents: plan.effectivePriceCents * 3 });
    const { key } = await t.container.apiKeys.generate(user.id);
    const headers = { 'x-api-key': key };
    const endpoint = await t.app.inject({
      method: 'POST',
      url: `${PARTNER_ROOT}/webhook-endpoints`,
      headers,
      payload: { url: receiver.url },
    });
    expect(endpoint.statusCode).toBe(201);
    // A threshold the second order crosses: wallet.low_balance.
    await t.app.inject({
      method: 'PATCH',
      url: `${PARTNER_ROOT}/wallet`,
      headers,
      payload: { lowBalanceThreshold: (plan.effectivePriceCents * 2 - 1) / 100 },
    });
    const order = (await postOrder(t, headers, { planId: plan.id, quantity: 1 })).json();
    expect((await postOrder(t, headers, { planId: plan.id, quantity: 1 })).statusCode).toBe(201);
    // order.completed above; order.fulfillment_failed, then order.refunded when retries run out.
    await adminPost(t, '/sandbox/esim-provider/faults', { failNext: 100 });
    try {
      expect((await postOrder(t, headers, { planId: plan.id, quantity: 1 })).statusCode).toBe(502);
      await deliverAll();
    } finally {
      await adminPost(t, '/sandbox/esim-provider/faults', { failNext: 0 });
    }
    // esim.usage_threshold, and esim.auto_topup_succeeded / _failed (issue 31 L5): the wallet holds
    // one plan's price, the top-up plan costs as much, so the second eSIM's top-up finds it short.
    const esim = order.esims[0] as { iccid: string };
    const first = (await t.app.inject({ url: `${PARTNER_ROOT}/orders/${order.id}`, headers })).json();
    const topUp = await pickPlan(t.container, { isTopUp: true });
    const others = (await t.app.inject({ url: `${PARTNER_ROOT}/esims`, headers })).json().esims as Array<{
      iccid: string;
    }>;
    const other = others.find((e) => e.iccid !== first.esims[0].iccid)!;
    for (const iccid of [esim.iccid, other.iccid]) {
      const res = await t.app.inject({
        method: 'PATCH',
        url: `${PARTNER_ROOT}/esims/${iccid}`,
        headers,
        payload: { autoTopUp: { enabled: true, planId: topUp.id } },
      });
      expect(res.statusCode).toBe(200);
    }
    await adminPost(t, '/sandbox/esim-provider/usage', { iccid: esim.iccid, usedMb: plan.dataAmountMb });
    await deliverAll();
    await adminPost(t, '/sandbox/esim-provider/usage', { iccid: other.iccid, usedMb: plan.dataAmountMb });
    await deliverAll();
    // esim.status_changed and esim.expiring, from the sandbox's lifecycle controls.
    await adminPost(t, '/sandbox/esim-provider/status', { iccid: esim.iccid, status: 'DISABLED' });
    await adminPost(t, '/sandbox/esim-provider/expiry', { iccid: esim.iccid, daysLeft: 3 });
    // wallet.topup_succeeded: a card top-up paid on the sandbox page.
    const session = await t.app.inject({
      method: 'POST',
      url: '/api/v1/payments/card/create-session',
      headers: user.auth,
      payload: { amount: 2500, currency: 'USD' },
    });
    const page = new URL(session.json().url as string);
    await t.app.inject({ method: 'POST', url: `${page.pathname}/complete`, payload: { outcome: 'paid' } });
    await t.app.inject({
      method: 'POST',
      url: `${PARTNER_ROOT}/webhook-endpoints/${endpoint.json().id}/test`,
      headers,
    });
    await deliverAll();

    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema({ $id: 'partner', components: closed(doc.components) });
    const seen = new Set<string>();
    for (const delivery of receiver.received) {
      const body = JSON.parse(delivery.body) as Json;
      const type = body.type as string;
      const schema = webhooks[type]!.post.requestBody as Json as {
        content: Record<string, { schema: Json }>;
      };
      const ref = (schema.content['application/json']!.schema.$ref as string).replace('#', 'partner#');
      const validate = ajv.compile({ $ref: ref });
      expect(validate(body), `${type}: ${ajv.errorsText(validate.errors)}\n${delivery.body}`).toBe(true);
      seen.add(type);
    }
    expect([...seen].sort()).toEqual([...EVENT_TYPES, 'ping'].sort());
  });
});
