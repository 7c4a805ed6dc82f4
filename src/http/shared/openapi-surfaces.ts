/**
 * The three documented surfaces and how each authenticates, for the OpenAPI documents. Each
 * surface plugin adds `documentSecurity(surface)` as an onRoute hook, so the security requirement
 * of an operation comes from the same place as the route's authentication: the surface, and on
 * the Mobile/Web surface the route's `config.auth` (the option its onRequest hook reads).
 */

import type { RouteOptions } from 'fastify';

export type Surface = 'mobile' | 'partner' | 'admin';

export type Json = Record<string, unknown>;
export type Responses = Record<string, Json>;

export const SURFACE_PREFIX: Record<Surface, string> = {
  mobile: '/api/v1/',
  partner: '/api/public/v1/',
  admin: '/api/admin/v1/',
};

export function surfaceOf(url: string): Surface | undefined {
  return (Object.keys(SURFACE_PREFIX) as Surface[]).find((s) => url.startsWith(SURFACE_PREFIX[s]));
}

// ---------------------------------------------------------------------------------------------
// Security

/** Every security scheme of the service; each document keeps only its own surface's. */
export const SECURITY_SCHEMES = {
  mobile: {
    sessionToken: {
      type: 'http',
      scheme: 'bearer',
      description: 'Session token from POST /auth/register or /auth/login (native apps).',
    },
    sessionCookie: {
      type: 'apiKey',
      in: 'cookie',
      name: 'svc_session',
      description:
        'The session cookie set by register/login (web app). State-changing requests must come from the same origin.',
    },
  },
  partner: {
    apiKey: {
      type: 'http',
      scheme: 'bearer',
      description: 'Partner API key (`svc_live_sk_…` or `svc_test_sk_…`) as `Authorization: Bearer <key>`.',
    },
    apiKeyHeader: {
      type: 'apiKey',
      in: 'header',
      name: 'X-API-Key',
      description: 'The same Partner API key in the X-API-Key header.',
    },
  },
  admin: {
    adminToken: {
      type: 'http',
      scheme: 'bearer',
      description: 'The operator token (ADMIN_TOKEN) as `Authorization: Bearer <token>`, for automation.',
    },
    operatorSession: {
      type: 'apiKey',
      in: 'cookie',
      name: 'svc_operator',
      description:
        "A named operator's console session (POST /operator/session). State-changing requests must come from the same origin.",
    },
  },
} as const;

export const allSecuritySchemes = {
  ...SECURITY_SCHEMES.mobile,
  ...SECURITY_SCHEMES.partner,
  ...SECURITY_SCHEMES.admin,
};

type Requirement = Array<Record<string, string[]>>;

/** The OpenAPI `security` of a route of `surface`, from the way that surface authenticates it. */
export function securityRequirement(surface: Surface, auth: unknown): Requirement {
  const schemes = Object.keys(SECURITY_SCHEMES[surface]).map((name) => ({ [name]: [] as string[] }));
  if (surface === 'admin' && auth === 'none') return []; // console sign-in and enrolment
  if (surface !== 'mobile') return schemes; // every other Partner and operator route needs its credential
  if (auth === 'none') return []; // public: catalog pages, QR images, provider webhooks, login…
  if (auth === 'optional') return [...schemes, {}];
  return schemes;
}

/**
 * An onRoute hook for a surface plugin: sets `schema.security` of each documented route it
 * registers (documentation only; Fastify's validation ignores the key). The route's schema object
 * is copied, not changed, since route files may share one between routes.
 */
export function documentSecurity(surface: Surface): (route: RouteOptions) => void {
  return (route) => {
    if (!route.schema || route.schema.hide) return;
    const auth =
      surface === 'admin' && route.config?.operatorPermission === 'public' ? 'none' : route.config?.auth;
    route.schema = { ...route.schema, security: securityRequirement(surface, auth) };
  };
}
