/**
 * Response headers of the OpenAPI documents: X-Request-Id everywhere, rate-limit headers and
 * Retry-After where a limit applies, x-livemode on the Partner API, ETag where a 304 can answer,
 * Link on cursor-paged lists. Used by `finishDocument` (./openapi-contract.ts).
 */

import type { Json, Responses, Surface } from './openapi-surfaces.js';

export const HEADERS: Record<string, Json> = {
  RequestId: {
    description:
      'Identifies the request in the service’s logs (the caller’s X-Request-Id when it was a safe token, otherwise a new UUID). Quote it to support.',
    schema: { type: 'string' },
    example: '6f1c2a9e-0b7d-4c1e-9a55-2d3f4e5a6b7c',
  },
  RateLimitLimit: {
    description: 'Requests allowed in the current one-minute window of the budget this request spent.',
    schema: { type: 'integer' },
    example: 120,
  },
  RateLimitRemaining: {
    description: 'Requests left in the current window.',
    schema: { type: 'integer' },
    example: 117,
  },
  RateLimitReset: {
    description: 'Seconds until the current window ends.',
    schema: { type: 'integer' },
    example: 42,
  },
  RetryAfter: {
    description: 'Seconds to wait before trying again.',
    schema: { type: 'integer' },
    example: 42,
  },
  Livemode: {
    description:
      '`true` when the request was made with a live key, `false` with a test key (svc_test_sk_…); absent when the request carried no recognisable key.',
    schema: { type: 'string', enum: ['true', 'false'] },
    example: 'true',
  },
  Link: {
    description:
      'Cursor pagination (lists with `limit` and `cursor`): `<URL>; rel="next"`, the same root-relative URL with the next page\'s `cursor`. Absent on the last page.',
    schema: { type: 'string' },
    example:
      '</api/v1/user/orders?limit=25&cursor=WzE3OTU0MDk0NTIzNDUsIm9yZF84SGMzIl0.q3TzV8m1Xy0aBcD4eF5gH6>; rel="next"',
  },
  ETag: {
    description: 'Version of the catalog response; send it back as If-None-Match to get 304.',
    schema: { type: 'string' },
    example: 'W/"42-1f3a9c0d"',
  },
  WwwAuthenticate: {
    description: 'The scheme that would work (RFC 9110 §15.5.2): an API key as a Bearer token.',
    schema: { type: 'string', enum: ['Bearer realm="partner"'] },
    example: 'Bearer realm="partner"',
  },
};

const ERROR_CONTENT = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };

/**
 * Answers any route can give besides its own (issue 28 H14): 413 and 415 where a body is read
 * (the body limit and the JSON-only, uncompressed rule, src/http/app.ts) and 503 everywhere (the
 * database or Redis unreachable, or the password-hashing queue full: retry after Retry-After).
 */
export function addCommonResponses(operation: Json): void {
  const responses = (operation.responses ?? {}) as Responses;
  const add = (status: string, description: string) => {
    responses[status] ??= { description, content: ERROR_CONTENT };
  };
  if (operation.requestBody) {
    add(
      '413',
      'The request body is larger than the route accepts (64 KB for JSON unless the route says otherwise).',
    );
    add(
      '415',
      'The body is not JSON (Content-Type) or is compressed (Content-Encoding other than identity).',
    );
  }
  add('503', 'Temporarily unavailable; retry after Retry-After seconds.');
  operation.responses = responses;
}

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

export function addResponseHeaders(surface: Surface, operation: Json): void {
  const responses = (operation.responses ?? {}) as Responses;
  const limited = surface === 'partner' || '429' in responses;
  const hasNotModified = '304' in responses;
  // Every list with a `cursor` parameter names its next page in Link (src/http/shared/pagination.ts).
  const paged = ((operation.parameters ?? []) as Json[]).some((p) => p.in === 'query' && p.name === 'cursor');
  for (const [status, response] of Object.entries(responses)) {
    const headers = { ...((response.headers as Json | undefined) ?? {}) };
    headers['X-Request-Id'] = headerRef('RequestId');
    // The Partner key check runs before the rate limit: a 401 spends no budget and has no headers.
    // Elsewhere a 401 can follow the limiter (a wrong password at login) and carries them.
    if (limited && !(surface === 'partner' && status === '401')) {
      headers['X-RateLimit-Limit'] = headerRef('RateLimitLimit');
      headers['X-RateLimit-Remaining'] = headerRef('RateLimitRemaining');
      headers['X-RateLimit-Reset'] = headerRef('RateLimitReset');
    }
    if (status === '429' || status === '503') headers['Retry-After'] = headerRef('RetryAfter');
    // x-livemode goes on every answer whose key names a mode, a 401 for an unknown key included.
    if (surface === 'partner') headers['x-livemode'] = headerRef('Livemode');
    if (surface === 'partner' && status === '401') headers['WWW-Authenticate'] = headerRef('WwwAuthenticate');
    if (hasNotModified && (status === '200' || status === '304')) headers.ETag = headerRef('ETag');
    if (paged && status === '200') headers.Link = headerRef('Link');
    response.headers = headers;
  }
  if (hasNotModified) {
    const parameters = (operation.parameters ?? []) as Json[];
    if (!parameters.some((p) => String(p.name).toLowerCase() === 'if-none-match')) {
      parameters.push({
        in: 'header',
        name: 'If-None-Match',
        required: false,
        description: 'The ETag of a previous answer: 304 with no body while it is still current.',
        schema: { type: 'string' },
      });
      operation.parameters = parameters;
    }
  }
}
