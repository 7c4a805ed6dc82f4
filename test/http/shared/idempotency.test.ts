import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../src/domain/errors.js';
import { HOUR } from '../../../src/lib/clock.js';
import {
  canonicalJson,
  withIdempotency,
  type IdempotentResponse,
} from '../../../src/http/shared/idempotency.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { createUser } from '../../helpers/factories.js';

let t: TestApp;
let accountId: string;
beforeAll(async () => {
  t = await buildTestApp();
  accountId = (await createUser(t.container)).id;
});
afterAll(() => t.close());

const deps = (waitMs?: number) => ({ db: t.container.db, clock: t.clock, waitMs });
let counter = 0;
const newKey = () => `key-${++counter}`;

function counted(response: IdempotentResponse, delayMs = 0) {
  const state = { calls: 0 };
  const run = async () => {
    state.calls++;
    if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
    return response;
  };
  return { state, run };
}

async function codeOf(promise: Promise<unknown>): Promise<string | null> {
  return promise.then(
    () => null,
    (e: unknown) => (e instanceof AppError ? e.code : String(e)),
  );
}

describe('withIdempotency', () => {
  it('canonical JSON ignores key order and undefined fields', () => {
    expect(canonicalJson({ b: 1, a: [{ y: 2, x: undefined, z: null }] })).toBe(
      '{"a":[{"y":2,"z":null}],"b":1}',
    );
  });

  it('runs once per key and replays the stored status and body', async () => {
    const key = newKey();
    const { state, run } = counted({ statusCode: 201, body: { id: 'x1' } });
    const req = { accountId, scope: 'test', key, body: { planId: 'p', quantity: 1 } };
    expect(await withIdempotency(deps(), req, run)).toEqual({ statusCode: 201, body: { id: 'x1' } });
    const again = await withIdempotency(deps(), { ...req, body: { quantity: 1, planId: 'p' } }, run);
    expect(again).toEqual({ statusCode: 201, body: { id: 'x1' } });
    expect(state.calls).toBe(1);
    expect(await codeOf(withIdempotency(deps(), { ...req, body: { planId: 'q', quantity: 1 } }, run))).toBe(
      'IDEMPOTENCY_KEY_REUSED',
    );
    // Another scope or another account is another key.
    await withIdempotency(deps(), { ...req, scope: 'other' }, run);
    expect(state.calls).toBe(2);
  });

  it('a repeat while the first still runs waits for it and returns its response', async () => {
    const key = newKey();
    const { state, run } = counted({ statusCode: 200, body: { ok: 1 } }, 300);
    const req = { accountId, scope: 'test', key, body: { a: 1 } };
    const [a, b, c] = await Promise.all([
      withIdempotency(deps(), req, run),
      withIdempotency(deps(), req, run),
      withIdempotency(deps(), req, run),
    ]);
    expect(state.calls).toBe(1);
    expect(b).toEqual(a);
    expect(c).toEqual(a);
  });

  it('gives up waiting after waitMs with IDEMPOTENCY_KEY_IN_USE', async () => {
    const key = newKey();
    const { run } = counted({ statusCode: 200, body: {} }, 800);
    const req = { accountId, scope: 'test', key, body: {} };
    const first = withIdempotency(deps(), req, run);
    await new Promise((r) => setTimeout(r, 50));
    expect(await codeOf(withIdempotency(deps(150), req, run))).toBe('IDEMPOTENCY_KEY_IN_USE');
    await first;
  });

  it('stores business errors (4xx, 502) but releases the key after a thrown error or a 500', async () => {
    const req = (key: string) => ({ accountId, scope: 'test', key, body: {} });
    const k502 = newKey();
    const failed = counted({ statusCode: 502, body: { code: 'FULFILLMENT_FAILED' } });
    await withIdempotency(deps(), req(k502), failed.run);
    await withIdempotency(deps(), req(k502), failed.run);
    expect(failed.state.calls).toBe(1);

    const k500 = newKey();
    const internal = counted({ statusCode: 500, body: { code: 'INTERNAL_ERROR' } });
    await withIdempotency(deps(), req(k500), internal.run);
    await withIdempotency(deps(), req(k500), internal.run);
    expect(internal.state.calls).toBe(2);

    const kThrow = newKey();
    let calls = 0;
    const flaky = async () => {
      calls++;
      if (calls === 1) throw new Error('boom');
      return { statusCode: 200, body: { second: true } };
    };
    expect(await codeOf(withIdempotency(deps(), req(kThrow), flaky))).toBe('Error: boom');
    expect(await withIdempotency(deps(), req(kThrow), flaky)).toEqual({
      statusCode: 200,
      body: { second: true },
    });
  });

  it('a key older than 24 hours is forgotten', async () => {
    const key = newKey();
    const { state, run } = counted({ statusCode: 200, body: {} });
    const req = { accountId, scope: 'test', key, body: { v: 1 } };
    await withIdempotency(deps(), req, run);
    t.clock.advance(24 * HOUR + 1);
    await withIdempotency(deps(), { ...req, body: { v: 2 } }, run);
    expect(state.calls).toBe(2);
  });
});
