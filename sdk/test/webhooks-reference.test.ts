import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhook, WebhookVerificationError } from '../src/webhooks.js';

/**
 * H19: `verifyWebhook` accepts exactly the deliveries the `standardwebhooks` reference package
 * accepts. Each vector is verified by both; the verdicts must be equal (and are pinned, so a
 * change in either library shows up).
 */
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const ID = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
const TS = 1614265330;
const BODY = '{"test": 2432232314}';
const SIG = 'g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE='; // has '+', '/' and one '='
const NOW = TS + 10;

interface Vector {
  signature?: string;
  timestamp?: string;
  id?: string;
  body?: string;
  headers?: Record<string, string>;
}

const urlSafe = SIG.replace(/\+/g, '-').replace(/\//g, '_');
const vectors: Array<[string, boolean, Vector]> = [
  ['the canonical signature', true, {}],
  ['unpadded base64', false, { signature: `v1,${SIG.replace(/=+$/, '')}` }],
  ['base64url', false, { signature: `v1,${urlSafe}` }],
  ['base64url, unpadded', false, { signature: `v1,${urlSafe.replace(/=+$/, '')}` }],
  ['trailing junk after the padding', false, { signature: `v1,${SIG}junk` }],
  ['trailing junk without the padding', false, { signature: `v1,${SIG.replace(/=$/, 'A')}` }],
  ['a newline inside the base64', false, { signature: `v1,${SIG.slice(0, 20)}\n${SIG.slice(20)}` }],
  ['the signature in another case', false, { signature: `v1,${SIG.toLowerCase()}` }],
  ['the bytes as hex', false, { signature: `v1,${Buffer.from(SIG, 'base64').toString('hex')}` }],
  ['an extra comma field after it', true, { signature: `v1,${SIG},extra` }],
  ['a wrong one first, then the right one', true, { signature: `v1,bm90IHRoZSByaWdodCBvbmU= v1,${SIG}` }],
  ['extra spaces around it', true, { signature: `  v1,${SIG}  ` }],
  ['version V1', false, { signature: `V1,${SIG}` }],
  ['version v1a', false, { signature: `v1a,${SIG}` }],
  ['version only', false, { signature: 'v1' }],
  ['an empty signature', false, { signature: 'v1,' }],
  ['a changed body', false, { body: '{"test": 2432232315}' }],
  ['another id', false, { id: 'msg_other' }],
  ['a timestamp with a trailing fraction', true, { timestamp: `${TS}.9` }],
  ['a timestamp with trailing letters', true, { timestamp: `${TS}abc` }],
  ['a timestamp with a plus sign', true, { timestamp: `+${TS}` }],
  ['a timestamp in hex', false, { timestamp: `0x${TS.toString(16)}` }],
  ['a timestamp that is not a number', false, { timestamp: 'yesterday' }],
  ['a timestamp 301 s old', false, { timestamp: String(NOW - 301) }],
  ['a timestamp 301 s ahead', false, { timestamp: String(NOW + 301) }],
  [
    'header names in other cases',
    true,
    { headers: { 'Webhook-Id': ID, 'WEBHOOK-TIMESTAMP': String(TS), 'Webhook-Signature': `v1,${SIG}` } },
  ],
  ['no signature header', false, { headers: { 'webhook-id': ID, 'webhook-timestamp': String(TS) } }],
];

function headersOf(v: Vector): Record<string, string> {
  if (v.headers) return v.headers;
  const timestamp = v.timestamp ?? String(TS);
  // A vector that changes the timestamp carries a signature made for the value the reference reads.
  const signedTs = Number.parseInt(timestamp, 10);
  const signature =
    v.signature ??
    (v.timestamp !== undefined && !Number.isNaN(signedTs)
      ? signWebhook(SECRET, ID, signedTs, BODY)
      : `v1,${SIG}`);
  return { 'webhook-id': v.id ?? ID, 'webhook-timestamp': timestamp, 'webhook-signature': signature };
}

function reference(v: Vector): boolean {
  const now = Date.now;
  Date.now = () => NOW * 1000;
  try {
    new Webhook(SECRET).verify(v.body ?? BODY, headersOf(v));
    return true;
  } catch {
    return false;
  } finally {
    Date.now = now;
  }
}

function ours(v: Vector, asBuffer = false): boolean {
  const body = v.body ?? BODY;
  try {
    verifyWebhook(SECRET, headersOf(v), asBuffer ? Buffer.from(body) : body, { now: () => NOW * 1000 });
    return true;
  } catch (err) {
    if (!(err instanceof WebhookVerificationError)) throw err;
    return false;
  }
}

describe('verifyWebhook accepts exactly what standardwebhooks accepts', () => {
  it.each(vectors)('%s → accepted: %s', (_label, accepted, vector) => {
    expect(reference(vector)).toBe(accepted);
    expect(ours(vector)).toBe(accepted);
    expect(ours(vector, true)).toBe(accepted);
  });

  it('reads a body that is not valid UTF-8 as the reference does', () => {
    const raw = Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]); // {"a":"\xff"}
    const signedAsText = signWebhook(SECRET, ID, TS, raw.toString('utf8'));
    const headers = { 'webhook-id': ID, 'webhook-timestamp': String(TS), 'webhook-signature': signedAsText };
    const now = Date.now;
    Date.now = () => NOW * 1000;
    try {
      expect(() => new Webhook(SECRET).verify(raw, headers)).not.toThrow();
    } finally {
      Date.now = now;
    }
    expect(() => verifyWebhook(SECRET, headers, raw, { now: () => NOW * 1000 })).not.toThrow();
  });

  it('refuses a secret that is not whsec_ followed by padded base64', () => {
    const headers = headersOf({});
    for (const secret of [
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw!!',
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaS',
    ]) {
      expect(() => verifyWebhook(secret, headers, BODY, { now: () => NOW * 1000 })).toThrow(TypeError);
    }
  });
});
