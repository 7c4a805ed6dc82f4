import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../domain/errors.js';
import type { SearchResults } from '../../domain/ops/search.service.js';
import { adminErrors, IsoDate, Nullable } from '../shared/schemas.js';

const AccountHitSchema = Type.Object(
  {
    id: Type.String({ description: 'Account id (acc_…): GET /accounts/{id}' }),
    email: Type.String(),
    firstName: Type.String(),
    lastName: Type.String(),
    status: Type.String({ description: 'ACTIVE | SUSPENDED | BANNED | DELETED' }),
    createdAt: IsoDate,
  },
  { title: 'AdminSearchAccount' },
);

const OrderHitSchema = Type.Object(
  {
    id: Type.String({ description: 'Order id (ord_…): GET /orders/{id}' }),
    orderNumber: Type.String({ description: 'SVC-… (mobile) or SVC-API-… (partner)' }),
    accountId: Type.String(),
    accountEmail: Type.String(),
    channel: Type.String({ description: 'mobile | partner' }),
    status: Type.String({ description: 'AWAITING_PAYMENT | PROCESSING | COMPLETED | CANCELLED | REFUNDED' }),
    amountCents: Type.Integer({ minimum: 0 }),
    currency: Type.String(),
    livemode: Type.Boolean({ description: 'false: a test-mode order (sandbox, test wallet)' }),
    createdAt: IsoDate,
  },
  { title: 'AdminSearchOrder' },
);

const EsimHitSchema = Type.Object(
  {
    id: Type.String({ description: 'eSIM id (esim_…)' }),
    iccid: Type.String(),
    status: Type.String({ description: 'PENDING | ACTIVE | DEPLETED | EXPIRED | CANCELLED' }),
    accountId: Type.String(),
    accountEmail: Type.String(),
    orderId: Type.String(),
    livemode: Type.Boolean(),
    createdAt: IsoDate,
  },
  { title: 'AdminSearchEsim' },
);

const PaymentHitSchema = Type.Object(
  {
    id: Type.String({ description: 'Payment id (pay_…)' }),
    provider: Type.String({ description: 'sandbox | stripe | cryptomus' }),
    providerRef: Nullable(Type.String({ description: 'Session or invoice id at the provider' })),
    status: Type.String(),
    amountMinor: Type.Integer({ minimum: 0, description: 'In minor units of `currency`' }),
    currency: Type.String(),
    accountId: Type.String(),
    orderId: Nullable(Type.String({ description: 'The order it paid; null for a wallet top-up' })),
    createdAt: IsoDate,
  },
  { title: 'AdminSearchPayment' },
);

const SearchResponseSchema = Type.Object(
  {
    accounts: Type.Array(AccountHitSchema, { maxItems: 10 }),
    orders: Type.Array(OrderHitSchema, { maxItems: 10 }),
    esims: Type.Array(EsimHitSchema, { maxItems: 10 }),
    payments: Type.Array(PaymentHitSchema, { maxItems: 10 }),
  },
  {
    examples: [
      {
        accounts: [],
        orders: [],
        esims: [
          {
            id: 'esim_4mQp9XvB2kLr7TnC1aZe',
            iccid: '8988228066612345678',
            status: 'ACTIVE',
            accountId: 'acc_7Hc2LmQ9xVb3RtN8pKsd',
            accountEmail: 'ayse@example.com',
            orderId: 'ord_2Wd8KpLm4NqR7sTv9XyZ',
            livemode: true,
            createdAt: '2026-11-27T09:14:03.120Z',
          },
        ],
        payments: [],
      },
    ],
  },
);

const iso = (d: Date) => d.toISOString();

function present(r: SearchResults): Static<typeof SearchResponseSchema> {
  return {
    accounts: r.accounts.map((a) => ({ ...a, createdAt: iso(a.createdAt) })),
    orders: r.orders.map((o) => ({ ...o, createdAt: iso(o.createdAt) })),
    esims: r.esims.map((e) => ({ ...e, createdAt: iso(e.createdAt) })),
    payments: r.payments.map((p) => ({ ...p, createdAt: iso(p.createdAt) })),
  };
}

/** GET /search?q=: the operator console's one search box. */
export async function adminSearchRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { consoleSearch } = app.container;

  r.get(
    '/search',
    {
      config: { operatorPermission: 'read' },
      schema: {
        operationId: 'searchConsole',
        tags: ['Console'],
        summary: 'Find accounts, orders, eSIMs and payments',
        description:
          'One search box. The shape of `q` (trimmed) picks the lookups: an id (`acc_…`, `ord_…`, `esim_…`, `pay_…`) finds that one record; 18–22 digits find eSIMs by ICCID; `SVC-…` finds an order by its number (any case); text with `@` finds accounts whose e-mail is or begins with it; any other text finds accounts whose first or last name contains it (any case) or whose e-mail begins with it, and payments whose provider reference (Stripe session, Cryptomus invoice) is exactly it. Results are grouped by kind, at most 10 of each; kinds the query cannot match are empty. Test-mode orders and eSIMs are included with `livemode: false`. 400 when `q` is empty after trimming.',
        querystring: Type.Object({
          q: Type.String({
            minLength: 1,
            maxLength: 200,
            description: 'What to look for: an id, ICCID, order number, e-mail, name or payment reference',
            examples: ['8988228066612345678'],
          }),
        }),
        response: { 200: SearchResponseSchema, ...adminErrors() },
      },
    },
    async (request) => {
      const q = request.query.q.trim();
      if (q.length === 0)
        throw new AppError('VALIDATION_ERROR', 'Type something to search for', { field: 'q' });
      return present(await consoleSearch.search(q));
    },
  );
}
