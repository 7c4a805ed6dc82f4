import { createHash } from 'node:crypto';
import { and, eq, lt, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { idempotencyKeys } from '../../db/schema/index.js';
import { rowsOf, step, type Step } from '../../db/steps.js';
import type { Clock } from '../../lib/clock.js';
import { AppError } from '../errors.js';

/**
 * The Idempotency-Key store (decisions §4): one row per (account, scope, key) in
 * `idempotency_keys`. The HTTP capability (src/http/shared/idempotency.ts) is its only caller
 * besides tests; behaviour is documented in docs/partner-reference.md "Idempotency-Key".
 *
 * - `acquire` claims a key with INSERT … ON CONFLICT DO NOTHING (no read-then-write race), or
 *   returns the stored response of the same body, or waits for a claim still running;
 * - a claim is fenced by its `claimedAt` (the row's created_at): `bind`, `complete` and `release`
 *   only touch the row while it is still that claim, so an attempt whose lease was taken over can
 *   never overwrite its successor;
 * - an in-progress claim older than the lease (a request whose process died) is taken over by the
 *   next retry with the same body; if that attempt had already bound its business result (the
 *   order it placed, in the order's own transaction) the retry recovers that result instead of
 *   running again, so a takeover never charges twice.
 */

export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
/** How long an in-progress claim is trusted before a retry may take it over. */
export const IDEMPOTENCY_LEASE_MS = 60_000;
const DEFAULT_WAIT_MS = 30_000;
const POLL_MS = 100;

export interface IdempotencyKeyRef {
  accountId: string;
  /** Which operation the key belongs to, e.g. `mobile.checkout`, `partner.orders`. */
  scope: string;
  key: string;
}

export interface StoredResponse {
  statusCode: number;
  body: unknown;
}

/** A held claim; `claimedAt` is its fencing token. */
export interface IdempotencyClaim extends IdempotencyKeyRef {
  claimedAt: Date;
}

/** What the business transaction of a claim left behind (for example `{ orderId }`). */
export type BoundResult = Record<string, unknown>;

export type Acquired =
  /** The caller holds the key: run the operation, then `complete` or `release`. */
  | { kind: 'run'; claim: IdempotencyClaim }
  /** The caller took over a dead attempt that had committed `bound`: answer from it, do not re-run. */
  | { kind: 'recover'; claim: IdempotencyClaim; bound: BoundResult }
  /** The same request already finished: answer this. */
  | { kind: 'replay'; response: StoredResponse };

/** Stable JSON: object keys sorted, so `{a,b}` and `{b,a}` hash the same. */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

export function requestHash(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

/** A bound-but-unfinished row keeps its result here until the response is stored. */
const BOUND = '$bound';

function boundOf(body: unknown): BoundResult | null {
  if (typeof body !== 'object' || body === null || !(BOUND in body)) return null;
  return (body as Record<string, BoundResult>)[BOUND] ?? null;
}

/**
 * A claim bound from the operation's own statement, as steps (src/db/steps.ts) of a statement
 * written without a transaction; both take `claimValues(claim)`:
 * - `held`: locks the key's row while it is still this claim (FOR UPDATE); the statement must
 *   write only if it produced a row. A retry taking the claim over waits for the statement to
 *   end, and one that got there first leaves no row here (the claim moved on);
 * - `boundOrder(source)`: records `{ orderId: <source>.id }` as `bind` does, for each row of the
 *   earlier step `source`.
 */
export const claimSteps = {
  held: step<ClaimValues, unknown>('held_claim', (db, p, name) =>
    db.$with(name, {}).as(sql`select 1 from ${idempotencyKeys} where ${claimMatches(p)} for update`),
  ),
  boundOrder: (source: Step<object>) =>
    step<ClaimValues, unknown>('bound_claim', (db, p, name) =>
      db.$with(name, {}).as(
        sql`update ${idempotencyKeys}
          set response_body = jsonb_build_object(${sql.raw(`'${BOUND}'`)}, jsonb_build_object('orderId', s.id))
          from ${rowsOf(source)} s where ${claimMatches(p)}`,
      ),
    ),
};

type ClaimValues = ReturnType<typeof claimValues>;

function claimMatches(p: (name: keyof ClaimValues) => SQL): SQL {
  return sql`${idempotencyKeys.accountId} = ${p('accountId')}::text and ${idempotencyKeys.scope} = ${p('scope')}::text
    and ${idempotencyKeys.key} = ${p('key')}::text and ${idempotencyKeys.status} = 'in_progress'
    and ${idempotencyKeys.createdAt} = ${p('claimedAt')}::timestamptz`;
}

/** The values of `claimSteps`' steps. */
export function claimValues(claim: IdempotencyClaim) {
  return { accountId: claim.accountId, scope: claim.scope, key: claim.key, claimedAt: claim.claimedAt };
}

export interface IdempotencyStoreDeps {
  db: Db;
  clock: Clock;
  /** Default IDEMPOTENCY_LEASE_MS; measured with `clock`. */
  leaseMs?: number;
}

export function createIdempotencyStore(deps: IdempotencyStoreDeps) {
  const { db, clock } = deps;
  const leaseMs = deps.leaseMs ?? IDEMPOTENCY_LEASE_MS;

  const whereKey = (ref: IdempotencyKeyRef) =>
    and(
      eq(idempotencyKeys.accountId, ref.accountId),
      eq(idempotencyKeys.scope, ref.scope),
      eq(idempotencyKeys.key, ref.key),
    );
  const whereClaim = (claim: IdempotencyClaim) =>
    and(
      whereKey(claim),
      eq(idempotencyKeys.status, 'in_progress'),
      eq(idempotencyKeys.createdAt, claim.claimedAt),
    );
  const refOf = (ref: IdempotencyKeyRef): IdempotencyKeyRef => ({
    accountId: ref.accountId,
    scope: ref.scope,
    key: ref.key,
  });

  /**
   * Claims the key for `body`, replays its stored response, or waits (polling, up to `waitMs`)
   * for the claim that is running. Throws IDEMPOTENCY_KEY_REUSED for another body and
   * IDEMPOTENCY_KEY_IN_USE when the wait runs out.
   */
  async function acquire(
    ref: IdempotencyKeyRef,
    body: unknown,
    options: {
      waitMs?: number;
      /**
       * Take over claims older than the lease (default true). Only callers that bind their
       * committed result can do so without risking a second effect; others pass false.
       */
      takeOver?: boolean;
    } = {},
  ): Promise<Acquired> {
    const hash = requestHash(body);
    const deadline = Date.now() + (options.waitMs ?? DEFAULT_WAIT_MS);
    for (;;) {
      const now = clock.now();
      const [claimed] = await db
        .insert(idempotencyKeys)
        .values({ ...refOf(ref), requestHash: hash, status: 'in_progress', createdAt: now })
        .onConflictDoNothing()
        .returning({ createdAt: idempotencyKeys.createdAt });
      if (claimed) return { kind: 'run', claim: { ...refOf(ref), claimedAt: claimed.createdAt } };

      const [existing] = await db.select().from(idempotencyKeys).where(whereKey(ref));
      if (!existing) continue; // released between our insert and select: claim again
      if (existing.createdAt.getTime() <= now.getTime() - IDEMPOTENCY_WINDOW_MS) {
        await db.delete(idempotencyKeys).where(and(whereKey(ref), lt(idempotencyKeys.createdAt, now)));
        continue;
      }
      if (existing.requestHash !== hash) {
        throw new AppError(
          'IDEMPOTENCY_KEY_REUSED',
          'This Idempotency-Key was already used with a different request body',
        );
      }
      if (existing.status === 'done')
        return {
          kind: 'replay',
          response: { statusCode: existing.responseStatus ?? 200, body: existing.responseBody },
        };
      if (options.takeOver !== false && existing.createdAt.getTime() <= now.getTime() - leaseMs) {
        // The attempt holding the key outlived its lease (its process most likely died): take
        // it over. The compare-and-set on created_at lets exactly one retry win.
        const [taken] = await db
          .update(idempotencyKeys)
          .set({ createdAt: now })
          .where(whereClaim({ ...refOf(ref), claimedAt: existing.createdAt }))
          .returning({ createdAt: idempotencyKeys.createdAt, responseBody: idempotencyKeys.responseBody });
        if (taken) {
          const claim = { ...refOf(ref), claimedAt: taken.createdAt };
          const bound = boundOf(taken.responseBody);
          return bound ? { kind: 'recover', claim, bound } : { kind: 'run', claim };
        }
        continue;
      }
      if (Date.now() >= deadline) {
        throw new AppError('IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still running');
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  return {
    acquire,

    /**
     * Records, inside the operation's own transaction, what it committed (`{ orderId }`), so a
     * retry that takes the claim over recovers it instead of running again. Throws (rolling the
     * transaction back) when the claim was already taken over: only one attempt commits.
     */
    async bind(tx: Tx, claim: IdempotencyClaim, bound: BoundResult): Promise<void> {
      const [row] = await tx
        .update(idempotencyKeys)
        .set({ responseBody: { [BOUND]: bound } })
        .where(whereClaim(claim))
        .returning({ key: idempotencyKeys.key });
      if (!row) throw new Error('Idempotency-Key claim was taken over by a retry; not committing');
    },

    /** Stores the response for replays; false when the claim was taken over meanwhile. */
    async complete(claim: IdempotencyClaim, response: StoredResponse): Promise<boolean> {
      const rows = await db
        .update(idempotencyKeys)
        .set({ status: 'done', responseStatus: response.statusCode, responseBody: response.body })
        .where(whereClaim(claim))
        .returning({ key: idempotencyKeys.key });
      return rows.length > 0;
    },

    /**
     * Gives the key back after an unexpected failure, so the client can retry with it. A claim
     * that had bound a committed result is not forgotten but made stale at once: the retry takes
     * it over and recovers that result instead of running (and charging) again.
     */
    async release(claim: IdempotencyClaim): Promise<void> {
      const [row] = await db
        .select({ responseBody: idempotencyKeys.responseBody })
        .from(idempotencyKeys)
        .where(whereClaim(claim));
      if (!row) return;
      if (boundOf(row.responseBody)) {
        await db
          .update(idempotencyKeys)
          .set({ createdAt: new Date(clock.now().getTime() - leaseMs - 1) })
          .where(whereClaim(claim));
      } else {
        await db.delete(idempotencyKeys).where(whereClaim(claim));
      }
    },

    /** Retention: deletes keys older than the 24 h window; returns how many. */
    async purge(now: Date = clock.now()): Promise<number> {
      const rows = await db
        .delete(idempotencyKeys)
        .where(lt(idempotencyKeys.createdAt, new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS)))
        .returning({ key: idempotencyKeys.key });
      return rows.length;
    },
  };
}

export type IdempotencyStore = ReturnType<typeof createIdempotencyStore>;
