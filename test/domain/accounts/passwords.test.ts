import { availableParallelism } from 'node:os';
import { describe, expect, test } from 'vitest';
import { argon2Load, hashPassword, verifyPassword } from '../../../src/domain/accounts/passwords.js';

describe('passwords', () => {
  test('hashes verify; a wrong password, a missing hash and an over-long password do not', async () => {
    const stored = await hashPassword('correct horse battery');
    expect(stored).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(stored, 'correct horse battery')).toBe(true);
    expect(await verifyPassword(stored, 'wrong horse battery')).toBe(false);
    expect(await verifyPassword(null, 'correct horse battery')).toBe(false);
    expect(await verifyPassword(stored, 'x'.repeat(257))).toBe(false);
  });

  test('a burst of logins runs at most one argon2id operation per core at a time (19 MiB each)', async () => {
    const stored = await hashPassword('correct horse battery');
    const burst = 4 * Math.max(2, availableParallelism());
    const seen = { running: 0, waiting: 0 };
    const sample = setInterval(() => {
      const load = argon2Load();
      seen.running = Math.max(seen.running, load.running);
      seen.waiting = Math.max(seen.waiting, load.waiting);
    }, 1);
    const results = await Promise.all(
      Array.from({ length: burst }, (_, i) =>
        verifyPassword(stored, i % 2 ? 'correct horse battery' : 'nope'),
      ),
    );
    clearInterval(sample);
    expect(results.filter(Boolean)).toHaveLength(burst / 2);
    expect(seen.running).toBeGreaterThanOrEqual(1);
    expect(seen.running).toBeLessThanOrEqual(Math.max(1, availableParallelism()));
    expect(seen.waiting).toBeGreaterThan(0);
    expect(argon2Load()).toEqual({ running: 0, waiting: 0 });
  });
});
