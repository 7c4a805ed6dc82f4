import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/db/client.js';
import { idempotencyKeys } from '../../../src/db/schema/index.js';
import { AppError } from '../../../src/domain/errors.js';
import {
  createIdempotencyStore,
  IDEMPOTENCY_LEASE_MS,
  IDEMPOTENCY_WINDOW_MS,
  type IdempotencyStore,
} from '../../../src/domain/idempotency/store.js';
import { ManualClock, SECOND } from '../../../src/lib/clock.js';
import { freshDatabase } from '../../helpers/app.js';

/** Rules tier: the Idempotency-Key store against a database, without the HTTP app. */
let database: Database;
let drop: () => Promise<void>;
let clock: ManualClock;
let store: IdempotencyStore;

beforeAll(async () => {
  ({ database, drop } = await freshDatabase());
  clock = new ManualClock();
  store = createIdempotencyStore({ db: database.db, clock });
});
afterAll(async () => drop());

let n = 0;
const ref = () => ({ accountId: 'acc_store', scope: 'test.store', key: `k-${++n}` });
const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (e: unknown) => (e instanceof AppError ? e.code : String(e)),
  );

describe('idempotency store', () => {
  it('claims once, replays the completed response, refuses another body', async () => {
    const key = ref();
    const first = await store.acquire(key, { a: 1, b: 2 });
    expect(first.kind).toBe('run');
    if (first.kind !== 'run') return;
    expect(await store.complete(first.claim, { statusCode: 201, body: { id: 'x' } })).toBe(true);
    expect(await store.acquire(key, { b: 2, a: 1 })).toEqual({
      kind: 'replay',
      response: { statusCode: 201, body: { id: 'x' } },
    });
    expect(await codeOf(store.acquire(key, { a: 2 }))).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('a repeat waits for the running claim, then gives up with IDEMPOTENCY_KEY_IN_USE', async () => {
    const key = ref();
    const first = await store.acquire(key, {});
    if (first.kind !== 'run') throw new Error('expected a claim');
    expect(await codeOf(store.acquire(key, {}, { waitMs: 150 }))).toBe('IDEMPOTENCY_KEY_IN_USE');
    const waiting = store.acquire(key, {}, { waitMs: 5_000 });
    setTimeout(() => void store.complete(first.claim, { statusCode: 200, body: { ok: true } }), 150);
    expect(await waiting).toEqual({ kind: 'replay', response: { statusCode: 200, body: { ok: true } } });
  });

  it('release forgets an unbound claim, so the same key runs again', async () => {
    const key = ref();
    const first = await store.acquire(key, {});
    if (first.kind !== 'run') throw new Error('expected a claim');
    await store.release(first.claim);
    expect((await store.acquire(key, {})).kind).toBe('run');
  });

  it('a claim left in progress by a dead process is taken over after the lease, once', async () => {
    const key = ref();
    const dead = await store.acquire(key, { v: 1 });
    if (dead.kind !== 'run') throw new Error('expected a claim');
    // Within the lease the key is still in use.
    clock.advance(IDEMPOTENCY_LEASE_MS - SECOND);
    expect(await codeOf(store.acquire(key, { v: 1 }, { waitMs: 0 }))).toBe('IDEMPOTENCY_KEY_IN_USE');
    // Callers that cannot bind their result never take over.
    clock.advance(2 * SECOND);
    expect(await codeOf(store.acquire(key, { v: 1 }, { waitMs: 0, takeOver: false }))).toBe(
      'IDEMPOTENCY_KEY_IN_USE',
    );
    // Another body is still another request.
    expect(await codeOf(store.acquire(key, { v: 2 }, { waitMs: 0 }))).toBe('IDEMPOTENCY_KEY_REUSED');
    const [a, b] = await Promise.all([
      store.acquire(key, { v: 1 }, { waitMs: 0 }).catch((e: AppError) => e.code),
      store.acquire(key, { v: 1 }, { waitMs: 0 }).catch((e: AppError) => e.code),
    ]);
    const kinds = [a, b].map((x) => (typeof x === 'string' ? x : x.kind)).sort();
    expect(kinds).toEqual(['IDEMPOTENCY_KEY_IN_USE', 'run']);
    const retry = [a, b].find((x) => typeof x !== 'string' && x.kind === 'run');
    if (!retry || typeof retry === 'string' || retry.kind !== 'run') throw new Error('expected a claim');

    // The dead attempt's late writes are fenced off: it can neither store nor release the key.
    expect(await store.complete(dead.claim, { statusCode: 201, body: { stale: true } })).toBe(false);
    await store.release(dead.claim);
    expect(await store.complete(retry.claim, { statusCode: 201, body: { fresh: true } })).toBe(true);
    expect(await store.acquire(key, { v: 1 })).toEqual({
      kind: 'replay',
      response: { statusCode: 201, body: { fresh: true } },
    });
  });

  it('a taken-over claim that had bound its result is recovered, not run again', async () => {
    const key = ref();
    const dead = await store.acquire(key, {});
    if (dead.kind !== 'run') throw new Error('expected a claim');
    await database.db.transaction((tx) => store.bind(tx, dead.claim, { orderId: 'ord_1' }));
    clock.advance(IDEMPOTENCY_LEASE_MS + SECOND);
    const retry = await store.acquire(key, {});
    expect(retry).toMatchObject({ kind: 'recover', bound: { orderId: 'ord_1' } });
    // The dead attempt can no longer bind (its business transaction would roll back).
    await expect(
      database.db.transaction((tx) => store.bind(tx, dead.claim, { orderId: 'ord_2' })),
    ).rejects.toThrow(/taken over/);
  });

  it('an unexpected failure after binding keeps the result for the retry', async () => {
    const key = ref();
    const first = await store.acquire(key, {});
    if (first.kind !== 'run') throw new Error('expected a claim');
    await database.db.transaction((tx) => store.bind(tx, first.claim, { orderId: 'ord_3' }));
    await store.release(first.claim);
    expect(await store.acquire(key, {}, { waitMs: 0 })).toMatchObject({
      kind: 'recover',
      bound: { orderId: 'ord_3' },
    });
  });

  it('keys older than the 24 h window are forgotten and purged', async () => {
    const key = ref();
    const first = await store.acquire(key, { v: 1 });
    if (first.kind !== 'run') throw new Error('expected a claim');
    await store.complete(first.claim, { statusCode: 200, body: {} });
    clock.advance(IDEMPOTENCY_WINDOW_MS + 1);
    expect((await store.acquire(key, { v: 2 })).kind).toBe('run');
    clock.advance(IDEMPOTENCY_WINDOW_MS + 1);
    expect(await store.purge()).toBeGreaterThanOrEqual(1);
    expect(await database.db.select().from(idempotencyKeys)).toEqual([]);
  });
});
