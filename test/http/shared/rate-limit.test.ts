import Fastify from 'fastify';
import { describe, expect, test } from 'vitest';
import { createRateLimitGuard, MAX_LOCAL_COUNTERS } from '../../../src/http/shared/rate-limit.js';

/** A guard on in-process counters (no Redis), outside any HTTP app. */
async function localGuard(max: number) {
  const app = Fastify();
  const log = { warn: () => undefined, info: () => undefined };
  app.decorate('container', { redis: undefined, config: { redisKeyPrefix: '' }, log } as never);
  return createRateLimitGuard(app, [{ name: 'reads', max, windowMs: 60_000, key: () => undefined }]);
}

describe('rate-limit guard on in-process counters', () => {
  test('spends synchronously: headers while within budget, null once it is spent', async () => {
    const guard = await localGuard(2);
    const first = guard.spendOne('reads', 'a');
    // No promise: the catalog replay answers within the request listener.
    expect(first).not.toBeInstanceOf(Promise);
    expect(first).toEqual({
      'x-ratelimit-limit': '2',
      'x-ratelimit-remaining': '1',
      'x-ratelimit-reset': '60',
    });
    expect(guard.spendOne('reads', 'a')).toMatchObject({ 'x-ratelimit-remaining': '0' });
    expect(guard.spendOne('reads', 'a')).toBeNull();
    // Another counter has its own budget.
    expect(guard.spendOne('reads', 'b')).toMatchObject({ 'x-ratelimit-remaining': '1' });
  });

  test(`keeps at most ${MAX_LOCAL_COUNTERS} live windows, dropping the oldest first`, async () => {
    const guard = await localGuard(1);
    expect(guard.spendOne('reads', 'oldest')).not.toBeNull();
    expect(guard.spendOne('reads', 'oldest')).toBeNull();
    for (let i = 1; i < MAX_LOCAL_COUNTERS; i++) guard.spendOne('reads', `key-${i}`);
    // Full: the newest windows are still spent...
    expect(guard.spendOne('reads', `key-${MAX_LOCAL_COUNTERS - 1}`)).toBeNull();
    expect(guard.spendOne('reads', 'newcomer')).not.toBeNull();
    // ...and the oldest tenth made room: their windows start again.
    expect(guard.spendOne('reads', 'oldest')).not.toBeNull();
    expect(guard.spendOne('reads', `key-${MAX_LOCAL_COUNTERS / 10 - 1}`)).not.toBeNull();
    expect(guard.spendOne('reads', `key-${MAX_LOCAL_COUNTERS / 10 + 1}`)).toBeNull();
    expect(guard.spendOne('reads', `key-${MAX_LOCAL_COUNTERS - 2}`)).toBeNull();
  });
});
