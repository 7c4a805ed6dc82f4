import type { ServerOptions } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config/index.js';
import { AppError } from '../../domain/errors.js';

/**
 * How request bodies and slow clients are received (issue 28, H1, H3, H15; docs/security.md).
 * Every body is read as sent: nothing inflates it, so a 20-byte brotli "bomb" costs nothing.
 */

/** Every JSON body but the avatar upload's. */
export const JSON_BODY_LIMIT_BYTES = 64 * 1024;
/** POST /api/v1/user/avatar: a data URI of up to 1,500,000 decoded bytes (see account.routes.ts). */
export const AVATAR_BODY_LIMIT_BYTES = 2 * 1024 * 1024;
/**
 * Payment provider webhooks: raw bytes, only parsed once their signature holds. Larger than a
 * client's JSON body, because a provider's event that does not fit is a payment never credited.
 */
export const PROVIDER_WEBHOOK_BODY_LIMIT_BYTES = 256 * 1024;
/** The headers of a request must arrive within this (or the request timeout, if shorter). */
const HEADERS_TIMEOUT_MS = 10_000;

/** Fastify constructor options of this module; spread into `Fastify({...})`. */
export function transportServerOptions(config: Readonly<Config>): {
  bodyLimit: number;
  requestTimeout: number;
  http: ServerOptions;
} {
  const requestTimeout = config.http.requestTimeoutMs;
  return {
    bodyLimit: JSON_BODY_LIMIT_BYTES,
    // A request (headers and body) not received in full by then is answered 408 and closed, so a
    // body trickled a byte at a time cannot hold a connection (and its parser) for ever.
    requestTimeout,
    http: {
      requestTimeout,
      headersTimeout: Math.min(HEADERS_TIMEOUT_MS, requestTimeout),
      // Node checks the two timeouts on this interval (default 30 s, which could double them).
      connectionsCheckingInterval: Math.min(1000, Math.max(100, Math.floor(requestTimeout / 4))),
    },
  };
}

/** `Content-Encoding` of a request with a body, when it is anything but identity. */
function contentEncodingOf(headers: Record<string, string | string[] | undefined>): string | undefined {
  const value = headers['content-encoding'];
  if (value === undefined) return undefined;
  const hasBody = headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;
  if (!hasBody) return undefined;
  const codings = String(value)
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  return codings.length > 0 ? codings.join(', ') : undefined;
}

/**
 * Root rules for request bodies; register before the surfaces. A compressed body is refused
 * before a byte of it is read (415, the surface's shape). Fastify's built-in text/plain parser is
 * removed, so a JSON route answers any other type with 415 instead of validating a string; the
 * routes that take other types register their parsers in their own context (sandbox forms,
 * provider webhooks).
 */
export function installBodyRules(app: FastifyInstance): void {
  app.removeContentTypeParser('text/plain');
  app.addHook('onRequest', (request, _reply, done) => {
    if (contentEncodingOf(request.headers) === undefined) return done();
    done(
      new AppError(
        'UNSUPPORTED_MEDIA_TYPE',
        'Compressed request bodies are not accepted: send the body with Content-Encoding identity',
      ),
    );
  });
}

/** The 413 message, naming the limit of the route that refused the body. */
export function bodyTooLargeMessage(limit: number | undefined): string {
  const size = limit ?? JSON_BODY_LIMIT_BYTES;
  const readable = size >= 1024 * 1024 ? `${size / (1024 * 1024)} MB` : `${size / 1024} KB`;
  return `Request body is larger than ${readable}`;
}
