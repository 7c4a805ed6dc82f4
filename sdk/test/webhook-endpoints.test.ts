import { describe, expect, it } from 'vitest';
import {
  createPartnerClient,
  listAllWebhookDeliveries,
  PartnerApiError,
  resendWebhookDelivery,
  rotateWebhookSecret,
  updateWebhookEndpoint,
} from '../src/client.js';
import { signWebhook, verifyWebhook } from '../src/webhooks.js';

const delivery = (id: string, status: 'pending' | 'succeeded' | 'failed' = 'failed') => ({
  id,
  eventId: `evt_${id}`,
  eventType: 'order.completed',
  status,
  createdAt: '2026-11-22T04:30:12.345Z',
  lastAttemptAt: '2026-11-22T04:30:12.400Z',
  nextRetryAt: null,
  attempts: [
    {
      attempt: 1,
      startedAt: '2026-11-22T04:30:12.400Z',
      responseStatus: null,
      error: 'request failed: connect ECONNREFUSED',
      durationMs: 3,
      responseBody: null,
      nextRetryAt: null,
      manual: false,
    },
  ],
});

function clientWith(answer: (request: Request) => Response, seen: Request[] = []) {
  return createPartnerClient({
    baseUrl: 'https://api.example.com/',
    apiKey: 'svc_test_sk_x',
    fetch: async (request) => {
      seen.push(request);
      return answer(request);
    },
  });
}

describe('webhook endpoint helpers', () => {
  it('pages through an endpoint’s deliveries with the cursor', async () => {
    const seen: Request[] = [];
    const client = clientWith((request) => {
      const cursor = new URL(request.url).searchParams.get('cursor');
      return Response.json(
        cursor
          ? { data: [delivery('c')], hasMore: false, nextCursor: null }
          : { data: [delivery('a'), delivery('b')], hasMore: true, nextCursor: 'k1.t' },
      );
    }, seen);
    const ids: string[] = [];
    for await (const d of listAllWebhookDeliveries(client, 'we_1', { pageSize: 2 })) ids.push(d.id);
    expect(ids).toEqual(['a', 'b', 'c']);
    expect(seen.map((r) => new URL(r.url).pathname + new URL(r.url).search)).toEqual([
      '/api/public/v1/webhook-endpoints/we_1/deliveries?limit=2',
      '/api/public/v1/webhook-endpoints/we_1/deliveries?limit=2&cursor=k1.t',
    ]);
  });

  it('resends, rotates and patches with the right method and path', async () => {
    const seen: Request[] = [];
    const client = clientWith((request) => {
      const path = new URL(request.url).pathname;
      if (path.endsWith('/resend')) return Response.json(delivery('a', 'pending'), { status: 202 });
      const endpoint = {
        id: 'we_1',
        url: 'https://p.example.com/h',
        events: null,
        description: null,
        status: 'disabled',
        failingSince: null,
        previousSecretExpiresAt: '2026-11-23T04:30:12.345Z',
        createdAt: '2026-11-22T04:30:12.345Z',
      };
      return Response.json(
        path.endsWith('/rotate-secret') ? { ...endpoint, secret: 'whsec_bmV3' } : endpoint,
      );
    }, seen);
    expect((await resendWebhookDelivery(client, 'we_1', 'whd_a')).status).toBe('pending');
    expect((await rotateWebhookSecret(client, 'we_1')).secret).toBe('whsec_bmV3');
    expect((await updateWebhookEndpoint(client, 'we_1', { enabled: false })).status).toBe('disabled');
    expect(seen.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual([
      'POST /api/public/v1/webhook-endpoints/we_1/deliveries/whd_a/resend',
      'POST /api/public/v1/webhook-endpoints/we_1/rotate-secret',
      'PATCH /api/public/v1/webhook-endpoints/we_1',
    ]);
    expect(await seen[2]!.json()).toEqual({ enabled: false });
  });

  it('throws the API error of a resend on a disabled endpoint', async () => {
    const client = clientWith(() =>
      Response.json(
        { error: { code: 'INVALID_STATE', message: 'The endpoint is disabled; enable it before resending' } },
        { status: 409 },
      ),
    );
    const error = await resendWebhookDelivery(client, 'we_1', 'whd_a').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PartnerApiError);
    expect((error as PartnerApiError).code).toBe('INVALID_STATE');
  });

  it('verifies a delivery signed with both secrets during a rotation, with either', () => {
    const body = '{"id":"evt_1","type":"ping"}';
    const ts = Math.floor(Date.now() / 1000);
    const [fresh, old] = ['whsec_bmV3LXNlY3JldC1uZXctc2VjcmV0', 'whsec_b2xkLXNlY3JldC1vbGQtc2VjcmV0'];
    const headers = {
      'webhook-id': 'evt_1',
      'webhook-timestamp': String(ts),
      'webhook-signature': `${signWebhook(fresh, 'evt_1', ts, body)} ${signWebhook(old, 'evt_1', ts, body)}`,
    };
    expect(verifyWebhook(fresh, headers, body).id).toBe('evt_1');
    expect(verifyWebhook(old, headers, body).id).toBe('evt_1');
  });
});
