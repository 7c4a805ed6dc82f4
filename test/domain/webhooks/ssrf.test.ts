import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookDeliveries } from '../../../src/db/schema/index.js';
import { refusedAddressReason, resolveSafeTarget, type Resolver } from '../../../src/domain/webhooks/ssrf.js';
import { httpTransport, type WebhookTransport } from '../../../src/domain/webhooks/transport.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { startReceiver, type Receiver } from '../../helpers/webhook-receiver.js';
import { createPartner, PARTNER_ROOT } from '../../http/partner/helpers.js';

/** A test that builds an app of its own spends what is otherwise hook time. */
const PER_APP_TEST_TIMEOUT_MS = 60_000;

const ENDPOINTS = `${PARTNER_ROOT}/webhook-endpoints`;
const PUBLIC_V4 = '93.184.216.34';

describe('address classification (ipaddr.js)', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['10.0.0.8', 'private'],
    ['172.16.5.4', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['100.100.100.200', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['::1', 'loopback'],
    ['fe80::1', 'linkLocal'],
    ['fd00:ec2::254', 'uniqueLocal'],
    ['::ffff:127.0.0.1', 'IPv4-mapped'],
    ['::ffff:8.8.8.8', 'IPv4-mapped'],
    // H7: every IPv6 form that embeds an IPv4 address, or lies outside global unicast 2000::/3.
    // ipaddr.js reads the dotted spelling as mapped; the URL parser writes it as ::7f00:1.
    ['::127.0.0.1', 'IPv4-'],
    ['::7f00:1', 'IPv4-compatible'],
    ['::808:808', 'IPv4-compatible'],
    ['::ffff:0:7f00:1', 'rfc6145'],
    ['64:ff9b::7f00:1', 'rfc6052'],
    ['64:ff9b:1::a00:1', 'rfc6052'],
    ['2002:7f00:1::1', '6to4'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo'],
    ['2001:db8::1', 'reserved'],
    ['100::1', 'discard'],
    ['::1:0:0:1', 'outside global unicast'],
    ['4000::1', 'outside global unicast'],
  ])('refuses %s (%s)', (address, why) => {
    expect(refusedAddressReason(address)).toContain(why);
  });

  it.each([PUBLIC_V4, '8.8.8.8', '2606:4700:4700::1111'])('accepts public %s', (address) => {
    expect(refusedAddressReason(address)).toBeNull();
  });
});

describe('resolveSafeTarget', () => {
  const resolveTo =
    (...addresses: string[]): Resolver =>
    async () =>
      addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }) as const);

  it('needs https, no credentials, and every resolved address public', async () => {
    const ok = { allowPrivate: false, resolve: resolveTo(PUBLIC_V4) };
    await expect(resolveSafeTarget('https://hooks.example.com/x', ok)).resolves.toMatchObject({
      address: PUBLIC_V4,
    });
    await expect(resolveSafeTarget('http://hooks.example.com/x', ok)).rejects.toThrow('https');
    await expect(resolveSafeTarget('https://u:p@hooks.example.com/x', ok)).rejects.toThrow('credentials');
    await expect(
      resolveSafeTarget('https://mixed.example.com/', {
        allowPrivate: false,
        resolve: resolveTo(PUBLIC_V4, '10.0.0.1'),
      }),
    ).rejects.toThrow('private');
    await expect(
      resolveSafeTarget('https://nx.example.com/', {
        allowPrivate: false,
        resolve: async () => {
          throw new Error('ENOTFOUND');
        },
      }),
    ).rejects.toThrow('does not resolve');
  });

  it('WEBHOOK_ALLOW_PRIVATE_URLS lets http and private targets through', async () => {
    await expect(
      resolveSafeTarget('http://internal.example/', { allowPrivate: true, resolve: resolveTo('10.1.1.1') }),
    ).resolves.toMatchObject({ address: '10.1.1.1' });
  });
});

describe('SSRF over the API (default settings)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it.each([
    'https://127.0.0.1/hook',
    'https://localhost/hook',
    'https://169.254.169.254/latest/meta-data',
    'https://[::1]/hook',
    'https://[::ffff:7f00:1]/hook',
    'https://[::127.0.0.1]/hook',
    'https://[64:ff9b::7f00:1]/hook',
    'https://[2002:7f00:1::1]/hook',
    'https://[fd00::1]/hook',
    'https://10.0.0.1/hook',
    'http://example.com/hook',
  ])('refuses %s at creation', async (url) => {
    const p = await createPartner(t);
    const res = await t.app.inject({ method: 'POST', url: ENDPOINTS, headers: p.headers, payload: { url } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'url' } });
  });

  it(
    'checks again at delivery: a name that rebinds to 127.0.0.1 is never connected to',
    async () => {
      let lookups = 0;
      const sent: unknown[] = [];
      const spy: WebhookTransport = async (target) => {
        sent.push(target);
        return { status: 200 };
      };
      // Its own app, built with the rebinding resolver and the spy transport from the start.
      const own = await buildTestApp({
        webhookResolve: async () => {
          lookups += 1;
          return [{ address: lookups === 1 ? PUBLIC_V4 : '127.0.0.1', family: 4 }];
        },
        webhookTransport: spy,
      });
      try {
        const p = await createPartner(own);
        const created = await own.app.inject({
          method: 'POST',
          url: ENDPOINTS,
          headers: p.headers,
          payload: { url: 'https://rebind.example.com/hook' },
        });
        expect(created.statusCode).toBe(201);
        const ping = await own.app.inject({
          method: 'POST',
          url: `${ENDPOINTS}/${created.json().id}/test`,
          headers: p.headers,
        });
        await own.container.worker.runDue();
        expect(sent).toEqual([]);
        const [delivery] = await own.container.db
          .select()
          .from(webhookDeliveries)
          .where(eq(webhookDeliveries.eventId, ping.json().id));
        expect(delivery).toMatchObject({ status: 'pending', attempts: 1 });
        expect(delivery!.lastError).toContain('loopback');
      } finally {
        await own.close();
      }
    },
    PER_APP_TEST_TIMEOUT_MS,
  );
});

describe('connection to the checked address', () => {
  let t: TestApp;
  let receiver: Receiver;
  beforeAll(async () => {
    // partner.invalid exists in no DNS: the request can only arrive if it used the checked answer.
    t = await buildTestApp({
      env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' },
      webhookResolve: async () => [{ address: '127.0.0.1', family: 4 }],
    });
    receiver = await startReceiver(3402);
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  it('connects to the address the check resolved, keeping the URL host in the Host header', async () => {
    const p = await createPartner(t);
    const created = await t.app.inject({
      method: 'POST',
      url: ENDPOINTS,
      headers: p.headers,
      payload: { url: `http://partner.invalid:${receiver.port}/pinned` },
    });
    expect(created.statusCode).toBe(201);
    await t.app.inject({ method: 'POST', url: `${ENDPOINTS}/${created.json().id}/test`, headers: p.headers });
    await t.container.worker.runDue();
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.headers.host).toBe(`partner.invalid:${receiver.port}`);
  });

  it('gives up on an endpoint that does not answer within the timeout', async () => {
    receiver.state.delayMs = 500;
    try {
      await expect(
        httpTransport(
          { url: new URL(`http://127.0.0.1:${receiver.port}/slow`), address: '127.0.0.1', family: 4 },
          { headers: {}, body: '{}', timeoutMs: 100 },
        ),
      ).rejects.toThrow('no answer within');
    } finally {
      receiver.state.delayMs = 0;
    }
  });
});
