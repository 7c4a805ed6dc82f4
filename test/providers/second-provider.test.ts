import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { esims, plans, providerNotifications } from '../../src/db/schema/index.js';
import {
  EsimProviderError,
  EsimWebhookError,
  type EsimNotification,
  type EsimProvider,
  type ProviderEsimStatus,
  type ProviderProfile,
} from '../../src/providers/esim/types.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { pickPlan } from '../helpers/catalog.js';
import { eventsSettled } from '../helpers/events.js';
import { createPartner, PARTNER_ROOT, postOrder } from '../http/partner/helpers.js';

/**
 * "Adding a provider changes nothing in http/ or the domain" (docs/architecture.md): Acme, an
 * eSIM provider that exists only in this file, with a webhook format of its own (a signed list of
 * events, kilobytes, its own state names) and nothing shaped like eSIM Access. Handed to the
 * container through its composition API (createContainer's `esimProviders`), it sells, issues
 * and reports through the same HTTP routes and domain code as the built-in providers.
 */

const TOKEN = 'acme-hook-token-0123456789';
const SECRET = 'acme-signing-secret';
const STATES: Record<string, ProviderEsimStatus> = { live: 'ACTIVE', empty: 'DEPLETED', gone: 'CANCELLED' };

interface AcmeEvent {
  id: string;
  what: 'usage' | 'state' | 'ping';
  line?: string;
  usedKb?: number;
  capKb?: number;
  state?: string;
}

function createAcmeProvider(): EsimProvider {
  const lines = new Map<string, ProviderProfile & { orderId: string }>();
  const ofOrder = (orderId: string) => [...lines.values()].filter((l) => l.orderId === orderId);
  const read = (e: AcmeEvent): EsimNotification => {
    const esim = { ...(e.line ? { providerRef: e.line } : {}) };
    const notice =
      e.what === 'ping'
        ? { kind: 'health_check' as const }
        : e.what === 'usage'
          ? {
              kind: 'usage' as const,
              esim,
              ...(e.usedKb !== undefined && e.capKb !== undefined
                ? { usage: { usedMb: Math.round(e.usedKb / 1024), totalMb: Math.round(e.capKb / 1024) } }
                : {}),
            }
          : { kind: 'status' as const, esim, ...(e.state ? { status: STATES[e.state] } : {}) };
    return { id: e.id, type: `acme.${e.what}`, notice, payload: e };
  };
  return {
    name: 'acme',
    listPackages: async () => [
      {
        packageCode: 'ACME-TR-1G',
        name: 'Acme Türkiye 1 GB',
        description: 'One gigabyte for a week',
        coverage: ['TR'],
        scope: 'country',
        dataAmountMb: 1024,
        durationDays: 7,
        isTopUp: false,
        wholesaleCents: 300,
        activationPolicy: 'first_connection',
        topUpSupported: false,
      },
    ],
    async issueProfiles({ orderId, quantity }) {
      if (ofOrder(orderId).length === 0) {
        for (let i = 0; i < quantity; i++) {
          const ref = `acme-${lines.size + 1}`;
          const matchingId = `ACME${String(lines.size + 1).padStart(8, '0')}`;
          lines.set(ref, {
            orderId,
            providerRef: ref,
            iccid: `8999${String(lines.size + 1).padStart(15, '0')}`,
            smdpAddress: 'smdp.acme.example',
            matchingId,
            activationCode: `LPA:1$smdp.acme.example$${matchingId}`,
            status: 'PENDING',
            totalVolumeMb: 1024,
            dataUsageMb: 0,
            activatedAt: null,
            expiresAt: null,
          });
        }
      }
      return ofOrder(orderId);
    },
    queryProfiles: async (query) =>
      'orderId' in query
        ? ofOrder(query.orderId)
        : [...lines.values()].filter((l) => l.providerRef === query.providerRef),
    queryUsage: async (refs) =>
      refs.flatMap((ref) => {
        const line = lines.get(ref);
        return line
          ? [{ providerRef: ref, dataUsageMb: line.dataUsageMb, totalVolumeMb: line.totalVolumeMb }]
          : [];
      }),
    topUp: () => Promise.reject(new EsimProviderError('rejected', 'Acme sells no top-ups', false)),
    async cancelProfile(ref) {
      if (!lines.delete(ref)) throw new EsimProviderError('not_found', 'no such Acme line', false);
    },
    webhook: {
      // Acme's own URL segment besides /webhooks/esim/acme/: declared here, registered by http/.
      aliases: ['acme'],
      verify({ token, headers, rawBody }) {
        if (token !== TOKEN) throw new EsimWebhookError('unknown_url', 'Route not found');
        const expected = createHmac('sha256', SECRET).update(rawBody).digest('hex');
        if (headers['x-acme-signature'] !== expected)
          throw new EsimWebhookError('forbidden', 'Signature mismatch', { logReason: 'bad Acme signature' });
      },
      parse(body) {
        const events = (body as { events?: unknown } | undefined)?.events;
        if (!Array.isArray(events))
          throw new EsimWebhookError('invalid', 'events must be a list', { field: 'events' });
        return (events as AcmeEvent[]).map(read);
      },
    },
  };
}

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({
    esimProviders: (configured) => {
      const acme = createAcmeProvider();
      return { esim: acme, known: [...configured.known, acme] };
    },
  });
  await t.container.catalog.sync();
});
afterAll(() => t.close());

function deliver(events: AcmeEvent[], options: { url?: string; signature?: string } = {}) {
  const body = JSON.stringify({ events });
  return t.app.inject({
    method: 'POST',
    url: options.url ?? `/webhooks/esim/acme/${TOKEN}`,
    headers: {
      'content-type': 'application/json',
      'x-acme-signature': options.signature ?? createHmac('sha256', SECRET).update(body).digest('hex'),
    },
    payload: body,
  });
}

async function acmeOrder() {
  const plan = await pickPlan(t.container);
  expect(plan).toMatchObject({ provider: 'acme', providerPackageCode: 'ACME-TR-1G' });
  const p = await createPartner(t, plan.effectivePriceCents);
  const res = await postOrder(t, p.headers, { planId: plan.id, quantity: 1 });
  expect(res.statusCode).toBe(201);
  const [esim] = await t.container.db.select().from(esims).where(eq(esims.orderId, res.json().id));
  return { p, esim: esim! };
}

async function thresholds(headers: Record<string, string>) {
  await eventsSettled(t.container);
  const res = await t.app.inject({ url: `${PARTNER_ROOT}/events?limit=100`, headers });
  return (res.json().data as Array<{ type: string; data: { thresholdPercent: number } }>)
    .filter((e) => e.type === 'esim.usage_threshold')
    .map((e) => e.data.thresholdPercent);
}

describe('a second eSIM provider, known only to this test', () => {
  it('sells its catalogue and issues its profiles through the unchanged domain', async () => {
    const { esim } = await acmeOrder();
    expect(esim).toMatchObject({ providerRef: expect.stringMatching(/^acme-/), status: 'PENDING' });
    expect(await t.container.db.select().from(plans).where(eq(plans.provider, 'acme'))).toHaveLength(1);
  });

  it('reports usage and state through POST /webhooks/esim/acme/<token>, applied once', async () => {
    const { p, esim } = await acmeOrder();
    const usage: AcmeEvent = {
      id: `u-${esim.id}`,
      what: 'usage',
      line: esim.providerRef,
      usedKb: 922 * 1024,
      capKb: 1024 * 1024,
    };
    const first = await deliver([{ id: `p-${esim.id}`, what: 'ping' }, usage]);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ received: true });
    let [row] = await t.container.db.select().from(esims).where(eq(esims.id, esim.id));
    expect(row).toMatchObject({ dataUsageMb: 922, totalVolumeMb: 1024 });
    expect(await thresholds(p.headers)).toEqual([50, 80, 90]);

    // A replay changes nothing; the record names Acme and its own type.
    expect((await deliver([usage])).statusCode).toBe(200);
    expect(await thresholds(p.headers)).toEqual([50, 80, 90]);
    const recorded = await t.container.db
      .select()
      .from(providerNotifications)
      .where(eq(providerNotifications.notifyId, usage.id));
    expect(recorded).toEqual([
      expect.objectContaining({
        provider: 'acme',
        type: 'acme.usage',
        outcome: 'usage_updated',
        payload: usage,
      }),
    ]);

    // Its own state names, through the alias it declared.
    const state = await deliver(
      [{ id: `s-${esim.id}`, what: 'state', line: esim.providerRef, state: 'empty' }],
      {
        url: `/webhooks/acme/${TOKEN}`,
      },
    );
    expect(state.statusCode).toBe(200);
    [row] = await t.container.db.select().from(esims).where(eq(esims.id, esim.id));
    expect(row!.status).toBe('DEPLETED');
    expect(await thresholds(p.headers)).toEqual([50, 80, 90, 100]);
    const detail = (
      await t.app.inject({ url: `${PARTNER_ROOT}/orders/${esim.orderId}`, headers: p.headers })
    ).json();
    expect(detail.esims[0]).toMatchObject({ dataUsageMb: 922, status: 'DEPLETED' });
  });

  it('leaves verification and reading to the provider, and answers in the surface’s error shape', async () => {
    const event: AcmeEvent = { id: 'v1', what: 'ping' };
    const forged = await deliver([event], { signature: 'f'.repeat(64) });
    expect(forged.statusCode).toBe(403);
    expect(forged.json().error).toMatchObject({ code: 'FORBIDDEN', message: 'Signature mismatch' });
    const wrongToken = await deliver([event], { url: '/webhooks/esim/acme/not-the-acme-token' });
    expect(wrongToken.statusCode).toBe(404);
    expect(wrongToken.json().error.code).toBe('NOT_FOUND');
    const unknown = await deliver([event], { url: `/webhooks/esim/nobody/${TOKEN}` });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('NOT_FOUND');
    // The sandbox delivers through a job only; eSIM Access has no token configured here.
    expect((await deliver([event], { url: `/webhooks/esim/sandbox/${TOKEN}` })).statusCode).toBe(404);
    expect((await deliver([event], { url: `/webhooks/esimaccess/${TOKEN}` })).statusCode).toBe(404);

    const body = JSON.stringify({ notifyType: 'CHECK_HEALTH' });
    const unreadable = await t.app.inject({
      method: 'POST',
      url: `/webhooks/esim/acme/${TOKEN}`,
      headers: {
        'content-type': 'application/json',
        'x-acme-signature': createHmac('sha256', SECRET).update(body).digest('hex'),
      },
      payload: body,
    });
    expect(unreadable.statusCode).toBe(400);
    expect(unreadable.json().error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'events' } });
    const rows = await t.container.db
      .select()
      .from(providerNotifications)
      .where(eq(providerNotifications.notifyId, 'v1'));
    expect(rows).toHaveLength(0);
  });
});
