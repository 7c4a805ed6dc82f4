import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { ModeData } from '../../domain/accounts/data-export.js';
import { centsToUsd } from '../../lib/money.js';
import {
  MobileEsimSchema,
  MobileOrderSchema,
  presentMobileEsim,
  presentMobileOrder,
} from '../shared/order-presenters.js';
import { callerLocale } from '../shared/locale.js';
import { createRateLimitGuard } from '../shared/rate-limit.js';
import { IsoDate, mobileErrors, Nullable, PushResultSchema } from '../shared/schemas.js';
import { presentUser, UserSchema } from '../shared/user.js';
import { presentWalletTransaction, WalletTransactionSchema } from '../shared/wallet-transaction.js';
import { CustomerTicketSchema, toCustomerTicket } from './support.routes.js';
import { Platform, PushDeviceSchema, toDevice } from './devices.routes.js';
import type { MailRecord } from '../../domain/mail/mailer.js';
import type { PushRecord } from '../../domain/push/push-messages.js';

/** Names the document's shape, so a reader of an old download knows which schema it follows. */
export const EXPORT_FORMAT = 'esim-account-export/1' as const;

const modeLists = {
  orders: Type.Array(MobileOrderSchema, { description: 'Newest first, each with the ids of its eSIMs' }),
  esims: Type.Array(MobileEsimSchema, { description: 'Newest first; usage as last read from the provider' }),
  walletTransactions: Type.Array(WalletTransactionSchema, { description: 'Newest first, the whole history' }),
};

const ExportedMailSchema = Type.Object(
  {
    id: Type.String(),
    subject: Type.String(),
    status: Type.Union([Type.Literal('recorded'), Type.Literal('sent'), Type.Literal('failed')]),
    createdAt: IsoDate,
    sentAt: Nullable(IsoDate),
  },
  {
    title: 'ExportedMail',
    description:
      'A message sent to the account’s address. Without its text: a text can hold a one-time link (sign-in, password reset).',
  },
);

const ExportedPushSchema = Type.Object(
  {
    id: Type.String(),
    deviceId: Type.String(),
    platform: Platform,
    title: Type.String(),
    body: Type.String(),
    status: PushResultSchema,
    createdAt: IsoDate,
    sentAt: Nullable(IsoDate),
  },
  { title: 'ExportedPush' },
);

const presentMail = (m: MailRecord) => ({
  id: m.id,
  subject: m.subject,
  status: m.status,
  createdAt: m.createdAt.toISOString(),
  sentAt: m.sentAt?.toISOString() ?? null,
});

const presentPush = (p: PushRecord) => ({
  id: p.id,
  deviceId: p.deviceId,
  platform: p.platform,
  title: p.title,
  body: p.body,
  status: p.status,
  createdAt: p.createdAt.toISOString(),
  sentAt: p.sentAt?.toISOString() ?? null,
});

export const AccountExportSchema = Type.Object(
  {
    format: Type.Literal(EXPORT_FORMAT),
    exportedAt: IsoDate,
    profile: UserSchema,
    ...modeLists,
    supportTickets: Type.Array(CustomerTicketSchema, {
      description: 'Most recent activity first, each with its whole thread (oldest message first)',
    }),
    pushDevices: Type.Array(PushDeviceSchema, {
      description: 'The devices pushes go to, most recently seen first',
    }),
    mails: Type.Array(ExportedMailSchema, { description: 'Newest first, as far back as they are kept' }),
    pushes: Type.Array(ExportedPushSchema, {
      description: 'One per device a push went to, newest first; kept 90 days once settled',
    }),
    testMode: Type.Object(
      {
        walletBalance: Type.Number({ description: 'Test wallet balance in USD (not real money)' }),
        ...modeLists,
      },
      {
        title: 'AccountExportTestMode',
        description:
          'What the Partner API test key (svc_test_sk_…) made: sandbox orders and eSIMs paid from the test wallet. ' +
          'Never real money or real eSIMs, so kept apart from the lists above; empty lists when test mode was never used.',
      },
    ),
  },
  {
    title: 'AccountExport',
    description:
      'Everything the service holds about the caller, sent as a file to save (Content-Disposition)',
    // Read by @fastify/swagger into the response's documented headers.
    headers: {
      'Content-Disposition': {
        type: 'string',
        description: 'attachment; filename="esim-account-data-<YYYY-MM-DD>.json": browsers save the document',
      },
      'Cache-Control': { type: 'string', description: 'no-store: personal data is kept by no cache' },
    },
  },
);

type ExportedMode = Pick<Static<typeof AccountExportSchema>, keyof typeof modeLists>;

function presentMode(
  data: ModeData,
  publicBaseUrl: string,
  planNames: ReadonlyMap<string, string>,
): ExportedMode {
  return {
    orders: data.orders.map((o) => presentMobileOrder(o, data.esimIdsByOrder.get(o.id) ?? [], planNames)),
    esims: data.esims.map((e) => presentMobileEsim(e, publicBaseUrl, planNames)),
    walletTransactions: data.walletTransactions.map(presentWalletTransaction),
  };
}

/** GET /user/export: "Download my data" (issue 30 T10; docs/web.md "Your data"). */
export async function exportRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { dataExport, config, catalog } = app.container;
  const { exportsPerHour } = config.abuseLimits;
  // Each document reads every row the account has: a script looping on it costs the database.
  const exportGuard = await createRateLimitGuard(app, [
    {
      name: 'export',
      max: exportsPerHour,
      windowMs: 60 * 60 * 1000,
      key: (request) => request.auth?.account.id,
    },
  ]);

  r.get(
    '/user/export',
    {
      preHandler: exportGuard,
      schema: {
        operationId: 'exportMyData',
        tags: ['Account'],
        summary: 'Download my data',
        description:
          'One JSON document with everything the service holds about the caller: profile, orders, eSIMs, wallet ' +
          'transactions, support tickets with their messages, push devices, and the mails and pushes sent, all of them (no paging). Orders and money of the ' +
          'Partner API test mode are under `testMode`, never mixed with the live lists. Sent as an attachment. ' +
          `At most ${exportsPerHour} per hour per account: 429 RATE_LIMITED with Retry-After.`,
        response: { 200: AccountExportSchema, ...mobileErrors(401, 403, 429) },
      },
    },
    async (request, reply) => {
      const data = await dataExport.collect(request.auth!.account.id);
      const day = data.exportedAt.toISOString().slice(0, 10);
      const names = await catalog.planNames(
        [data.live, data.test].flatMap((mode) => [
          ...mode.orders.map((o) => o.planId),
          ...mode.esims.map((e) => e.planId),
        ]),
        callerLocale(request),
      );
      reply
        .header('content-disposition', `attachment; filename="esim-account-data-${day}.json"`)
        .header('cache-control', 'no-store');
      return {
        format: EXPORT_FORMAT,
        exportedAt: data.exportedAt.toISOString(),
        profile: presentUser(data.account, config.publicBaseUrl),
        ...presentMode(data.live, config.publicBaseUrl, names),
        supportTickets: data.tickets.map(toCustomerTicket),
        pushDevices: data.devices.map(toDevice),
        mails: data.mails.map(presentMail),
        pushes: data.pushes.map(presentPush),
        testMode: {
          walletBalance: centsToUsd(data.account.account.testWalletBalanceCents),
          ...presentMode(data.test, config.publicBaseUrl, names),
        },
      };
    },
  );
}
