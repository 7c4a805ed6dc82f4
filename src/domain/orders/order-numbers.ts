import { randomInt } from 'node:crypto';

/** Crockford-style base32 without I, L, O, U: readable aloud and never confused with 1/0/V. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export type OrderChannel = 'mobile' | 'partner';

/**
 * `SVC-251122-7KQ4M2XH` (mobile) or `SVC-API-251122-7KQ4M2XH` (partner): the UTC date helps
 * support find an order by eye; 8 random base32 characters (40 bits) make collisions on one day
 * negligible, and the unique column rejects the rest.
 */
export function newOrderNumber(channel: OrderChannel, now: Date): string {
  const date = now.toISOString().slice(2, 10).replace(/-/g, '');
  let random = '';
  for (let i = 0; i < 8; i++) random += ALPHABET[randomInt(ALPHABET.length)];
  return `${channel === 'partner' ? 'SVC-API-' : 'SVC-'}${date}-${random}`;
}
