import type { Clock } from './clock.js';

/** Waits `ms` milliseconds; tests pass one that moves a ManualClock instead. */
export type Sleep = (ms: number) => Promise<void>;

export const realSleep: Sleep = (ms) => (ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve());

/**
 * Spaces calls evenly at `perSecond` (a token bucket of size one): `acquire()` resolves when the
 * next call may go. Even spacing, not bursts, because a provider's limit (eSIM Access: 8
 * requests/s) counts any one second, and other callers (orders, top-ups) share it.
 */
export function createRateLimiter(deps: { clock: Clock; perSecond: number; sleep?: Sleep }) {
  const spacingMs = 1000 / deps.perSecond;
  const sleep = deps.sleep ?? realSleep;
  let lastAt = Number.NEGATIVE_INFINITY;
  return {
    async acquire(): Promise<void> {
      // Time as we know it: the clock, or the end of our own last wait if the clock shows less
      // (a clock that stands still, as in tests, must not make each wait longer than the last).
      const now = Math.max(deps.clock.now().getTime(), lastAt);
      const at = Math.max(now, lastAt + spacingMs);
      lastAt = at;
      await sleep(at - now);
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
