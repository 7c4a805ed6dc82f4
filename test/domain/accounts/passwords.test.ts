import { availableParallelism } from 'node:os';
import { describe, expect, test } from 'vitest';
import { createPasswords } from '../../../src/domain/accounts/passwords.js';
import { systemClock } from '../../../src/lib/clock.js';
import { createWorkGate } from '../../../src/lib/work-gate.js';

const cores = Math.max(1, availableParallelism());
const passwordsWith = (maxQueued: number, perKey: number) =>
  createPasswords(createWorkGate({ concurrency: cores, maxQueued, perKey, clock: systemClock }));

describe('passwords', () => {
  test('hashes verify; a wrong password, a missing hash and an over-long password do not', async () => {
    const passwords = passwordsWith(64, 4);
    const stored = await passwords.hash('correct horse battery');
    expect(stored).toMatch(/^\$argon2id\$/);
    expect(await passwords.verify(stored, 'correct horse battery')).toBe(true);
    expect(await passwords.verify(stored, 'wrong horse battery')).toBe(false);
    expect(await passwords.verify(null, 'correct horse battery')).toBe(false);
    expect(await passwords.verify(stored, 'x'.repeat(257))).toBe(false);
    expect(await passwords.verify('not-a-hash', 'correct horse battery')).toBe(false);
  });

  test('a burst of logins runs at most one argon2id operation per core at a time (19 MiB each)', async () => {
    const passwords = passwordsWith(1000, 1000);
    const stored = await passwords.hash('correct horse battery');
    const burst = 4 * Math.max(2, cores);
    const seen = { running: 0, waiting: 0 };
    const sample = setInterval(() => {
      const load = passwords.load();
      seen.running = Math.max(seen.running, load.running);
      seen.waiting = Math.max(seen.waiting, load.waiting);
    }, 1);
    const results = await Promise.all(
      Array.from({ length: burst }, (_, i) =>
        passwords.verify(stored, i % 2 ? 'correct horse battery' : 'nope', `10.0.0.${i}`),
      ),
    );
    clearInterval(sample);
    expect(results.filter(Boolean)).toHaveLength(burst / 2);
    expect(seen.running).toBeGreaterThanOrEqual(1);
    expect(seen.running).toBeLessThanOrEqual(cores);
    expect(seen.waiting).toBeGreaterThan(0);
    expect(passwords.load()).toEqual({ running: 0, waiting: 0, keys: 0 });
  });

  test('past a client’s share: 429 RATE_LIMITED; past the queue: 503 SERVICE_UNAVAILABLE; both with Retry-After', async () => {
    const passwords = passwordsWith(cores + 2, 2);
    const stored = await passwords.hash('correct horse battery');
    const mine = Array.from({ length: 3 }, () =>
      passwords.verify(stored, 'nope', '10.0.0.1').then(
        () => 'ok',
        (e: { code: string; headers: Record<string, string> }) => e,
      ),
    );
    const outcomes = await Promise.all(mine);
    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(2);
    expect(outcomes).toContainEqual(
      expect.objectContaining({
        code: 'RATE_LIMITED',
        headers: { 'retry-after': expect.stringMatching(/^\d+$/) },
      }),
    );

    const crowd = Array.from({ length: 2 * cores + 4 }, (_, i) =>
      passwords.verify(stored, 'nope', `10.1.0.${i}`).then(
        () => 'ok',
        (e: { code: string }) => e.code,
      ),
    );
    const results = await Promise.all(crowd);
    expect(results).toContain('SERVICE_UNAVAILABLE');
    expect(results.filter((r) => r === 'ok').length).toBeGreaterThanOrEqual(cores + 2);
  });
});
