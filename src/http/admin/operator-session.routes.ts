import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { OPERATOR_PERMISSIONS, OPERATOR_ROLES, operatorPermissionsOf } from '../../domain/operators/roles.js';
import { adminErrors } from '../shared/schemas.js';
import { clearOperatorCookie } from './operator-auth.js';

export const OperatorRoleSchema = Type.Union(
  OPERATOR_ROLES.map((r) => Type.Literal(r)),
  {
    title: 'OperatorRole',
    description: 'owner, support, finance, catalog or readonly (docs/operations.md "Roles")',
  },
);

export const OperatorPermissionSchema = Type.Union(
  OPERATOR_PERMISSIONS.map((p) => Type.Literal(p)),
  { title: 'OperatorPermission' },
);

const MeSchema = Type.Object(
  {
    id: Type.String({ description: '`token` for the admin token' }),
    email: Type.String(),
    name: Type.String(),
    role: OperatorRoleSchema,
    permissions: Type.Array(OperatorPermissionSchema, { description: 'What this role may do' }),
  },
  { title: 'OperatorMe' },
);

/** The console's own session: who am I (sign-in, sign-out and enrolment live beside it). */
export async function operatorSessionRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { config, operatorSessions } = app.container;

  r.get(
    '/operator/me',
    {
      config: { operatorPermission: 'signed-in' },
      schema: {
        operationId: 'getOperatorMe',
        tags: ['Operators'],
        summary: 'The signed-in operator',
        description:
          'Who this session (or the admin token) is, with the role and what it permits. 401 when signed out.',
        response: { 200: Type.Object({ operator: MeSchema }), ...adminErrors() },
      },
    },
    async (request) => {
      const { id, email, name, role } = request.operator!;
      return { operator: { id, email, name, role, permissions: operatorPermissionsOf(role) } };
    },
  );

  r.delete(
    '/operator/session',
    {
      config: { operatorPermission: 'public' },
      schema: {
        operationId: 'signOutOperator',
        tags: ['Operators'],
        summary: 'Sign out of the console',
        description:
          'Ends this console session and clears its cookie. Answers 204 even when already signed out.',
        response: { 204: Type.Null(), ...adminErrors() },
      },
    },
    async (request, reply) => {
      const operator = request.operator;
      if (operator?.sessionId) await operatorSessions.end(operator.sessionId);
      clearOperatorCookie(reply, config);
      return reply.code(204).send(null);
    },
  );
}
