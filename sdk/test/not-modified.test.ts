import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  createPartnerClient,
  isNotModified,
  PartnerApiError,
  unwrap,
  type Catalog,
  type NotModified,
  type Wallet,
} from '../src/client.js';

/**
 * H19: a conditional GET (the guide recommends `If-None-Match` on the catalog) answered
 * `304 Not Modified` is a result, not an error.
 */
const ETAG = 'W/"catalog-v1"';

function clientAnswering(status: number) {
  const seen: Array<string | null> = [];
  const client = createPartnerClient({
    baseUrl: 'https://api.example.com',
    apiKey: 'svc_test_sk_x',
    fetch: async (request) => {
      seen.push(request.headers.get('if-none-match'));
      if (status === 304) return new Response(null, { status: 304, headers: { etag: ETAG } });
      return Response.json({ countries: [], regions: [] }, { status, headers: { etag: ETAG } });
    },
  });
  return { client, seen };
}

describe('unwrap and 304 Not Modified', () => {
  it('answers NotModified, with the ETag, for a conditional GET (typed params)', async () => {
    const { client, seen } = clientAnswering(304);
    const result = await unwrap(
      client.GET('/api/public/v1/destinations', { params: { header: { 'If-None-Match': ETAG } } }),
    );
    expect(seen).toEqual([ETAG]);
    expect(result).toEqual({ notModified: true, status: 304, etag: ETAG });
    expect(isNotModified(result)).toBe(true);
    expectTypeOf(result).toEqualTypeOf<Catalog | NotModified>();
  });

  it('answers NotModified for If-None-Match sent as a plain header', async () => {
    const { client } = clientAnswering(304);
    const result = await unwrap(
      client.GET('/api/public/v1/destinations', { headers: { 'if-none-match': ETAG } }),
    );
    expect(isNotModified(result)).toBe(true);
    expectTypeOf(result).toEqualTypeOf<Catalog | NotModified>();
  });

  it('answers the data of a 200 to the same conditional GET', async () => {
    const { client } = clientAnswering(200);
    const result = await unwrap(
      client.GET('/api/public/v1/destinations', { params: { header: { 'If-None-Match': '"old"' } } }),
    );
    expect(isNotModified(result)).toBe(false);
    if (!isNotModified(result)) expect(result.countries).toEqual([]);
  });

  it('keeps the plain data type for requests that are not conditional', async () => {
    const { client } = clientAnswering(200);
    const catalog = await unwrap(client.GET('/api/public/v1/destinations'));
    expectTypeOf(catalog).toEqualTypeOf<Catalog>();
    expectTypeOf(unwrap(client.GET('/api/public/v1/wallet'))).resolves.toEqualTypeOf<Wallet>();
    expect(catalog.countries).toEqual([]);
  });

  it('still throws PartnerApiError for other non-2xx answers', async () => {
    const { client } = clientAnswering(412);
    await expect(unwrap(client.GET('/api/public/v1/destinations'))).rejects.toBeInstanceOf(PartnerApiError);
  });
});

describe('the type of unwrap for conditional requests', () => {
  it('includes NotModified when the ETag may be absent, or headers are a Headers object', async () => {
    const { client } = clientAnswering(200);
    const etag: string | undefined = Math.random() > 2 ? ETAG : undefined;
    const maybe = await unwrap(
      client.GET('/api/public/v1/destinations', { params: { header: { 'If-None-Match': etag } } }),
    );
    expectTypeOf(maybe).toEqualTypeOf<Catalog | NotModified>();
    const opaque = await unwrap(client.GET('/api/public/v1/destinations', { headers: new Headers() }));
    expectTypeOf(opaque).toEqualTypeOf<Catalog | NotModified>();
    const other = await unwrap(client.GET('/api/public/v1/orders', { params: { query: { limit: 5 } } }));
    expectTypeOf(other).not.toEqualTypeOf<NotModified>();
    expectTypeOf(other).toHaveProperty('orders');
  });
});
