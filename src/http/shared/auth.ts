import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config/index.js';
import { AppError } from '../../domain/errors.js';
import { safeEqual } from '../../lib/crypto.js';

export const SESSION_COOKIE = 'svc_session';

export function parseBearer(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m?.[1];
}

/**
 * The operator token check, as an onRequest hook of the routes it guards (the operator surface and
 * its OpenAPI document): access follows the route the router matched, never a spelling of the URL.
 */
export function requireAdminToken(adminToken: string) {
  return async (request: FastifyRequest): Promise<void> => {
    const token = parseBearer(request.headers.authorization);
    if (!token || !safeEqual(token, adminToken))
      throw new AppError('UNAUTHORIZED', 'Missing or invalid admin token');
  };
}

/** The Partner API key of a request: `X-API-Key` (trimmed), else `Authorization: Bearer`. */
export function partnerKeyOf(headers: IncomingHttpHeaders): string | undefined {
  const headerKey = headers['x-api-key'];
  return (typeof headerKey === 'string' ? headerKey.trim() : undefined) || parseBearer(headers.authorization);
}

export function setSessionCookie(reply: FastifyReply, config: Config, token: string, expiresAt: Date): void {
  reply.setCookie(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: config.publicBaseUrl.startsWith('https:'),
    path: '/',
    expires: expiresAt,
  });
}

export function clearSessionCookie(reply: FastifyReply, config: Config): void {
  reply.clearCookie(SESSION_COOKIE, {
    httpOnly: true,
    sameSite: 'lax',
    secure: config.publicBaseUrl.startsWith('https:'),
    path: '/',
  });
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF defence for cookie-authenticated requests: a state-changing request must come from a page
 * of our own origin (Origin header, or Referer when a browser omits Origin), one of
 * `config.http.trustedOrigins`. Bearer requests cannot be forged by a third-party page, so they
 * skip this.
 */
export function isSameOriginRequest(
  method: string,
  headers: Record<string, string | string[] | undefined>,
  trustedOrigins: readonly string[],
): boolean {
  if (SAFE_METHODS.has(method)) return true;
  const origin = headers.origin;
  if (typeof origin === 'string' && origin !== 'null') return trustedOrigins.includes(origin);
  const referer = headers.referer;
  if (typeof referer === 'string') {
    try {
      return trustedOrigins.includes(new URL(referer).origin);
    } catch {
      return false;
    }
  }
  return false;
}
