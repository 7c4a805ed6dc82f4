import Fastify from 'fastify';
import { describe, expect, test } from 'vitest';
import type { CatalogService, CatalogSnapshot } from '../../../src/domain/catalog/catalog.service.js';
import { createCatalogResponseCache } from '../../../src/http/shared/catalog-cache.js';

/** A stub catalog whose version the test moves, counting how often a response is built. */
function setup(maxEntries: number) {
  let version = 1;
  let builds = 0;
  const catalog = {
    version: async () => version,
    snapshot: async (v: number) => ({ version: v, plans: [], rates: {} }) as unknown as CatalogSnapshot,
  } as unknown as CatalogService;
  const cache = createCatalogResponseCache(catalog, maxEntries);
  const app = Fastify();
  app.get<{ Params: { key: string } }>('/v/:key', (request, reply) =>
    cache.send(
      request,
      reply,
      request.params.key,
      (snapshot) => {
        builds += 1;
        return request.params.key === 'missing'
          ? null
          : { key: request.params.key, version: snapshot.version };
      },
      () => Object.assign(new Error('not found'), { statusCode: 404 }),
    ),
  );
  return {
    app,
    cache,
    builds: () => builds,
    bump: () => (version += 1),
    get: (key: string) => app.inject({ method: 'GET', url: `/v/${key}` }),
  };
}

describe('catalog response cache', () => {
  test('builds each variant once per version and rebuilds after a version bump', async () => {
    const s = setup(10);
    const first = await s.get('a');
    await s.get('a');
    expect(s.builds()).toBe(1);
    expect(first.json()).toEqual({ key: 'a', version: 1 });
    s.bump();
    const after = await s.get('a');
    expect(s.builds()).toBe(2);
    expect(after.json()).toEqual({ key: 'a', version: 2 });
    expect(after.headers.etag).not.toBe(first.headers.etag);
  });

  test('stays bounded: the least recently used variant is dropped', async () => {
    const s = setup(3);
    for (const key of ['a', 'b', 'c']) await s.get(key);
    await s.get('a'); // a is now the most recent
    await s.get('d'); // evicts b
    expect(s.cache.size).toBe(3);
    const before = s.builds();
    await s.get('a');
    expect(s.builds()).toBe(before);
    await s.get('b');
    expect(s.builds()).toBe(before + 1);
  });

  test('not-found variants are not cached; If-None-Match lists and * match', async () => {
    const s = setup(3);
    expect((await s.get('missing')).statusCode).toBe(404);
    expect(s.cache.size).toBe(0);
    const { etag } = (await s.get('a')).headers;
    for (const header of [`"x", ${etag as string}`, '*', (etag as string).replace('W/', '')]) {
      const res = await s.app.inject({ method: 'GET', url: '/v/a', headers: { 'if-none-match': header } });
      expect(res.statusCode, header).toBe(304);
    }
    const stale = await s.app.inject({ method: 'GET', url: '/v/a', headers: { 'if-none-match': 'W/"0-x"' } });
    expect(stale.statusCode).toBe(200);
  });
});
