import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { AppError } from '../../domain/errors.js';
import type { OperatorIdentity } from '../../domain/operators/operator-sessions.js';
import { describePermission, operatorCan } from '../../domain/operators/roles.js';
import { runAs } from '../../lib/actor-context.js';
import { safeEqual } from '../../lib/crypto.js';
import { isSameOriginRequest, parseBearer } from '../shared/auth.js';
import { installErrorHandling } from '../shared/errors.js';
import { installIdempotency } from '../shared/idempotency.js';
import { documentSecurity } from '../shared/openapi-surfaces.js';
import { adminErrors } from '../shared/schemas.js';
import { OPERATOR_COOKIE, TOKEN_OPERATOR } from './operator-auth.js';
import { registerAdminRoutes } from './routes.js';

/**
 * Operator API, `/api/admin/v1` (decisions §6, issue 33). Two credentials: `ADMIN_TOKEN` as a
 * bearer token (automation; every permission; audited as `token`), or a named operator's console
 * session cookie (their role's permissions; audited as `operator:<id>`). Every route names the
 * permission it needs in `config.operatorPermission` (start-up fails otherwise): `public` for
 * sign-in and enrolment, `signed-in` for what any operator may do to their own session.
 */
export async function adminSurface(app: FastifyInstance): Promise<void> {
  const { config, operatorSessions } = app.container;
  const adminToken = config.adminToken;
  installErrorHandling(app, 'admin');
  installIdempotency(app, 'admin');
  app.addHook('onRoute', documentSecurity('admin'));
  app.addHook('onRoute', (route: RouteOptions) => {
    const permission = route.config?.operatorPermission;
    if (!permission)
      throw new Error(
        `${String(route.method)} ${route.url}: an operator route needs config.operatorPermission`,
      );
    if (!route.schema || permission === 'public' || permission === 'signed-in') return;
    // What the surface itself answers (a role that lacks the permission), and who may call it.
    const needs = `Permission: ${describePermission(permission)}; the admin token holds every permission.`;
    route.schema = {
      ...route.schema,
      description: route.schema.description ? `${route.schema.description}\n\n${needs}` : needs,
      response: { ...adminErrors(403), ...(route.schema.response as object) },
    };
  });

  async function identify(request: FastifyRequest): Promise<OperatorIdentity | null> {
    const bearer = parseBearer(request.headers.authorization);
    if (bearer !== undefined) {
      if (!adminToken || !safeEqual(bearer, adminToken))
        throw new AppError('UNAUTHORIZED', 'Missing or invalid admin token');
      return TOKEN_OPERATOR;
    }
    const cookie = request.cookies[OPERATOR_COOKIE];
    const identity = cookie ? await operatorSessions.resolve(cookie) : null;
    if (!identity) return null;
    if (!isSameOriginRequest(request.method, request.headers, config.http.trustedOrigins))
      throw new AppError('CSRF_REJECTED', 'Cookie-authenticated request from a foreign origin', {
        expectedOrigins: config.http.trustedOrigins,
      });
    return identity;
  }

  app.addHook('onRequest', async (request) => {
    if (request.is404) return;
    const operator = await identify(request);
    request.operator = operator;
    const permission = request.routeOptions.config.operatorPermission!;
    if (permission === 'public') return;
    if (!operator) throw new AppError('UNAUTHORIZED', 'Sign in to the console, or send the admin token');
    if (permission !== 'signed-in' && !operatorCan(operator.role, permission))
      throw new AppError('ROLE_FORBIDDEN', `The ${operator.role} role cannot do this (${permission})`);
  });

  // The handler runs as its operator: audit rows written anywhere below name them
  // (src/lib/actor-context.ts). A callback hook, so the handler is called inside `runAs`.
  app.addHook('preHandler', (request: FastifyRequest, _reply: FastifyReply, done: () => void) => {
    const operator = request.operator;
    if (!operator) return done();
    runAs(operator === TOKEN_OPERATOR ? 'token' : `operator:${operator.id}`, done);
  });

  await registerAdminRoutes(app);
}
