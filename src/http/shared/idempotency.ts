import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/client.js';
import { AppError, isAppError } from '../../domain/errors.js';
import {
  createIdempotencyStore,
  type BoundResult,
  type IdempotencyClaim,
  type IdempotencyStore,
  type StoredResponse,
} from '../../domain/idempotency/store.js';
import type { Clock } from '../../lib/clock.js';
import { statusFor, type Surface } from './error-map.js';
import { mobileBody, noteErrorCode, partnerBody } from './errors.js';

export { canonicalJson, IDEMPOTENCY_WINDOW_MS } from '../../domain/idempotency/store.js';

/**
 * Idempotency-Key as a route capability (decisions §4; docs/partner-reference.md "Idempotency-Key"). A
 * route opts in with `config: { idempotency: { scope, … } }`; the surface calls
 * `installIdempotency(app, surface)` once before registering its routes. The rows live in the
 * domain store (src/domain/idempotency/store.ts); this file holds no SQL.
 *
 * - same principal + scope + key + body within 24 h → the stored first response (status and
 *   body); while the first request still runs the repeat waits (up to 30 s, then 409
 *   IDEMPOTENCY_KEY_IN_USE); another body → 409 IDEMPOTENCY_KEY_REUSED;
 * - the response is stored as sent, business errors included (4xx, FULFILLMENT_FAILED 502); any
 *   other 5xx (a thrown error) releases the key so the client can try again;
 * - the handler binds what it committed to the claim in the same statement (the order's own,
 *   `claimSteps` in src/domain/idempotency/store.ts): a retry that takes over a claim whose
 *   process died (older than the lease, 60 s) then answers from it through the route's `recover`
 *   instead of running again.
 */
export interface IdempotentResponse {
  statusCode: number;
  body: unknown;
}

export interface IdempotencyRouteOptions {
  /** Key space of the operation, e.g. `partner.orders` (may depend on the request, e.g. its mode). */
  scope: string | ((request: FastifyRequest) => string);
  /** Whose keys these are (the account); runs after authentication. */
  principal: (request: FastifyRequest) => string;
  /** What must be equal for a repeat to be the same request; default the parsed body. */
  fingerprint?: (request: FastifyRequest) => unknown;
  /** Keys not matching are 400 VALIDATION_ERROR `keyMessage` (the schema already bounds length). */
  keyPattern?: RegExp;
  keyMessage?: string;
  /**
   * The response of an attempt that bound `bound` and then died (see above). Only routes with
   * `recover` take over claims older than the lease; the others keep them for the 24 h window.
   * `null`: what was bound is void (nothing was charged), run the handler again.
   */
  recover?: (request: FastifyRequest, bound: BoundResult) => Promise<IdempotentResponse | null>;
}

/** Set on a request holding a claim. */
export interface RequestIdempotency {
  /** The claim held, for an operation that binds it in its own statement (claimSteps). */
  claim: IdempotencyClaim;
}

interface HeldClaim extends RequestIdempotency {
  settled: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    idempotency?: IdempotencyRouteOptions;
  }
  interface FastifyRequest {
    idempotency: RequestIdempotency | null;
  }
}

/** The surface's error body for a domain error, so business failures are stored like successes. */
function errorResponse(surface: Surface, request: FastifyRequest, err: AppError): IdempotentResponse {
  const body = surface === 'mobile' ? mobileBody(err, request) : partnerBody(err, request);
  return { statusCode: statusFor(err.code, surface), body };
}

function parsePayload(payload: unknown): { ok: true; body: unknown } | { ok: false } {
  const text =
    typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : null;
  if (text === null) return { ok: false };
  try {
    return { ok: true, body: text === '' ? null : JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** Should this response be kept for replays? Everything but an unexpected server failure. */
const isOutcome = (statusCode: number) => statusCode < 500 || statusCode === 502;

/**
 * Adds the Idempotency-Key capability to every route of `app` (one surface) that sets
 * `config.idempotency`. Register before the routes. Its hooks run after the surface's
 * authentication and rate limits and after schema validation, so a refused request never
 * reaches the key store.
 */
export function installIdempotency(
  app: FastifyInstance,
  surface: Surface,
  options: { store?: IdempotencyStore; waitMs?: number } = {},
): void {
  let store = options.store;
  const storeOf = (request: FastifyRequest) =>
    (store ??= createIdempotencyStore({
      db: request.server.container.db,
      clock: request.server.container.clock,
    }));
  if (!app.hasRequestDecorator('idempotency')) app.decorateRequest('idempotency', null);

  app.addHook('onRoute', (route) => {
    const config = route.config?.idempotency;
    if (!config) return;

    const preHandler = async (request: FastifyRequest, reply: FastifyReply) => {
      const key = request.headers['idempotency-key'];
      if (key === undefined) return;
      if (typeof key !== 'string' || (config.keyPattern && !config.keyPattern.test(key)))
        throw new AppError('VALIDATION_ERROR', config.keyMessage ?? 'Invalid Idempotency-Key');
      const keys = storeOf(request);
      const ref = {
        accountId: config.principal(request),
        scope: typeof config.scope === 'string' ? config.scope : config.scope(request),
        key,
      };
      const acquired = await keys.acquire(
        ref,
        config.fingerprint ? config.fingerprint(request) : request.body,
        {
          waitMs: options.waitMs,
          // Only a route that binds and recovers its result may take over a dead attempt's claim.
          takeOver: config.recover !== undefined,
        },
      );
      if (acquired.kind === 'replay') {
        if (acquired.response.statusCode >= 400) noteErrorCode(request, acquired.response.body);
        return reply.code(acquired.response.statusCode).send(acquired.response.body);
      }
      let recovered: StoredResponse | null = null;
      if (acquired.kind === 'recover' && config.recover) {
        try {
          recovered = await config.recover(request, acquired.bound);
        } catch (err) {
          if (!isAppError(err)) {
            await keys.release(acquired.claim);
            throw err;
          }
          recovered = errorResponse(surface, request, err);
        }
      }
      if (recovered) {
        if (isOutcome(recovered.statusCode)) await keys.complete(acquired.claim, recovered);
        else await keys.release(acquired.claim);
        if (recovered.statusCode >= 400) noteErrorCode(request, recovered.body);
        return reply.code(recovered.statusCode).send(recovered.body);
      }
      const held: HeldClaim = { claim: acquired.claim, settled: false };
      request.idempotency = held;
    };

    const onSend = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      const held = request.idempotency as HeldClaim | null;
      if (!held || held.settled) return payload;
      held.settled = true;
      const keys = storeOf(request);
      const parsed = parsePayload(payload);
      try {
        if (!isOutcome(reply.statusCode) || !parsed.ok) await keys.release(held.claim);
        else await keys.complete(held.claim, { statusCode: reply.statusCode, body: parsed.body });
      } catch (err) {
        // The answer is already decided (often a 503 because the database is gone): send it as
        // it is. The claim stays in progress; a retry takes it over after the lease or waits.
        request.log.warn({ err }, 'idempotency key could not be settled');
      }
      return payload;
    };

    route.preHandler = [...toArray(route.preHandler), preHandler];
    route.onSend = [...toArray(route.onSend), onSend];
  });
}

function toArray<T>(value: T | T[] | undefined): T[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/**
 * The same store as a plain function, for callers outside a route (and the store's HTTP-free
 * tests): runs `execute` at most once per (account, scope, key) and replays its response.
 * `execute` should turn domain errors into responses itself (see `appErrorResponse`); anything it
 * throws releases the key and propagates.
 */
export async function withIdempotency(
  deps: { db: Db; clock: Clock; waitMs?: number },
  request: { accountId: string; scope: string; key: string; body: unknown },
  execute: () => Promise<IdempotentResponse>,
): Promise<IdempotentResponse> {
  const store = createIdempotencyStore(deps);
  const { body, ...ref } = request;
  const acquired = await store.acquire(ref, body, { waitMs: deps.waitMs, takeOver: false });
  if (acquired.kind === 'replay') return acquired.response;
  let response: IdempotentResponse;
  try {
    response = await execute();
  } catch (err) {
    await store.release(acquired.claim);
    throw err;
  }
  if (isOutcome(response.statusCode)) await store.complete(acquired.claim, response);
  else await store.release(acquired.claim);
  return response;
}

export type IdempotencyRequest = Parameters<typeof withIdempotency>[1];

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
    return errorResponse(surface, request, err);
  }
}
