import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Account } from '../../domain/sessions/sessions.service.js';
import { centsToUsd } from '../../lib/money.js';
import { adminErrors, IsoDate } from '../shared/schemas.js';

const tags = ['Admin: accounts'];

const AdminAccountSchema = Type.Object(
  {
    id: Type.String(),
    email: Type.String(),
    status: Type.Union(['ACTIVE', 'SUSPENDED', 'BANNED', 'DELETED'].map((s) => Type.Literal(s))),
    walletBalance: Type.Number({ description: 'USD' }),
    createdAt: IsoDate,
  },
  { title: 'AdminAccount' },
);

function presentAdminAccount(account: Account) {
  return {
    id: account.id,
    email: account.email,
    status: account.status,
    walletBalance: centsToUsd(account.walletBalanceCents),
    createdAt: account.createdAt.toISOString(),
  };
}

/** GET /accounts?email=, PATCH /accounts/:id (decisions §6). */
export async function adminAccountRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { accounts } = app.container;

  r.get(
    '/accounts',
    {
      schema: {
        tags,
        summary: 'Find accounts',
        description: 'Exact match on the normalised email; without a filter the newest 100 accounts.',
        querystring: Type.Object({ email: Type.Optional(Type.String({ maxLength: 320 })) }),
        response: { 200: Type.Object({ accounts: Type.Array(AdminAccountSchema) }), ...adminErrors() },
      },
    },
    async (request) => {
      const found = await accounts.listAccounts(request.query.email ? { email: request.query.email } : {});
      return { accounts: found.map(presentAdminAccount) };
    },
  );

  r.patch(
    '/accounts/:id',
    {
      schema: {
        tags,
        summary: 'Change an account status',
        description:
          'SUSPENDED or BANNED takes effect on the next request of every session (401) and login answers 403. Writes an audit row. 409 INVALID_STATE for a deleted account.',
        params: Type.Object({ id: Type.String({ maxLength: 100 }) }),
        body: Type.Object({
          status: Type.Union([Type.Literal('ACTIVE'), Type.Literal('SUSPENDED'), Type.Literal('BANNED')]),
        }),
        response: { 200: Type.Object({ account: AdminAccountSchema }), ...adminErrors(404, 409) },
      },
    },
    async (request) => {
      const account = await accounts.setStatus(request.params.id, request.body.status, request.id);
      return { account: presentAdminAccount(account) };
    },
  );
}
