import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { DETAIL_LIMITS, type AccountDetail } from '../../domain/accounts/account-detail.js';
import { presentRule } from '../../domain/pricing/pricing.service.js';
import { centsToUsd } from '../../lib/money.js';
import { adminErrors, IsoDate, Nullable } from '../shared/schemas.js';
import { presentWalletTransaction, WalletTransactionSchema } from '../shared/wallet-transaction.js';

const literals = <T extends string>(values: readonly T[], description?: string) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    description ? { description } : {},
  );

const More = (what: string) =>
  Type.Boolean({ description: `true: there are older ${what} than the ones listed` });

const ProfileSchema = Type.Object(
  {
    id: Type.String(),
    email: Type.String({ description: 'A deleted account’s is anonymised to deleted+<id>@invalid' }),
    emailVerified: Type.Boolean(),
    firstName: Type.String(),
    lastName: Type.String(),
    status: literals(['ACTIVE', 'SUSPENDED', 'BANNED', 'DELETED'] as const),
    locale: Type.String({ description: 'The language of the customer’s mails and pages' }),
    preferredCurrency: Type.String(),
    isPartner: Type.Boolean({ description: 'Holds a Partner API key (live or test) or a price rule' }),
    createdAt: IsoDate,
    updatedAt: IsoDate,
    deletedAt: Nullable(IsoDate),
  },
  { title: 'AdminAccountProfile' },
);

const WalletSchema = Type.Object(
  {
    currency: Type.Literal('USD'),
    balance: Type.Number({ description: 'USD' }),
    lowBalanceThreshold: Type.Number({ description: 'USD; wallet.low_balance fires below it' }),
    testBalance: Nullable(
      Type.Number({ description: 'The test wallet (USD) of a partner with a test key; null without one' }),
    ),
    transactions: Type.Array(WalletTransactionSchema, {
      description: `The newest ${DETAIL_LIMITS.transactions} live ledger rows, newest first`,
    }),
    moreTransactions: More('transactions'),
  },
  { title: 'AdminAccountWallet' },
);

const OrderSchema = Type.Object(
  {
    id: Type.String({ description: 'GET /orders/{id}' }),
    orderNumber: Type.String(),
    status: literals(['AWAITING_PAYMENT', 'PROCESSING', 'COMPLETED', 'CANCELLED', 'REFUNDED'] as const),
    channel: literals(['mobile', 'partner'] as const),
    paymentMethod: literals(['wallet', 'card', 'crypto'] as const),
    livemode: Type.Boolean({ description: 'false: a test-mode order (sandbox, test wallet)' }),
    amountUsd: Type.Number(),
    currency: Type.String(),
    planId: Type.String(),
    planName: Nullable(Type.String({ description: 'English plan name; null when the plan is gone' })),
    quantity: Type.Integer(),
    lastError: Nullable(Type.String({ description: 'Why the last fulfillment attempt failed' })),
    createdAt: IsoDate,
    completedAt: Nullable(IsoDate),
  },
  { title: 'AdminAccountOrder' },
);

const EsimSchema = Type.Object(
  {
    id: Type.String(),
    iccid: Type.String(),
    orderId: Type.String(),
    planId: Type.String(),
    planName: Nullable(Type.String()),
    status: literals(['PENDING', 'ACTIVE', 'DEPLETED', 'EXPIRED', 'CANCELLED'] as const),
    installState: Nullable(
      literals(
        ['RELEASED', 'INSTALLED', 'ENABLED', 'DISABLED', 'DELETED'] as const,
        'The profile’s state on the phone as the provider last reported it; null: not reported yet',
      ),
    ),
    livemode: Type.Boolean(),
    dataUsageMb: Type.Integer({ minimum: 0 }),
    totalVolumeMb: Type.Integer({ minimum: 0 }),
    usageUpdatedAt: Nullable({
      ...IsoDate,
      description: 'When the provider measured `dataUsageMb`; null: not reported',
    }),
    usageCheckedAt: Nullable({
      ...IsoDate,
      description: 'When the service last asked the provider; null: never',
    }),
    activatedAt: Nullable(IsoDate),
    expiresAt: Nullable(IsoDate),
    createdAt: IsoDate,
  },
  { title: 'AdminAccountEsim' },
);

const TicketSchema = Type.Object(
  {
    id: Type.String({ description: 'GET /tickets/{id}' }),
    subject: Type.String(),
    category: Type.String(),
    status: literals(['OPEN', 'ANSWERED', 'RESOLVED', 'CLOSED'] as const),
    orderId: Nullable(Type.String()),
    messages: Type.Integer({ minimum: 0 }),
    lastAuthor: Nullable(literals(['customer', 'staff', 'system'] as const, 'Who wrote last')),
    createdAt: IsoDate,
    updatedAt: IsoDate,
  },
  { title: 'AdminAccountTicket' },
);

const KeySchema = Type.Object({
  prefix: Type.String({ description: 'svc_live_sk_AbCd…WxYz: enough to recognise the key, never the key' }),
  generatedAt: IsoDate,
});

const DetailSchema = Type.Object(
  {
    account: ProfileSchema,
    wallet: WalletSchema,
    orders: Type.Object({
      items: Type.Array(OrderSchema, {
        description: `The newest ${DETAIL_LIMITS.orders}, live and test, newest first; GET /orders?accountId= has them all`,
      }),
      more: More('orders'),
    }),
    esims: Type.Object({
      items: Type.Array(EsimSchema, {
        description: `The newest ${DETAIL_LIMITS.esims}, live and test, with the usage last stored (the refresh job keeps it current; the page asks the provider nothing)`,
      }),
      more: More('eSIMs'),
    }),
    tickets: Type.Object({
      items: Type.Array(TicketSchema, {
        description: `The ${DETAIL_LIMITS.tickets} with the latest activity`,
      }),
      more: More('tickets'),
    }),
    sessions: Type.Object(
      {
        live: Type.Integer({ minimum: 0, description: 'Sessions that still work (not expired)' }),
        newest: Type.Array(Type.Object({ createdAt: IsoDate, expiresAt: IsoDate }), {
          description: `The newest ${DETAIL_LIMITS.sessions}; a session stores no last-use time`,
        }),
      },
      { description: 'The customer’s signed-in devices and browsers (web app, mobile app, partner console)' },
    ),
    apiKeys: Type.Object(
      { live: Nullable(KeySchema), test: Nullable(KeySchema) },
      { description: 'The Partner API keys’ display prefixes; null: no key of that mode' },
    ),
    partner: Type.Object(
      {
        priceRule: Nullable(
          Type.Object({
            rule: literals(['discount', 'markup'] as const),
            percent: Type.Number(),
            minMarginPercent: Type.Number(),
            updatedAt: Nullable(IsoDate),
          }),
          // A Nullable union carries no description of its own: said on the parent.
        ),
        memberOf: Type.Array(
          Type.Object({
            partnerId: Type.String(),
            email: Type.String(),
            name: Type.String(),
            role: literals(['owner', 'admin', 'developer', 'finance', 'viewer'] as const),
          }),
          { description: 'Partners whose team this account belongs to' },
        ),
      },
      { description: '`priceRule`: the Partner API price rule (GET /accounts/{id}/pricing), null: retail' },
    ),
  },
  { title: 'AdminAccountDetail' },
);

const iso = (d: Date) => d.toISOString();
const isoOrNull = (d: Date | null) => d?.toISOString() ?? null;

function present(d: AccountDetail): Static<typeof DetailSchema> {
  const a = d.account;
  const key = (info: { apiKeyPrefix: string; apiKeyGeneratedAt: Date } | null) =>
    info && { prefix: info.apiKeyPrefix, generatedAt: iso(info.apiKeyGeneratedAt) };
  return {
    account: {
      id: a.id,
      email: a.email,
      emailVerified: a.emailVerified,
      firstName: a.firstName,
      lastName: a.lastName,
      status: a.status,
      locale: a.locale,
      preferredCurrency: a.preferredCurrency,
      isPartner: d.partner.isPartner,
      createdAt: iso(a.createdAt),
      updatedAt: iso(a.updatedAt),
      deletedAt: isoOrNull(a.deletedAt),
    },
    wallet: {
      currency: 'USD',
      balance: centsToUsd(a.walletBalanceCents),
      lowBalanceThreshold: centsToUsd(a.lowBalanceThresholdCents),
      testBalance: d.apiKeys.test ? centsToUsd(a.testWalletBalanceCents) : null,
      transactions: d.wallet.transactions.map(presentWalletTransaction),
      moreTransactions: d.wallet.moreTransactions,
    },
    orders: {
      items: d.orders.rows.map((o) => ({
        id: o.id,
        orderNumber: o.orderNumber,
        status: o.status,
        channel: o.channel,
        paymentMethod: o.paymentMethod,
        livemode: o.livemode,
        amountUsd: centsToUsd(o.amountCents),
        currency: o.currency,
        planId: o.planId,
        planName: o.planName,
        quantity: o.quantity,
        lastError: o.lastError,
        createdAt: iso(o.createdAt),
        completedAt: isoOrNull(o.completedAt),
      })),
      more: d.orders.more,
    },
    esims: {
      items: d.esims.rows.map((e) => ({
        id: e.id,
        iccid: e.iccid,
        orderId: e.orderId,
        planId: e.planId,
        planName: e.planName,
        status: e.status,
        installState: e.installState,
        livemode: e.livemode,
        dataUsageMb: e.dataUsageMb,
        totalVolumeMb: e.totalVolumeMb,
        usageUpdatedAt: isoOrNull(e.usageUpdatedAt),
        usageCheckedAt: isoOrNull(e.usageCheckedAt),
        activatedAt: isoOrNull(e.activatedAt),
        expiresAt: isoOrNull(e.expiresAt),
        createdAt: iso(e.createdAt),
      })),
      more: d.esims.more,
    },
    tickets: {
      items: d.tickets.rows.map((t) => ({ ...t, createdAt: iso(t.createdAt), updatedAt: iso(t.updatedAt) })),
      more: d.tickets.more,
    },
    sessions: {
      live: d.sessions.live,
      newest: d.sessions.newest.map((s) => ({ createdAt: iso(s.createdAt), expiresAt: iso(s.expiresAt) })),
    },
    apiKeys: { live: key(d.apiKeys.live), test: key(d.apiKeys.test) },
    partner: {
      priceRule: d.partner.priceRule && presentRule(d.partner.priceRule, d.partner.priceRuleUpdatedAt),
      memberOf: d.partner.memberOf,
    },
  };
}

const Params = Type.Object({ id: Type.String({ maxLength: 100 }) });

/** GET /accounts/:id (the console's account page) and DELETE /accounts/:id/sessions (issue 33 O2). */
export async function adminAccountDetailRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { accountDetail, accounts } = app.container;

  r.get(
    '/accounts/:id',
    {
      config: { operatorPermission: 'read' },
      schema: {
        operationId: 'getAccount',
        tags: ['Accounts'],
        summary: 'One account, for support',
        description:
          'Profile, wallet balance and its newest transactions, newest orders, eSIMs with their last stored usage, tickets, live sessions, the Partner API keys’ prefixes (never a key) and the partner price rule. Each list is bounded (`more: true` when older entries exist). A deleted account is found by its id. 404 ACCOUNT_NOT_FOUND for an unknown id.',
        params: Params,
        response: { 200: Type.Object({ account: DetailSchema }), ...adminErrors(404) },
      },
    },
    async (request) => ({ account: present(await accountDetail.get(request.params.id)) }),
  );

  r.delete(
    '/accounts/:id/sessions',
    {
      config: { operatorPermission: 'accounts.manage' },
      schema: {
        operationId: 'endAccountSessions',
        tags: ['Accounts'],
        summary: 'Sign a customer out everywhere',
        description:
          'Ends every session of the account (web app, mobile app, partner console): each device’s next request answers 401 and the customer signs in again. The password and Partner API keys are untouched; to keep them out, suspend the account too. `ended`: how many sessions still worked. Audited (`account.sessions.end`, before/after counts). 404 ACCOUNT_NOT_FOUND for an unknown id.',
        params: Params,
        response: {
          200: Type.Object({ ended: Type.Integer({ minimum: 0 }) }),
          ...adminErrors(404),
        },
      },
    },
    async (request) => ({ ended: await accounts.endSessions(request.params.id, request.id) }),
  );
}
