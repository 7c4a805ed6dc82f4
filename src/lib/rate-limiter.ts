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
  let nextAt = 0;
  return {
    async acquire(): Promise<void> {
      const now = deps.clock.now().getTime();
      const at = Math.max(now, nextAt);
      nextAt = at + spacingMs;
      await sleep(at - now);
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
