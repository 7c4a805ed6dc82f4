import { describe, expect, it } from 'vitest';
import { createPartnerClient, listAllOrders, PartnerApiError } from '../src/client.js';

const order = (id: string) => ({
  id,
  orderNumber: `SVC-API-261122-${id}`,
  status: 'COMPLETED' as const,
  amountUsd: 1,
  planId: 'plan_x',
  quantity: 1,
  createdAt: '2026-11-22T04:30:12.345Z',
  livemode: true,
});

describe('listAllOrders', () => {
  it('follows nextCursor to the last page', async () => {
    const seen: string[] = [];
    const pages: Record<string, object> = {
      '': { orders: [order('A'), order('B')], hasMore: true, nextCursor: 'c1.t' },
      'c1.t': { orders: [order('C')], hasMore: false, nextCursor: null },
    };
    const client = createPartnerClient({
      baseUrl: 'https://api.example.com',
      apiKey: 'svc_test_sk_x',
      fetch: async (request) => {
        const url = new URL(request.url);
        seen.push(url.search);
        return Response.json(pages[url.searchParams.get('cursor') ?? '']);
      },
    });
    const ids: string[] = [];
    for await (const o of listAllOrders(client, { pageSize: 2 })) ids.push(o.id);
    expect(ids).toEqual(['A', 'B', 'C']);
    expect(seen).toEqual(['?limit=2', '?limit=2&cursor=c1.t']);
  });

  it('throws the API error of a refused cursor', async () => {
    const client = createPartnerClient({
      baseUrl: 'https://api.example.com',
      apiKey: 'svc_test_sk_x',
      fetch: async () =>
        Response.json(
          { error: { code: 'VALIDATION_ERROR', message: 'cursor is not a cursor of this list' } },
          { status: 400 },
        ),
    });
    const iterate = async () => {
      for await (const _ of listAllOrders(client, { cursor: 'bad.x' })) void _;
    };
    await expect(iterate()).rejects.toBeInstanceOf(PartnerApiError);
  });
});
