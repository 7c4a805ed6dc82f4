import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { PARTNER_PERMISSIONS, PARTNER_ROLES } from '../../../domain/partners/roles.js';
import { mobileErrors } from '../../shared/schemas.js';
import { partnerAuditRoutes } from './audit.routes.js';
import { invitationRoutes } from './invitations.routes.js';
import { keysRoutes } from './keys.routes.js';
import { partnerLogsRoutes } from './logs.routes.js';
import { partnerOverviewRoutes } from './overview.routes.js';
import { partnerBillingRoutes } from './billing.routes.js';
import { partnerScope } from './scope.js';
import { teamRoutes } from './team.routes.js';
import { partnerWebhooksRoutes } from './webhooks.routes.js';

const RoleSchema = Type.Union(
  PARTNER_ROLES.map((r) => Type.Literal(r)),
  { description: 'owner, admin, developer, finance or viewer (docs/partner-guide.md "Team and roles")' },
);

export const PartnerSummarySchema = Type.Object(
  {
    id: Type.String(),
    email: Type.String(),
    name: Type.String(),
    role: RoleSchema,
    self: Type.Boolean({ description: 'true: the partner is your own account (you are its first Owner)' }),
    permissions: Type.Array(Type.Union(PARTNER_PERMISSIONS.map((p) => Type.Literal(p))), {
      description: 'What your role allows here; the server checks each request against it',
    }),
  },
  { title: 'PartnerMembership' },
);

const PartnerDetailSchema = Type.Composite(
  [PartnerSummarySchema, Type.Object({ hasLiveKey: Type.Boolean(), hasTestKey: Type.Boolean() })],
  { title: 'PartnerDetail' },
);

/** The area route modules under /partners/{partnerId}/, one line each. */
const PARTNER_SCOPE_ROUTES: Array<(app: FastifyInstance) => Promise<void>> = [
  teamRoutes,
  keysRoutes,
  partnerAuditRoutes,
  partnerWebhooksRoutes,
  partnerOverviewRoutes,
  partnerLogsRoutes,
  partnerBillingRoutes,
];

/**
 * The partner dashboard's API (issue 32): `GET /partners`, then everything under
 * `/partners/{partnerId}/`, each route with the permission it needs (./scope.ts). The route
 * modules of the areas register inside the scope, one line each.
 */
export async function partnersRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { partners } = app.container;

  r.get(
    '/partners',
    {
      schema: {
        operationId: 'listMyPartners',
        tags: ['Partner dashboard'],
        summary: 'Partners you belong to',
        description:
          'Your own account (you are its Owner) first, then every partner whose team you joined, with your role and what it allows.',
        response: { 200: Type.Object({ partners: Type.Array(PartnerSummarySchema) }), ...mobileErrors(401) },
      },
    },
    async (request) => ({ partners: await partners.list(request.auth!.account) }),
  );

  await app.register(invitationRoutes);

  await app.register(
    async (scoped) => {
      await partnerScope(scoped);
      const s = scoped.withTypeProvider<TypeBoxTypeProvider>();
      s.get(
        '',
        {
          config: { permission: 'partner.read' },
          schema: {
            operationId: 'getPartner',
            tags: ['Partner dashboard'],
            summary: 'One partner, with your role on it',
            response: { 200: PartnerDetailSchema },
          },
        },
        async (request) => partners.summary(request.partnerAccess!),
      );
      for (const routes of PARTNER_SCOPE_ROUTES) await scoped.register(routes);
    },
    { prefix: '/partners/:partnerId' },
  );
}
