import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import {
  csvResponse,
  MonthParams,
  RangeQuery,
  sendStatement,
  sendTransactionsCsv,
  statementResponse,
  StatementFormatQuery,
} from '../shared/statements.js';
import { errorResponse, partnerCommonErrors } from './openapi-examples.js';

/** Monthly statements and the ledger export (issue 32 C6), of the key's mode. */
export async function statementsRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { statements } = app.container;

  r.get(
    '/statements/:month',
    {
      schema: {
        operationId: 'getStatement',
        tags: ['Wallet'],
        summary: 'Monthly statement',
        description:
          'The wallet statement of one UTC month, of the key’s mode: opening balance, every top-up, order, refund and adjustment, closing balance, totals per kind (opening + net = closing, to the cent). A closed month’s statement (from 00:05 UTC on the 1st of the next month) is final and never changes; the current month is computed live (`final: false`). `format=csv|pdf` for a download.',
        params: MonthParams,
        querystring: StatementFormatQuery,
        response: {
          200: statementResponse,
          400: errorResponse('month is not YYYY-MM, or format is not json, csv or pdf', 'VALIDATION_ERROR'),
          404: errorResponse('The month has not started yet', 'NOT_FOUND'),
          ...partnerCommonErrors,
        },
      },
    },
    async (request, reply) =>
      sendStatement(statements, reply, {
        partnerId: request.partner!.id,
        livemode: request.livemode,
        month: request.params.month,
        format: request.query.format,
      }),
  );

  r.get(
    '/wallet/transactions.csv',
    {
      schema: {
        operationId: 'exportWalletTransactions',
        tags: ['Wallet'],
        summary: 'Wallet transactions of a date range as CSV',
        description:
          'Every ledger row of the key’s mode from `from` to `to` (UTC days, both included, at most 366 days), oldest first, as CSV.',
        querystring: RangeQuery,
        response: {
          200: csvResponse(
            'CSV: date, type, description, order_id, payment_id, transaction_id, amount_usd, balance_after_usd',
          ),
          400: errorResponse(
            'from or to is not a date, to is before from, or the range is over 366 days',
            'VALIDATION_ERROR',
          ),
          ...partnerCommonErrors,
        },
      },
    },
    async (request, reply) =>
      sendTransactionsCsv(statements, reply, {
        partnerId: request.partner!.id,
        livemode: request.livemode,
        from: request.query.from,
        to: request.query.to,
      }),
  );
}
