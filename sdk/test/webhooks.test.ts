import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhook, WebhookVerificationError } from '../src/webhooks.js';

// The Standard Webhooks reference vector (also produced by the `standardwebhooks` package below).
const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};
const at = (seconds: number) => () => seconds * 1000;

function headersFor(id: string, timestamp: number, signature: string) {
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature };
}

describe('signWebhook', () => {
  it('produces the reference signature, the same as the standardwebhooks package', () => {
    const ours = signWebhook(VECTOR.secret, VECTOR.id, VECTOR.timestamp, VECTOR.body);
    const theirs = new Webhook(VECTOR.secret).sign(VECTOR.id, new Date(VECTOR.timestamp * 1000), VECTOR.body);
    expect(ours).toBe(VECTOR.signature);
    expect(theirs).toBe(VECTOR.signature);
  });

  it('agrees with the standardwebhooks package on a service-shaped event with non-ASCII text', () => {
    const secret = `whsec_${Buffer.from('0123456789abcdef01234567').toString('base64')}`;
    const body = JSON.stringify({
      id: 'evt_1',
      type: 'order.completed',
      createdAt: '2026-11-23T10:00:00.000Z',
      livemode: false,
      data: { note: 'Türkiye — İstanbul' },
    });
    const ours = signWebhook(secret, 'evt_1', 1_790_000_000, body);
    const theirs = new Webhook(secret).sign('evt_1', new Date(1_790_000_000_000), body);
    expect(ours).toBe(theirs);
    // …and the package accepts what we sign.
    const now = Date.now;
    Date.now = () => 1_790_000_000_000;
    try {
      expect(new Webhook(secret).verify(body, headersFor('evt_1', 1_790_000_000, ours))).toMatchObject({
        id: 'evt_1',
      });
    } finally {
      Date.now = now;
    }
  });
});

describe('verifyWebhook', () => {
  const headers = headersFor(VECTOR.id, VECTOR.timestamp, VECTOR.signature);

  it('accepts the reference delivery and returns the parsed body', () => {
    expect(verifyWebhook(VECTOR.secret, headers, VECTOR.body, { now: at(VECTOR.timestamp) })).toEqual({
      test: 2432232314,
    });
  });

  it('accepts a Buffer body, a fetch Headers object and header names in any case', () => {
    const fetchHeaders = new Headers(headers);
    expect(
      verifyWebhook(VECTOR.secret, fetchHeaders, Buffer.from(VECTOR.body), { now: at(VECTOR.timestamp) }),
    ).toEqual({
      test: 2432232314,
    });
    const upper = {
      'Webhook-Id': VECTOR.id,
      'WEBHOOK-TIMESTAMP': String(VECTOR.timestamp),
      'Webhook-Signature': VECTOR.signature,
    };
    expect(() =>
      verifyWebhook(VECTOR.secret, upper, VECTOR.body, { now: at(VECTOR.timestamp) }),
    ).not.toThrow();
  });

  it('accepts when any of several space-separated signatures matches (secret rotation)', () => {
    const several = { ...headers, 'webhook-signature': `v1,bm90IHRoZSByaWdodCBvbmU= ${VECTOR.signature}` };
    expect(() =>
      verifyWebhook(VECTOR.secret, several, VECTOR.body, { now: at(VECTOR.timestamp) }),
    ).not.toThrow();
  });

  it.each([
    ['a changed body', { body: '{"test": 2432232315}' }],
    ['another secret', { secret: `whsec_${Buffer.from('another secret, 24 bytes').toString('base64')}` }],
    ['another event id', { headers: { ...headers, 'webhook-id': 'msg_other' } }],
    [
      'another timestamp',
      {
        headers: { ...headers, 'webhook-timestamp': String(VECTOR.timestamp + 1) },
        now: VECTOR.timestamp + 1,
      },
    ],
    [
      'an unknown signature version',
      { headers: { ...headers, 'webhook-signature': VECTOR.signature.replace('v1,', 'v2,') } },
    ],
    [
      'a missing signature header',
      { headers: { 'webhook-id': VECTOR.id, 'webhook-timestamp': String(VECTOR.timestamp) } },
    ],
    ['a non-numeric timestamp', { headers: { ...headers, 'webhook-timestamp': 'yesterday' } }],
  ])(
    'rejects %s',
    (_label, change: { body?: string; secret?: string; headers?: Record<string, string>; now?: number }) => {
      expect(() =>
        verifyWebhook(change.secret ?? VECTOR.secret, change.headers ?? headers, change.body ?? VECTOR.body, {
          now: at(change.now ?? VECTOR.timestamp),
        }),
      ).toThrow(WebhookVerificationError);
    },
  );

  it('rejects a timestamp outside the tolerance, in either direction (replays)', () => {
    const verifyAt = (seconds: number, toleranceSeconds?: number) => () =>
      verifyWebhook(VECTOR.secret, headers, VECTOR.body, { now: at(seconds), toleranceSeconds });
    expect(verifyAt(VECTOR.timestamp + 300)).not.toThrow();
    expect(verifyAt(VECTOR.timestamp + 301)).toThrow(/too old/);
    expect(verifyAt(VECTOR.timestamp - 301)).toThrow(/future/);
    expect(verifyAt(VECTOR.timestamp + 3600, 3600)).not.toThrow();
  });
});
