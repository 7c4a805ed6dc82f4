import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { IsoDate, mobileErrors, Nullable } from '../../shared/schemas.js';
import {
  csvResponse,
  MonthParams,
  RangeQuery,
  sendStatement,
  sendTransactionsCsv,
  statementResponse,
  StatementFormatQuery,
} from '../../shared/statements.js';

const PriceRuleSchema = Type.Object(
  {
    rule: Type.Union([Type.Literal('discount'), Type.Literal('markup')], {
      description: 'discount: percent off the retail price; markup: percent over the wholesale cost',
    }),
    percent: Type.Number(),
    minMarginPercent: Type.Number({ description: 'The price is never below wholesale × (1 + this/100)' }),
    updatedAt: Nullable(IsoDate),
  },
  { title: 'PartnerPriceRule' },
);

/**
 * The dashboard's billing (issue 32 C5, C6): the partner's price rule and price list, monthly
 * statements and the ledger export, of the console's mode (`?mode=test` for the test wallet).
 */
export async function partnerBillingRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { pricing, statements } = app.container;

  r.get(
    '/pricing',
    {
      config: { permission: 'partner.read' },
      schema: {
        operationId: 'getPartnerPriceRule',
        tags: ['Partner dashboard'],
        summary: 'The partner’s price rule',
        description:
          'The rule an operator set for the partner (the Partner API’s catalogue and orders use it), or `rule: null`: retail prices.',
        response: { 200: Type.Object({ rule: Nullable(PriceRuleSchema) }) },
      },
    },
    async (request) => ({ rule: await pricing.getRule(request.partnerAccess!.partnerId) }),
  );

  r.get(
    '/prices.csv',
    {
      config: { permission: 'partner.read' },
      schema: {
        operationId: 'downloadPartnerPriceList',
        tags: ['Partner dashboard'],
        summary: 'The partner’s price list as CSV',
        description:
          'Every plan sold now: plan_id, name, destination, destination_code, data_mb, validity_days, retail_usd, partner_usd (the price the Partner API charges this partner).',
        response: { 200: csvResponse('CSV, one plan per line') },
      },
    },
    async (request, reply) => {
      const body = await pricing.priceListCsv(request.partnerAccess!.partnerId);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="price-list.csv"')
        .header('cache-control', 'private, no-store')
        .send(body);
    },
  );

  r.get(
    '/statements',
    {
      config: { permission: 'statements.read' },
      schema: {
        operationId: 'listPartnerStatements',
        tags: ['Partner dashboard'],
        summary: 'Months with a statement',
        description:
          'The UTC months with wallet activity in the mode, newest first, and always the current month (not final yet).',
        response: {
          200: Type.Object({
            months: Type.Array(
              Type.Object({
                month: Type.String({ description: 'YYYY-MM (UTC)' }),
                final: Type.Boolean({ description: 'The month is closed: its statement never changes' }),
              }),
            ),
          }),
        },
      },
    },
    async (request) => ({
      months: await statements.months(request.partnerAccess!.partnerId, request.livemode),
    }),
  );

  r.get(
    '/statements/:month',
    {
      config: { permission: 'statements.read' },
      schema: {
        operationId: 'getPartnerStatement',
        tags: ['Partner dashboard'],
        summary: 'A monthly statement',
        description:
          'As `GET /api/public/v1/statements/{month}` of the Partner API, for the console’s mode. A month that has not started is 404.',
        params: MonthParams,
        querystring: StatementFormatQuery,
        response: { 200: statementResponse, ...mobileErrors(400, 404) },
      },
    },
    async (request, reply) =>
      sendStatement(statements, reply, {
        partnerId: request.partnerAccess!.partnerId,
        livemode: request.livemode,
        month: request.params.month,
        format: request.query.format,
      }),
  );

  r.get(
    '/wallet/transactions.csv',
    {
      config: { permission: 'statements.read' },
      schema: {
        operationId: 'exportPartnerWalletTransactions',
        tags: ['Partner dashboard'],
        summary: 'Wallet transactions of a date range as CSV',
        description:
          'Every ledger row of the mode from `from` to `to` (UTC days, both included, at most 366 days), oldest first.',
        querystring: RangeQuery,
        response: {
          200: csvResponse(
            'CSV: date, type, description, order_id, payment_id, transaction_id, amount_usd, balance_after_usd',
          ),
        },
      },
    },
    async (request, reply) =>
      sendTransactionsCsv(statements, reply, {
        partnerId: request.partnerAccess!.partnerId,
        livemode: request.livemode,
        from: request.query.from,
        to: request.query.to,
      }),
  );
}
