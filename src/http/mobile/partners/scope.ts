import { Type, type TObject } from '@sinclair/typebox';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { AppError } from '../../../domain/errors.js';
import { mobileErrors } from '../../shared/schemas.js';

/** The path parameter every dashboard route of a partner has. */
export const PartnerIdParams = Type.Object({
  partnerId: Type.String({
    minLength: 1,
    maxLength: 64,
    description: 'The partner account (GET /api/v1/partners lists those you belong to)',
  }),
});

/** `?mode=test`: the request reads and changes the partner's test mode (test key, wallet, orders, events). */
export const ModeQuery = Type.Object({
  mode: Type.Optional(
    Type.Union([Type.Literal('live'), Type.Literal('test')], {
      description: 'live (default) or test: which mode of the partner this request reads or changes',
    }),
  ),
});

function merge(extra: TObject, schema: unknown): TObject {
  if (!schema) return extra;
  const own = schema as TObject;
  const options: Record<string, unknown> = {};
  if (own.additionalProperties !== undefined) options.additionalProperties = own.additionalProperties;
  if (own.description !== undefined) options.description = own.description;
  return Type.Object({ ...extra.properties, ...own.properties }, options);
}

/**
 * The dashboard's partner scope, `/api/v1/partners/{partnerId}/…` (issue 32 C4). Every route
 * registered inside must name `config.permission` (start-up fails otherwise, so no route can
 * forget its check); its documented parameters gain `partnerId` and `mode`. At each request the
 * session's account must be a member of the partner with a role that allows the permission:
 * NOT_FOUND for a stranger, 403 ROLE_FORBIDDEN for a role that lacks it.
 */
export async function partnerScope(app: FastifyInstance): Promise<void> {
  const { partners } = app.container;

  app.addHook('onRoute', (route: RouteOptions) => {
    if (!route.config?.permission)
      throw new Error(
        `${String(route.method)} ${route.url}: a partner dashboard route needs config.permission`,
      );
    if (!route.schema) return;
    route.schema = {
      ...route.schema,
      params: merge(PartnerIdParams, route.schema.params),
      querystring: merge(ModeQuery, route.schema.querystring),
      // What the scope itself answers: a bad mode (400), no session (401), a role that lacks the
      // permission (403 ROLE_FORBIDDEN), not a member (404).
      response: { ...mobileErrors(400, 401, 403, 404), ...(route.schema.response as object | undefined) },
    };
  });

  // preValidation, not onRequest: a body that is not JSON or too large is refused (415, 413) like
  // on every other route before the membership is looked up; the schema is checked after it.
  app.addHook('preValidation', async (request) => {
    if (request.is404) return;
    // Never a partner route without a session, even one that set `auth: 'optional'` by mistake.
    if (!request.auth) throw new AppError('UNAUTHORIZED', 'Missing, invalid or expired session token');
    const { partnerId } = request.params as { partnerId: string };
    const { mode } = request.query as { mode?: string };
    request.partnerAccess = await partners.authorize(
      request.auth.account.id,
      partnerId,
      request.routeOptions.config.permission!,
    );
    request.livemode = mode !== 'test';
  });
}
