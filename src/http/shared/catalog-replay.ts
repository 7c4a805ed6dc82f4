import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { modeOfKey } from '../../domain/accounts/api-keys.js';
import { partnerKeyOf } from './auth.js';
import type { SpentHeaders } from './rate-limit.js';

/**
 * Catalogue reads answered before routing (docs/performance.md, "Catalog replay").
 *
 * A cached catalogue response (./catalog-cache.ts) is a function of the URL, a few request headers
 * and the catalog version. Once the full Fastify path has answered a request with one, the exact
 * status, headers and bytes it sent are recorded here under those inputs; the next request with
 * the same inputs, while the catalog version is unchanged, gets the recording straight from the
 * HTTP server's request listener, with its own request id. That skips routing, schema work and the
 * hooks whose outcome is already known for these inputs (URL checks, CSRF, cookie parsing), which
 * was most of the cost of a small cached read.
 *
 * Anything the recording cannot stand for goes the full path: another method, a conditional
 * request (If-None-Match), a Mobile request with a session (Authorization or Cookie), a Partner key
 * not checked within the last second, a budget already spent, a new catalog version, a closing
 * server, or a log level that writes a line per request (info and below: every request then goes
 * through Fastify, so every request keeps its access log lines).
 *
 * What still happens per replayed request: the request id (echoed or new), and for the Partner API
 * the key check (from the same ≤ 1 s cache as the full path) and the read budget (the same
 * counters, Redis when set), with their X-RateLimit-* headers, and the request metric.
 */

/** Headers that differ between two requests with the same inputs: never recorded. */
const PER_REQUEST_HEADERS = new Set([
  'x-request-id',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
]);

const MOBILE_PREFIX = '/api/v1/';
const PARTNER_PREFIX = '/api/public/v1/';

/** Recordings kept at most (variants come from user input: URLs and Accept-Language). */
export const MAX_REPLAYS = 1000;
/**
 * Largest body recorded. A recording may outlive the cache entry whose bytes it shares, so this
 * bounds what recordings can hold on their own (MAX_REPLAYS × this); the full lists, where bytes
 * dominate the cost anyway, go the full path.
 */
export const MAX_REPLAY_BYTES = 16 * 1024;

interface Recording {
  /** Route pattern, for the request metric. */
  route: string;
  /**
   * Name, value, name, value…: node's writeHead takes this flat form as is, and copying an array
   * per request costs a fraction of copying an object with these keys (hyphenated names make V8
   * build such an object key by key).
   */
  headers: string[];
  body: Buffer;
}

/** What the Partner API checks and spends per request; provided by the Partner surface. */
export interface PartnerGate {
  /** The account id of a key checked less than a second ago, without a database read; else undefined. */
  checkedAccount(apiKey: string): string | undefined;
  /**
   * Spends one request of the account's read budget (same counters as the full path). Returns the
   * X-RateLimit-* headers, or null when the budget is exceeded (the full path then answers 429);
   * synchronously on in-process counters, a promise on Redis.
   */
  spendRead(accountId: string, livemode: boolean): SpentHeaders | Promise<SpentHeaders>;
}

export interface CatalogReplayOptions {
  /** The catalog version this instance serves now (a number once known: no database read). */
  version: () => number | Promise<number>;
  /** The request id of a raw request: the same rule as the app's genReqId. */
  requestId: (req: IncomingMessage) => string;
  /** The request metric (src/http/metrics.ts); absent when metrics are off. */
  observe?: (method: string, route: string, statusCode: number, seconds: number) => void;
  /** False when the log level writes per-request lines: nothing is replayed then. */
  enabled: boolean;
}

/** Who is asking, as far as a catalogue response depends on it; null when not replayable. */
function identityOf(req: IncomingMessage): { mode: string; apiKey?: string } | null {
  const url = req.url ?? '';
  const headers = req.headers;
  if (headers['if-none-match'] !== undefined) return null;
  if (url.startsWith(PARTNER_PREFIX)) {
    const apiKey = partnerKeyOf(headers);
    const mode = apiKey ? modeOfKey(apiKey) : null;
    return apiKey && mode ? { mode, apiKey } : null;
  }
  if (url.startsWith(MOBILE_PREFIX)) {
    // A session may change locale and currency: only anonymous reads are replayed.
    if (headers.authorization !== undefined || headers.cookie !== undefined) return null;
    return { mode: 'anonymous' };
  }
  return null;
}

/** Every input a cached catalogue response depends on, besides the catalog version. */
function inputsOf(req: IncomingMessage, mode: string): string {
  const headers = req.headers;
  return `${mode}\n${req.url}\n${headers['accept-language'] ?? ''}\n${headers['accept-encoding'] ?? ''}`;
}

export function createCatalogReplay(options: CatalogReplayOptions) {
  const recordings = new Map<string, Recording>();
  /** Responses a route offered for recording, until the request's onResponse. */
  const offered = new WeakMap<FastifyRequest, { body: Buffer; version: number }>();
  /** The catalog version of every recording: a newer one drops them all. */
  let recordedVersion = -1;
  let partnerGate: PartnerGate | undefined;
  let closing = false;
  let replayed = 0;

  function write(
    req: IncomingMessage,
    res: ServerResponse,
    recording: Recording,
    started: number,
    extra?: Record<string, string>,
  ): void {
    const headers = recording.headers.slice();
    for (const name in extra) headers.push(name, extra[name]!);
    headers.push('x-request-id', options.requestId(req));
    res.writeHead(200, headers);
    res.end(recording.body);
    replayed += 1;
    options.observe?.('GET', recording.route, 200, (performance.now() - started) / 1000);
  }

  return {
    /** Responses answered from a recording since start. */
    get replayed(): number {
      return replayed;
    },

    /** Partner reads are replayed only once the Partner surface has provided its checks. */
    usePartnerGate(gate: PartnerGate): void {
      partnerGate = gate;
    },

    /** From the app's preClose: requests arriving while the server drains get Fastify's 503. */
    close(): void {
      closing = true;
    },

    /**
     * Called by the catalog cache with the bytes it is about to send as the whole 200 body of this
     * request, computed at catalog `version`; recorded when the response completes (onResponse),
     * so the recording holds the headers every hook set.
     */
    offer(request: FastifyRequest, body: Buffer, version: number): void {
      if (options.enabled && !closing && request.method === 'GET' && body.length <= MAX_REPLAY_BYTES) {
        offered.set(request, { body, version });
      }
    },

    /** Route onResponse hook of the catalogue routes. */
    record(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
      const offer = offered.get(request);
      const identity = offer && reply.statusCode === 200 ? identityOf(request.raw) : null;
      if (offer && identity && offer.version === options.version()) {
        const headers: string[] = [];
        for (const [name, value] of Object.entries(reply.getHeaders())) {
          if (PER_REQUEST_HEADERS.has(name) || value === undefined) continue;
          for (const one of Array.isArray(value) ? value : [value]) headers.push(name, String(one));
        }
        const inputs = inputsOf(request.raw, identity.mode);
        if (offer.version !== recordedVersion) {
          recordings.clear();
          recordedVersion = offer.version;
        }
        recordings.delete(inputs);
        if (recordings.size >= MAX_REPLAYS) recordings.delete(recordings.keys().next().value!);
        recordings.set(inputs, {
          route: request.routeOptions.url ?? 'unmatched',
          headers,
          body: offer.body,
        });
      }
      done();
    },

    /**
     * The HTTP server's request listener calls this first. True when the request is (being)
     * answered from a recording; false when it must go to Fastify untouched.
     */
    serve(req: IncomingMessage, res: ServerResponse, fullPath: () => void): boolean {
      if (closing || recordings.size === 0 || req.method !== 'GET') return false;
      const identity = identityOf(req);
      if (!identity) return false;
      const recording = recordings.get(inputsOf(req, identity.mode));
      if (!recording || recordedVersion !== options.version()) return false;
      const started = performance.now();
      if (identity.apiKey === undefined) {
        write(req, res, recording, started);
        return true;
      }
      const accountId = partnerGate?.checkedAccount(identity.apiKey);
      if (!partnerGate || accountId === undefined) return false;
      const limits = partnerGate.spendRead(accountId, identity.mode === 'live');
      if (!(limits instanceof Promise)) {
        // Exceeded: the full path spends the budget again and answers 429 the same way.
        if (limits === null) return false;
        write(req, res, recording, started, limits);
        return true;
      }
      limits.then(
        (spent) => (spent && !closing ? write(req, res, recording, started, spent) : fullPath()),
        () => fullPath(),
      );
      return true;
    },
  };
}

export type CatalogReplay = ReturnType<typeof createCatalogReplay>;
