import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Account } from '../../domain/sessions/sessions.service.js';
import { centsToUsd } from '../../lib/money.js';
import { defineList, NextCursorSchema, pageQuery } from '../shared/pagination.js';
import { adminErrors, IsoDate } from '../shared/schemas.js';

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

/** Newest first (created_at, id) on accounts_list_idx; the newest 100 without limit/cursor. */
const accountList = defineList<Account>({
  list: 'admin.accounts',
  key: ['date', 'string'],
  keyOf: (a) => [a.createdAt, a.id],
  unpagedLimit: 100,
});

/** GET /accounts?email=, PATCH /accounts/:id (decisions §6). */
export async function adminAccountRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { accounts } = app.container;

  r.get(
    '/accounts',
    {
      config: { operatorPermission: 'read' },
      schema: {
        operationId: 'listAccounts',
        tags: ['Accounts'],
        summary: 'Find accounts',
        description:
          'Exact match on the normalised email, or on the account id (a deleted account is found by its id: its email is anonymised to `deleted+<id>@invalid`); without a filter the newest 100 accounts. With `limit` or `cursor` one page, the next in the `Link` header and `nextCursor`.',
        querystring: pageQuery({ email: Type.Optional(Type.String({ maxLength: 320 })) }),
        response: {
          200: Type.Object({
            accounts: Type.Array(AdminAccountSchema),
            nextCursor: Type.Optional(NextCursorSchema),
          }),
          ...adminErrors(),
        },
      },
    },
    async (request, reply) => {
      const raw = request.query.email?.trim() || undefined;
      const page = accountList.plan([raw?.toLowerCase()], request.query);
      // Not lowercased here: the same value is also matched against the (case-sensitive) account id.
      const found = await accounts.listAccounts({ email: raw, limit: page.take, after: page.after });
      const { items, nextCursor } = page.finish(request, reply, found);
      return { accounts: items.map(presentAdminAccount), ...(page.paged ? { nextCursor } : {}) };
    },
  );

  r.patch(
    '/accounts/:id',
    {
      config: { operatorPermission: 'accounts.manage' },
      schema: {
        operationId: 'updateAccount',
        tags: ['Accounts'],
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
