import { HOUR, MINUTE, SECOND } from '../../lib/clock.js';

/** Delay before retry n (after n failed attempts): at least 24 h of retries in all. */
export const RETRY_SCHEDULE_MS = [
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  10 * HOUR,
];
/** The longest wait between two attempts; a receiver's Retry-After is honoured up to this. */
export const RETRY_CAP_MS = Math.max(...RETRY_SCHEDULE_MS);
/**
 * Jitter adds up to this share of the scheduled delay. Only added, never taken away, so the
 * schedule's floor (and its 24 h total) holds; it spreads the retries of one outage's failures
 * instead of sending them all back in one burst.
 */
export const JITTER_SHARE = 0.25;

/** A number in [0, 1), as Math.random gives: injectable so tests know the jitter. */
export type RandomSource = () => number;

/** Statuses whose Retry-After header we honour (Standard Webhooks: "429 and 503"). */
const HONOURS_RETRY_AFTER = new Set([429, 503]);

/**
 * Retry-After in milliseconds from `now`: delta-seconds or an HTTP-date (RFC 9110 §10.2.3);
 * null when absent or unreadable.
 */
export function retryAfterMs(value: string | undefined, now: Date): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * SECOND;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now.getTime());
}

/**
 * The wait before the next attempt after `attempts` failed ones, or null when none is left: the
 * schedule's step plus jitter, and never earlier than a 429/503's Retry-After asks (capped).
 */
export function nextRetryDelayMs(input: {
  attempts: number;
  status: number | null;
  retryAfter?: string;
  now: Date;
  random: RandomSource;
}): number | null {
  const step = RETRY_SCHEDULE_MS[input.attempts - 1];
  if (step === undefined) return null;
  const jittered = Math.round(step * (1 + JITTER_SHARE * input.random()));
  const asked =
    input.status !== null && HONOURS_RETRY_AFTER.has(input.status)
      ? retryAfterMs(input.retryAfter, input.now)
      : null;
  return asked === null ? jittered : Math.max(jittered, Math.min(asked, RETRY_CAP_MS));
}
