import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type {
  ConnectionError,
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifyServerOptions,
} from 'fastify';
import { AppError, type ErrorCode } from '../../domain/errors.js';
import type { Surface } from './error-map.js';
import { sendError } from './errors.js';
import { messageFor, preferredLang } from './messages.js';

/**
 * Request hygiene shared by every surface (docs/security.md): control characters, URL and header
 * size limits, errors raised before routing, and the security headers of every response.
 */

/** Longest request target (path + query) served; longer → 414 URI_TOO_LONG. */
export const MAX_URL_LENGTH = 8192;
/** Node's limit on the request line plus headers; beyond it → 431 (or 414 if the URL alone is too long). */
export const MAX_HEADER_BYTES = 16 * 1024;

/** The surface a raw URL belongs to, for errors raised before a route (and its handler) is known. */
export function surfaceForUrl(url: string): Surface {
  if (url.startsWith('/api/v1/') || url === '/api/v1') return 'mobile';
  if (url.startsWith('/api/public/')) return 'partner';
  if (url.startsWith('/api/admin/')) return 'admin';
  return 'root';
}

/** The request each connection is receiving, for the surface of a 408 written to its socket. */
const receivingRequests = new WeakMap<Socket, IncomingMessage>();

/** C0 controls and DEL. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;
/** C0 controls and DEL except tab, line feed and carriage return (allowed in free text). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_EXCEPT_WHITESPACE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
/** A control character in a URL: raw, or percent-encoded (%00–%1F, %7F). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_IN_URL = /[\u0000-\u001f\u007f]|%(?:[01][0-9a-f]|7f)/i;

function controlCharacterError(field: string): AppError {
  return new AppError('VALIDATION_ERROR', `${field} must not contain control characters`, {
    field,
    issues: [{ field, message: 'must not contain control characters' }],
  });
}

/** The first string (or key) with a forbidden control character, as a dotted path; undefined if none. */
function findControl(
  value: unknown,
  freeText: ReadonlySet<string>,
  path: string,
  depth = 0,
): string | undefined {
  if (typeof value === 'string') {
    const top = path.split('.')[0] ?? '';
    return (freeText.has(top) ? CONTROL_EXCEPT_WHITESPACE : CONTROL).test(value) ? path || 'body' : undefined;
  }
  if (value === null || typeof value !== 'object' || depth > 32 || Buffer.isBuffer(value)) return undefined;
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    const itemPath = path ? `${path}.${key}` : key;
    if (CONTROL.test(key)) return itemPath;
    const found = findControl(item, freeText, itemPath, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** The error body of `code` for `surface`, for the raw socket (no request object exists yet). */
function rawErrorBody(surface: Surface, code: ErrorCode, message: string): string {
  if (surface === 'mobile')
    return JSON.stringify({ error: messageFor(code, preferredLang(undefined)), code });
  return JSON.stringify({ error: { code, message } });
}

/**
 * Malformed requests node rejects before Fastify sees them: headers over MAX_HEADER_BYTES → 431,
 * a request line that alone overflows → 414; anything else → 400. The body is in the surface's
 * shape (taken from the request line when it is readable) and never echoes the request.
 */
function clientErrorHandler(err: ConnectionError, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  // Typed as a JSON-serialised Buffer; at run time it is the Buffer node failed to parse.
  const packet = err.rawPacket as unknown;
  const raw = Buffer.isBuffer(packet) ? packet.toString('latin1') : '';
  // A request timed out while its body arrives: its URL names the surface (H3).
  const receiving = receivingRequests.get(socket);
  const target =
    /^[A-Z]+ (\S+)/.exec(raw)?.[1] ?? (receiving && !receiving.complete ? (receiving.url ?? '') : '');
  const surface = surfaceForUrl(target);
  let status = 400;
  let code: ErrorCode = 'VALIDATION_ERROR';
  let message = 'Malformed request';
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    // No line break at all: still inside the request line, so the URL is what is too long.
    const urlTooLong = !raw.includes('\r\n') || target.length > MAX_URL_LENGTH;
    status = urlTooLong ? 414 : 431;
    code = urlTooLong ? 'URI_TOO_LONG' : 'HEADERS_TOO_LARGE';
    message = urlTooLong ? 'Request URL is too long' : 'Request headers are too large';
  } else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    status = 408;
    message = 'Request timed out';
  }
  const body = rawErrorBody(surface, code, message);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${status === 414 ? 'URI Too Long' : status === 431 ? 'Request Header Fields Too Large' : status === 408 ? 'Request Timeout' : 'Bad Request'}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/** Router-level errors (malformed percent-encoding, over-long path parameters). */
function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const surface = surfaceForUrl(request.raw.url ?? '');
  const appError =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? new AppError('URI_TOO_LONG', 'A path segment is too long')
      : new AppError('VALIDATION_ERROR', 'The request URL is malformed');
  void sendError(reply, request, surface, appError);
}

/** Fastify constructor options of this module; spread into `Fastify({...})`. */
export function securityServerOptions(): Pick<
  FastifyServerOptions,
  'clientErrorHandler' | 'frameworkErrors'
> {
  return { clientErrorHandler, frameworkErrors };
}

/**
 * Routes whose responses carry a session token or an API key (or a reset token's verdict), and
 * guest threads, read with the token of a mailed link. Matched on the route the router chose, so
 * every spelling of its path that reaches it is covered (H4).
 */
const NO_STORE = /^\/api\/v1\/(?:auth\/|user\/api-key\/|support\/guest\/)/;

/**
 * Root hooks; register before the surfaces so they run for every route. One synchronous onRequest
 * hook does the per-request work that needs no I/O (it runs for every request, catalog reads at
 * tens of thousands a second included): the request id and security headers are set before the
 * route runs, so every answer carries them, errors and 404s included.
 */
export function installSecurityHooks(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    reply.header('x-content-type-options', 'nosniff');
    // Several URLs carry capabilities (reset links, avatar and QR tokens, sandbox payment pages):
    // never leak them to another site through Referer.
    reply.header('referrer-policy', 'no-referrer');
    const url = request.raw.url ?? '';
    receivingRequests.set(request.raw.socket, request.raw);
    // A route that sets its own cache-control replaces this default.
    if (NO_STORE.test(request.routeOptions.url ?? '')) reply.header('cache-control', 'no-store');
    if (url.length > MAX_URL_LENGTH) return done(new AppError('URI_TOO_LONG', 'Request URL is too long'));
    if (CONTROL_IN_URL.test(url)) {
      return done(
        controlCharacterError(
          url.includes('?') && CONTROL_IN_URL.test(url.slice(url.indexOf('?'))) ? 'query' : 'path',
        ),
      );
    }
    done();
  });

  app.addHook('preValidation', async (request) => {
    if (request.body === undefined || request.body === null) return;
    const freeText = new Set(request.routeOptions.config.freeText ?? []);
    const field = findControl(request.body, freeText, '');
    if (field) throw controlCharacterError(field);
  });
}

/** Hosted payment pages must not be framed (clickjacking the Pay button). */
export function forbidFraming(reply: FastifyReply): FastifyReply {
  return reply
    .header('x-frame-options', 'DENY')
    .header('content-security-policy', "frame-ancestors 'none'; base-uri 'none'")
    .header('cache-control', 'no-store');
}

type OpenApiDocument = {
  info?: Record<string, unknown>;
  paths?: Record<string, unknown>;
  [key: string]: unknown;
};

/**
 * The document /docs (Scalar) renders and serves as /docs/openapi.json and /docs/openapi.yaml:
 * every public route, without the operator API, whose contract is served only with the admin
 * token at /api/admin/v1/openapi.json.
 */
export function publicOpenApiDocument(app: FastifyInstance): OpenApiDocument {
  const full = app.swagger() as unknown as OpenApiDocument;
  const paths = Object.fromEntries(
    Object.entries(full.paths ?? {}).filter(([path]) => !path.startsWith('/api/admin/')),
  );
  return {
    ...full,
    info: { ...full.info, description: 'Mobile/Web API (/api/v1) and Partner API (/api/public/v1).' },
    paths,
  };
}
