import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { ADMIN_TOKEN, buildTestApp, type TestApp, type TestAppOptions } from '../../helpers/app.js';
import { importCatalog, pickPlan } from '../../helpers/catalog.js';
import { MAX_REPLAY_BYTES } from '../../../src/http/shared/catalog-replay.js';
import { createPartner } from '../partner/helpers.js';

/**
 * The catalog replay (src/http/shared/catalog-replay.ts) answers before routing, so these tests
 * go through a listening server: `inject` never reaches it.
 */
interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function serve(options: TestAppOptions = {}) {
  t = await buildTestApp(options);
  await importCatalog(t.container);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  const app = t;
  const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    new Promise<Answer>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path, method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      });
      req.on('error', reject);
      req.end();
    });
  /** Replayed responses since the last call. */
  let seen = 0;
  const replayed = () => {
    const now = app.app.catalogReplay.replayed;
    const since = now - seen;
    seen = now;
    return since;
  };
  return { t: app, get, replayed };
}

/** Headers that differ between two answers by construction. */
function stable(headers: IncomingHttpHeaders) {
  const { 'x-request-id': _id, date: _date, ...rest } = headers;
  return rest;
}

const TR = '/api/v1/destinations/TR';

describe('catalog replay', () => {
  test('a repeated anonymous read gets the same status, headers and bytes, with its own request id', async () => {
    const { get, replayed } = await serve();
    const first = await get(TR);
    expect(first.status).toBe(200);
    expect(replayed()).toBe(0);
    const second = await get(TR);
    expect(replayed()).toBe(1);
    expect(second.status).toBe(200);
    expect(stable(second.headers)).toEqual(stable(first.headers));
    expect(second.body.equals(first.body)).toBe(true);
    expect(second.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    const named = await get(TR, { 'x-request-id': 'trace-42' });
    expect(replayed()).toBe(1);
    expect(named.headers['x-request-id']).toBe('trace-42');
    // gzip is recorded as gzip: its own recording, the same bytes again.
    const gzip1 = await get(TR, { 'accept-encoding': 'gzip' });
    const gzip2 = await get(TR, { 'accept-encoding': 'gzip' });
    expect(replayed()).toBe(1);
    expect(gzip2.headers['content-encoding']).toBe('gzip');
    expect(gzip2.body.equals(gzip1.body)).toBe(true);
  });

  test('requests the recording does not stand for take the full path', async () => {
    const { get, replayed } = await serve();
    const plain = await get(TR);
    const etag = plain.headers.etag as string;

    const german = await get(TR, { 'accept-language': 'de' });
    expect(JSON.parse(german.body.toString()).destination.name).toBe('Türkei');
    expect(replayed()).toBe(0);
    expect((await get(TR, { 'accept-language': 'de' })).body.equals(german.body)).toBe(true);
    expect(replayed()).toBe(1);

    const conditional = await get(TR, { 'if-none-match': etag });
    expect(conditional.status).toBe(304);
    const session = await get(TR, { authorization: 'Bearer not-a-session' });
    const cookie = await get(TR, { cookie: 'other=1' });
    const head = await get(TR, {}, 'HEAD');
    const euro = await get(`${TR}?currency=EUR`);
    expect([session.status, cookie.status, head.status, euro.status]).toEqual([200, 200, 200, 200]);
    expect(JSON.parse(euro.body.toString()).destination.plans[0].price.currency).toBe('EUR');
    expect(replayed()).toBe(0);

    // The full list is larger than MAX_REPLAY_BYTES as it is, not once gzipped.
    const list = await get('/api/v1/destinations');
    expect(list.body.length).toBeGreaterThan(MAX_REPLAY_BYTES);
    await get('/api/v1/destinations');
    expect(replayed()).toBe(0);
    const gzipped = await get('/api/v1/destinations', { 'accept-encoding': 'gzip' });
    expect(gzipped.body.length).toBeLessThan(MAX_REPLAY_BYTES);
    await get('/api/v1/destinations', { 'accept-encoding': 'gzip' });
    expect(replayed()).toBe(1);
  });

  test('a price change reaches the very next read', async () => {
    const { t, get, replayed } = await serve();
    await get(TR);
    await get(TR);
    expect(replayed()).toBe(1);
    const plan = await pickPlan(t.container, { destination: 'TR' });
    const patch = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/v1/plans/${plan.id}`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      payload: { priceUsd: 0.5 },
    });
    expect(patch.statusCode).toBe(200);
    const after = await get(TR);
    expect(replayed()).toBe(0);
    const prices = JSON.parse(after.body.toString()).destination.plans.map(
      (p: { id: string; price: { amount: number } }) => [p.id, p.price.amount],
    );
    expect(prices).toContainEqual([plan.id, 0.5]);
    expect((await get(TR)).body.equals(after.body)).toBe(true);
    expect(replayed()).toBe(1);
  });

  test('Partner reads: the key check and the read budget apply to every replayed read', async () => {
    const { t, get, replayed } = await serve({ env: { PARTNER_READ_RATE_LIMIT: '3' } });
    const partner = await createPartner(t);
    const path = '/api/public/v1/destinations/TR';
    const answers: Answer[] = [];
    for (let i = 0; i < 4; i++) answers.push(await get(path, partner.headers));
    expect(replayed()).toBe(2);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
    expect(answers.map((a) => a.headers['x-ratelimit-remaining'])).toEqual(['2', '1', '0', '0']);
    expect(answers[1]!.headers['x-ratelimit-limit']).toBe('3');
    expect(answers[1]!.headers['x-livemode']).toBe('true');
    expect(answers[2]!.body.equals(answers[0]!.body)).toBe(true);
    expect(JSON.parse(answers[3]!.body.toString())).toMatchObject({ error: { code: 'RATE_LIMITED' } });
    expect(answers[3]!.headers['retry-after']).toBeDefined();

    // Another partner: its own key check (full path first) and its own budget.
    const other = await createPartner(t);
    expect((await get(path, other.headers)).status).toBe(200);
    expect(replayed()).toBe(0);
    const again = await get(path, { authorization: `Bearer ${other.key}` });
    expect(again.headers['x-ratelimit-remaining']).toBe('1');
    expect(replayed()).toBe(1);

    // No key, or an unknown one: never replayed, 401 in the partner shape.
    const unknown = await get(path, { 'x-api-key': `${other.key.slice(0, -4)}zzzz` });
    const none = await get(path);
    expect([unknown.status, none.status]).toEqual([401, 401]);
    expect(replayed()).toBe(0);
  });

  test('a regenerated key stops being replayed once its one-second check has aged', async () => {
    const { t, get, replayed } = await serve();
    const partner = await createPartner(t);
    const path = '/api/public/v1/destinations/TR';
    await get(path, partner.headers);
    expect((await get(path, partner.headers)).status).toBe(200);
    expect(replayed()).toBe(1);
    await t.container.apiKeys.generate(partner.id);
    t.clock.advance(1000);
    const stale = await get(path, partner.headers);
    expect(stale.status).toBe(401);
    expect(replayed()).toBe(0);
  });

  test('nothing is replayed while every request is logged, nor once the server is closing', async () => {
    const logged = await serve({ logLevel: 'info' });
    await logged.get(TR);
    await logged.get(TR);
    expect(logged.replayed()).toBe(0);
    await t!.close();

    const quiet = await serve();
    await quiet.get(TR);
    t!.app.catalogReplay.close();
    expect((await quiet.get(TR)).status).toBe(200);
    expect(quiet.replayed()).toBe(0);
  });
});
