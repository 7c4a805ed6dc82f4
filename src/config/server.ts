/** The HTTP server: where it listens, who it trusts, operator tokens, shutdown. */

import { ConfigError, int, oneOf, optional, secret, str, url, type Env } from './parse.js';

export interface ServerConfig {
  port: number;
  host: string;
  publicBaseUrl: string;
  /** The built web app (vite build output); not served when the directory has no index.html. */
  webDistDir: string;
  adminToken: string | undefined;
  logLevel: string;
  /** Custom URL schemes (lower case, no `:`) accepted as payment redirect targets besides https. */
  appUrlSchemes: readonly string[];
  /** Fastify `trustProxy`: false, true, a hop count, or a list of addresses/CIDRs. */
  trustProxy: boolean | number | string[];
  /** Seconds SIGTERM waits for requests in flight and running jobs before closing anyway. */
  shutdownGraceSeconds: number;
  /** Bearer token of GET /metrics; the route answers 404 without it. */
  metricsToken: string | undefined;
  /** Issue 28 (H3, H11): request transport and the origins cookie-authenticated writes may come from. */
  http: {
    /** REQUEST_TIMEOUT_SECONDS, in ms: a request (headers and body) must arrive within it; then 408. */
    requestTimeoutMs: number;
    /** Origins of the web app: PUBLIC_BASE_URL's, or while it is unset every loopback spelling of PORT. */
    trustedOrigins: readonly string[];
  };
}

export function serverConfig(env: Env): ServerConfig {
  const port = int(env, 'PORT', 3000, 0, 65535);
  const publicBaseUrl = url(env, 'PUBLIC_BASE_URL', `http://localhost:${port}`, ['http:', 'https:'])!.replace(
    /\/+$/,
    '',
  );
  return {
    port,
    host: str(env, 'HOST', '127.0.0.1'),
    publicBaseUrl,
    webDistDir: str(env, 'WEB_DIST_DIR', './web/dist'),
    adminToken: secret(env, 'ADMIN_TOKEN', 16),
    metricsToken: secret(env, 'METRICS_TOKEN', 16),
    logLevel: oneOf(
      env,
      'LOG_LEVEL',
      ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const,
      'info',
    ),
    appUrlSchemes: Object.freeze(appUrlSchemes(env)),
    trustProxy: trustProxy(env),
    shutdownGraceSeconds: int(env, 'SHUTDOWN_GRACE_SECONDS', 10, 0, 3600),
    http: {
      requestTimeoutMs: int(env, 'REQUEST_TIMEOUT_SECONDS', 30, 1, 3600) * 1000,
      // Unset, the service runs on a developer's machine: whichever of localhost, 127.0.0.1 or
      // [::1] they open (the log prints 127.0.0.1) is the web app's origin (H11).
      trustedOrigins: Object.freeze(
        optional(env, 'PUBLIC_BASE_URL')
          ? [new URL(publicBaseUrl).origin]
          : ['localhost', '127.0.0.1', '[::1]'].map((host) => `http://${host}:${port}`),
      ),
    },
  };
}

function appUrlSchemes(env: Env): string[] {
  const raw = optional(env, 'APP_URL_SCHEMES');
  if (!raw) return [];
  const schemes = raw
    .split(',')
    .map((s) =>
      s
        .trim()
        .toLowerCase()
        .replace(/:(\/\/)?$/, ''),
    )
    .filter(Boolean);
  // Schemes a browser or OS handles itself: a redirect to them is no app, and some run code.
  const forbidden = new Set([
    'http',
    'https',
    'javascript',
    'data',
    'file',
    'intent',
    'vbscript',
    'blob',
    'about',
  ]);
  for (const scheme of schemes) {
    if (!/^[a-z][a-z0-9+.-]{1,31}$/.test(scheme) || forbidden.has(scheme)) {
      throw new ConfigError(`APP_URL_SCHEMES must list custom app schemes such as myapp, got "${scheme}"`);
    }
  }
  return schemes;
}

/** TRUST_PROXY; exported because the webhook allow-list depends on it (webhooks.ts). */
export function trustProxy(env: Env): boolean | number | string[] {
  const raw = optional(env, 'TRUST_PROXY')?.trim();
  if (raw === undefined || ['false', '0', 'no', 'off'].includes(raw.toLowerCase())) return false;
  if (['true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops > 10) throw new ConfigError(`TRUST_PROXY hop count must be between 0 and 10, got ${hops}`);
    return hops;
  }
  const entries = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const ipv4 = /^(\d{1,3})(\.\d{1,3}){3}(\/\d{1,2})?$/;
  const ipv6 = /^[0-9a-f:]+(\/\d{1,3})?$/i;
  const named = new Set(['loopback', 'linklocal', 'uniquelocal']);
  for (const entry of entries) {
    if (!ipv4.test(entry) && !(entry.includes(':') && ipv6.test(entry)) && !named.has(entry)) {
      throw new ConfigError(
        `TRUST_PROXY must be true, false, a hop count or a comma-separated list of addresses/CIDRs, got "${entry}"`,
      );
    }
  }
  return entries;
}
