import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { Config } from '../../config/index.js';

/**
 * The pages a browser renders (issue 28, H10, H11): the web app's HTML and the API reference at
 * /docs each get a Content-Security-Policy and frame protection; the origins the web app is served
 * from are the configuration's (`config.http.trustedOrigins`).
 */

/**
 * 'self' and the other spellings of it that the app's own absolute URLs may use (avatars, QR
 * codes are PUBLIC_BASE_URL's: localhost while the page may be at 127.0.0.1). CSP has no syntax
 * for IPv6 literals, so [::1] is covered by 'self' only.
 */
function ownOrigins(config: Readonly<Config>): string {
  return ["'self'", ...config.http.trustedOrigins.filter((origin) => !origin.includes('['))].join(' ');
}

/**
 * The web app (web/dist): its own scripts, styles, images and API only, plus `data:` images (QR
 * codes, avatars before upload). No inline script or style: Vite emits none (web/index.html).
 */
export function webAppPolicy(config: Readonly<Config>): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src ${ownOrigins(config)} data:`,
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** A page's headers: its policy, and no framing for browsers that predate frame-ancestors. */
export function withPageHeaders(reply: FastifyReply, policy: string): FastifyReply {
  return reply.header('content-security-policy', policy).header('x-frame-options', 'DENY');
}

/** sha256 sources of the inline scripts of `html`, for a policy that allows exactly those. */
function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/gi)]
    .map((match) => match[1]!)
    .filter((body) => body.trim() !== '')
    .map((body) => `'sha256-${createHash('sha256').update(body).digest('base64')}'`);
}

/**
 * The API reference (Scalar) at /docs: its one inline script (the configuration call) by hash;
 * inline styles, which its components inject at run time; requests of "Test request" to the
 * service itself. Nothing is loaded from another site (Scalar's web fonts are switched off).
 */
export function docsPolicy(config: Readonly<Config>, html: string): string {
  return [
    "default-src 'self'",
    ["script-src 'self'", ...inlineScriptHashes(html)].join(' '),
    "style-src 'self' 'unsafe-inline'",
    `img-src ${ownOrigins(config)} data: blob:`,
    "font-src 'self' data:",
    `connect-src ${ownOrigins(config)}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * The start-up line: where the server listens, and the address to open in a browser (the web
 * app's origin; while PUBLIC_BASE_URL is unset, the loopback address printed works as well).
 */
export function listenText(config: Readonly<Config>): (address: string) => string {
  return (address) =>
    config.http.trustedOrigins.includes(new URL(address).origin)
      ? `Server listening at ${address}`
      : `Server listening at ${address}; open ${config.publicBaseUrl}`;
}
