import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { OperatorView } from '../../domain/operators/operators.service.js';
import { adminErrors, IsoDate, Nullable } from '../shared/schemas.js';
import { OperatorRoleSchema } from './operator-session.routes.js';

const OperatorSchema = Type.Object(
  {
    id: Type.String(),
    email: Type.String(),
    name: Type.String(),
    role: OperatorRoleSchema,
    status: Type.Union([Type.Literal('INVITED'), Type.Literal('ACTIVE'), Type.Literal('DISABLED')], {
      description: 'INVITED until the enrolment link is used; DISABLED cannot sign in',
    }),
    createdBy: Type.String({ description: '`operator:<id>`, `token` or `cli`' }),
    createdAt: IsoDate,
    enrolledAt: Nullable(IsoDate),
    lastSignInAt: Nullable(IsoDate),
    /** When the open enrolment link expires; null when none is open. */
    enrolmentExpiresAt: Nullable(IsoDate),
  },
  { title: 'Operator' },
);

const SessionSchema = Type.Object(
  {
    id: Type.String(),
    ip: Nullable(Type.String()),
    userAgent: Nullable(Type.String()),
    createdAt: IsoDate,
    lastSeenAt: IsoDate,
  },
  { title: 'OperatorSession' },
);

const EnrolmentLinkSchema = {
  enrolmentUrl: Type.String({
    description: '`PUBLIC_BASE_URL/admin/enrol#<token>`: works once, for 24 hours (also mailed)',
  }),
  expiresAt: IsoDate,
};

const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function present(o: OperatorView) {
  return {
    ...o,
    createdAt: o.createdAt.toISOString(),
    enrolledAt: iso(o.enrolledAt),
    lastSignInAt: iso(o.lastSignInAt),
    enrolmentExpiresAt: iso(o.enrolmentExpiresAt),
  };
}

/** Operator management for Owners (issue 33 O1): invite, roles, disable, enrolment links, sessions. */
export async function adminOperatorsRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { operators } = app.container;
  const manage = { operatorPermission: 'operators.manage' as const };

  r.get(
    '/operators',
    {
      config: manage,
      schema: {
        operationId: 'listOperators',
        tags: ['Operators'],
        summary: 'Operators',
        description: 'Every operator, Owners first, then by e-mail address.',
        response: { 200: Type.Object({ operators: Type.Array(OperatorSchema) }), ...adminErrors() },
      },
    },
    async () => ({ operators: (await operators.list()).map(present) }),
  );

  r.post(
    '/operators',
    {
      config: manage,
      schema: {
        operationId: 'inviteOperator',
        tags: ['Operators'],
        summary: 'Invite an operator',
        description:
          'Creates an INVITED operator and a one-time enrolment link (24 h), mailed to them and returned here so the Owner can pass it on. The e-mail address is trimmed and lower-cased; 409 CONFLICT when an operator has it.',
        body: Type.Object({
          email: Type.String({ minLength: 3, maxLength: 254 }),
          role: OperatorRoleSchema,
          name: Type.Optional(Type.String({ maxLength: 100 })),
        }),
        response: {
          201: Type.Object({ operator: OperatorSchema, ...EnrolmentLinkSchema }),
          ...adminErrors(409),
        },
      },
    },
    async (request, reply) => {
      const { operator, enrolment } = await operators.create(request.body);
      return reply.code(201).send({
        operator: present(operator),
        enrolmentUrl: enrolment.url,
        expiresAt: enrolment.expiresAt.toISOString(),
      });
    },
  );

  r.patch(
    '/operators/:id',
    {
      config: manage,
      schema: {
        operationId: 'updateOperator',
        tags: ['Operators'],
        summary: 'Change an operator’s role, name or status',
        description:
          'DISABLED ends all their console sessions and open enrolment links and refuses sign-in; ACTIVE enables them again (409 INVALID_STATE for an operator who has not enrolled yet). 409 CONFLICT when the change would leave no ACTIVE Owner.',
        params: IdParams,
        body: Type.Object(
          {
            role: Type.Optional(OperatorRoleSchema),
            status: Type.Optional(Type.Union([Type.Literal('ACTIVE'), Type.Literal('DISABLED')])),
            name: Type.Optional(Type.String({ maxLength: 100 })),
          },
          { minProperties: 1 },
        ),
        response: { 200: Type.Object({ operator: OperatorSchema }), ...adminErrors(404, 409) },
      },
    },
    async (request) => ({ operator: present(await operators.update(request.params.id, request.body)) }),
  );

  r.post(
    '/operators/:id/enrolment',
    {
      config: manage,
      schema: {
        operationId: 'newOperatorEnrolment',
        tags: ['Operators'],
        summary: 'A new enrolment link (lost phone or password)',
        description:
          'Issues a new one-time enrolment link (24 h), mailed and returned; older unused links stop working. Using it sets a new password, authenticator and recovery codes and ends the operator’s other sessions; until then their current credentials keep working. 409 INVALID_STATE for a disabled operator.',
        params: IdParams,
        response: {
          200: Type.Object({ operator: OperatorSchema, ...EnrolmentLinkSchema }),
          ...adminErrors(404, 409),
        },
      },
    },
    async (request) => {
      const { operator, enrolment } = await operators.newEnrolment(request.params.id);
      return {
        operator: present(operator),
        enrolmentUrl: enrolment.url,
        expiresAt: enrolment.expiresAt.toISOString(),
      };
    },
  );

  r.get(
    '/operators/:id/sessions',
    {
      config: manage,
      schema: {
        operationId: 'listOperatorSessions',
        tags: ['Operators'],
        summary: 'An operator’s live console sessions',
        description: 'Sessions not ended and used within the last 12 hours, most recently used first.',
        params: IdParams,
        response: { 200: Type.Object({ sessions: Type.Array(SessionSchema) }), ...adminErrors(404) },
      },
    },
    async (request) => {
      const rows = await operators.listSessions(request.params.id);
      return {
        sessions: rows.map((s) => ({
          id: s.id,
          ip: s.ip,
          userAgent: s.userAgent,
          createdAt: s.createdAt.toISOString(),
          lastSeenAt: s.lastSeenAt.toISOString(),
        })),
      };
    },
  );

  r.delete(
    '/operator-sessions/:id',
    {
      config: manage,
      schema: {
        operationId: 'endOperatorSession',
        tags: ['Operators'],
        summary: 'End a console session',
        description: 'Signs that browser out at its next request. 404 when unknown or already ended.',
        params: IdParams,
        response: { 204: Type.Null(), ...adminErrors(404) },
      },
    },
    async (request, reply) => {
      await operators.endSession(request.params.id);
      return reply.code(204).send(null);
    },
  );
}
