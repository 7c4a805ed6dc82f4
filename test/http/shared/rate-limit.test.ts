import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { describe, expect, test } from 'vitest';
import { createRateLimitGuard, MAX_LOCAL_COUNTERS } from '../../../src/http/shared/rate-limit.js';

/** A guard on in-process counters (no Redis), outside any HTTP app; `spend(key)` is one request. */
async function localGuard(max: number) {
  const app = Fastify();
  const log = { warn: () => undefined, info: () => undefined };
  app.decorate('container', { redis: undefined, config: { redisKeyPrefix: '' }, log } as never);
  const guard = await createRateLimitGuard(app, [
    { name: 'reads', max, windowMs: 60_000, key: (request) => (request as unknown as { key: string }).key },
  ]);
  return async (key: string): Promise<Record<string, string> | 'limited'> => {
    let headers: Record<string, string> = {};
    const reply = { headers: (h: Record<string, string>) => (headers = h) } as unknown as FastifyReply;
    try {
      await guard({ key } as unknown as FastifyRequest, reply);
      return headers;
    } catch (err) {
      expect((err as { code?: string }).code).toBe('RATE_LIMITED');
      return 'limited';
    }
  };
}

describe('rate-limit guard on in-process counters', () => {
  test('headers while within budget, 429 once it is spent', async () => {
    const spend = await localGuard(2);
    expect(await spend('a')).toEqual({
      'x-ratelimit-limit': '2',
      'x-ratelimit-remaining': '1',
      'x-ratelimit-reset': '60',
    });
    expect(await spend('a')).toMatchObject({ 'x-ratelimit-remaining': '0' });
    expect(await spend('a')).toBe('limited');
    // Another counter has its own budget.
    expect(await spend('b')).toMatchObject({ 'x-ratelimit-remaining': '1' });
  });

  test(`keeps at most ${MAX_LOCAL_COUNTERS} live windows, dropping the oldest first`, async () => {
    const spend = await localGuard(1);
    expect(await spend('oldest')).not.toBe('limited');
    expect(await spend('oldest')).toBe('limited');
    for (let i = 1; i < MAX_LOCAL_COUNTERS; i++) await spend(`key-${i}`);
    // Full: the newest windows are still spent...
    expect(await spend(`key-${MAX_LOCAL_COUNTERS - 1}`)).toBe('limited');
    expect(await spend('newcomer')).not.toBe('limited');
    // ...and the oldest tenth made room: their windows start again.
    expect(await spend('oldest')).not.toBe('limited');
    expect(await spend(`key-${MAX_LOCAL_COUNTERS / 10 - 1}`)).not.toBe('limited');
    expect(await spend(`key-${MAX_LOCAL_COUNTERS / 10 + 1}`)).toBe('limited');
    expect(await spend(`key-${MAX_LOCAL_COUNTERS - 2}`)).toBe('limited');
  });
});
