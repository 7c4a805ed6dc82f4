import { describe, expect, it } from 'vitest';
import { createPartnerClient, listRequests, PartnerApiError } from '../src/client.js';

const entry = {
  createdAt: '2026-11-22T04:30:12.345Z',
  method: 'POST',
  route: '/api/public/v1/orders',
  path: '/api/public/v1/orders',
  status: 402,
  durationMs: 18,
  requestId: 'req-4711',
  idempotencyKey: 'order-1',
  errorCode: 'INSUFFICIENT_BALANCE',
  livemode: true,
};

describe('listRequests', () => {
  it('sends the filters as the query and answers the page', async () => {
    const seen: string[] = [];
    const client = createPartnerClient({
      baseUrl: 'https://api.example.com',
      apiKey: 'svc_test_sk_x',
      fetch: async (request) => {
        const url = new URL(request.url);
        seen.push(`${url.pathname}${url.search}`);
        return Response.json({ data: [entry], hasMore: false, nextCursor: null });
      },
    });
    const page = await listRequests(client, { status: '4xx', requestId: 'req-4711', limit: 10 });
    expect(page.data).toEqual([entry]);
    expect(seen).toEqual(['/api/public/v1/requests?status=4xx&requestId=req-4711&limit=10']);
  });

  it('throws the API error of a bad filter', async () => {
    const client = createPartnerClient({
      baseUrl: 'https://api.example.com',
      apiKey: 'svc_test_sk_x',
      fetch: async () =>
        Response.json({ error: { code: 'VALIDATION_ERROR', message: 'Invalid request' } }, { status: 400 }),
    });
    await expect(listRequests(client, { path: '' })).rejects.toBeInstanceOf(PartnerApiError);
  });
});
