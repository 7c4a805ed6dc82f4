import { createHash } from 'node:crypto';
import { and, eq, lt } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/client.js';
import { idempotencyKeys } from '../../db/schema/index.js';
import { AppError, isAppError } from '../../domain/errors.js';
import type { Clock } from '../../lib/clock.js';
import { statusFor, type Surface } from './error-map.js';
import { mobileBody, partnerBody } from './errors.js';

/**
 * Idempotency-Key support (decisions §4) shared by Mobile `POST /checkout` and Partner
 * `POST /orders`. Behaviour, documented in docs/orders.md:
 * - same account + scope + key + body within 24 h → the stored first response (status and body);
 *   while the first request still runs, the repeat waits for it (up to `waitMs`, then 409
 *   IDEMPOTENCY_KEY_IN_USE);
 * - same key with another body → 409 IDEMPOTENCY_KEY_REUSED;
 * - business errors (4xx, FULFILLMENT_FAILED 502) are real outcomes and are replayed; an
 *   unexpected failure (thrown error, 500) releases the key so the client can try again.
 */
export interface IdempotentResponse {
  statusCode: number;
  body: unknown;
}

export interface IdempotencyRequest {
  accountId: string;
  /** Which endpoint the key belongs to, e.g. `mobile.checkout`, `partner.orders`. */
  scope: string;
  key: string;
  body: unknown;
}

export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
const POLL_MS = 100;

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

function requestHash(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

/**
 * Runs `execute` at most once per (account, scope, key) and replays its response.
 * `execute` should turn domain errors into responses itself (see `appErrorResponse`); anything it
 * throws releases the key and propagates.
 */
export async function withIdempotency(
  deps: { db: Db; clock: Clock; waitMs?: number },
  request: IdempotencyRequest,
  execute: () => Promise<IdempotentResponse>,
): Promise<IdempotentResponse> {
  const { db, clock } = deps;
  const hash = requestHash(request.body);
  const where = and(
    eq(idempotencyKeys.accountId, request.accountId),
    eq(idempotencyKeys.scope, request.scope),
    eq(idempotencyKeys.key, request.key),
  );
  const deadline = Date.now() + (deps.waitMs ?? 30_000);

  for (;;) {
    const claimed = await db
      .insert(idempotencyKeys)
      .values({ ...keyColumns(request), requestHash: hash, status: 'in_progress', createdAt: clock.now() })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (claimed.length > 0) return runAndStore(db, where, execute);

    const [existing] = await db.select().from(idempotencyKeys).where(where);
    if (!existing) continue; // released between our insert and select: claim again
    if (existing.createdAt.getTime() <= clock.now().getTime() - IDEMPOTENCY_WINDOW_MS) {
      await db.delete(idempotencyKeys).where(and(where, lt(idempotencyKeys.createdAt, clock.now())));
      continue;
    }
    if (existing.requestHash !== hash) {
      throw new AppError(
        'IDEMPOTENCY_KEY_REUSED',
        'This Idempotency-Key was already used with a different request body',
      );
    }
    if (existing.status === 'done')
      return { statusCode: existing.responseStatus ?? 200, body: existing.responseBody };
    if (Date.now() >= deadline) {
      throw new AppError('IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still running');
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

function keyColumns(request: IdempotencyRequest) {
  return { accountId: request.accountId, scope: request.scope, key: request.key };
}

async function runAndStore(
  db: Db,
  where: ReturnType<typeof and>,
  execute: () => Promise<IdempotentResponse>,
): Promise<IdempotentResponse> {
  let response: IdempotentResponse;
  try {
    response = await execute();
  } catch (err) {
    await db.delete(idempotencyKeys).where(where);
    throw err;
  }
  if (response.statusCode >= 500 && response.statusCode !== 502) {
    // An unexpected server failure is not an outcome the client should be stuck with.
    await db.delete(idempotencyKeys).where(where);
    return response;
  }
  await db
    .update(idempotencyKeys)
    .set({ status: 'done', responseStatus: response.statusCode, responseBody: response.body })
    .where(where);
  return response;
}

/**
 * Runs a domain call and turns an AppError into the surface's error response, so that business
 * failures are stored and replayed like successes. Other errors propagate (and release the key).
 */
export async function appErrorResponse(
  surface: Surface,
  request: FastifyRequest,
  run: () => Promise<IdempotentResponse>,
): Promise<IdempotentResponse> {
  try {
    return await run();
  } catch (err) {
    if (!isAppError(err)) throw err;
    const body = surface === 'mobile' ? mobileBody(err, request) : partnerBody(err, request);
    return { statusCode: statusFor(err.code, surface), body };
  }
}
