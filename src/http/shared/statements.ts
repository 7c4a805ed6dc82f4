import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import type { StatementsService } from '../../domain/statements/statements.service.js';
import { IsoDate, Nullable } from './schemas.js';

/** Shared by the Partner API (`/statements`) and the dashboard (`/partners/{id}/statements`). */

const Usd = (description: string) =>
  Type.Number({ description: `${description}; USD, at most two decimals` });

const KindSchema = Type.Union(
  ['top_up', 'order', 'refund', 'adjustment'].map((k) => Type.Literal(k)),
  {
    description:
      'top_up: a card or crypto payment credited; order: a purchase; refund: an order refunded; adjustment: anything else (operator credit or debit, test wallet opening or reset)',
  },
);

const KindTotalSchema = Type.Object({
  count: Type.Integer(),
  amount: Usd('Signed sum of the kind'),
});

export const StatementSchema = Type.Object(
  {
    partnerId: Type.String(),
    livemode: Type.Boolean({ description: 'false: the test wallet’s statement' }),
    month: Type.String({ description: 'YYYY-MM, a UTC month' }),
    currency: Type.Literal('USD'),
    periodStart: IsoDate,
    periodEnd: Type.String({
      format: 'date-time',
      description: 'Exclusive: the first instant of the next month',
    }),
    final: Type.Boolean({
      description:
        'true: a closed month (ended more than 5 minutes ago), stored when first produced and never changed; false: the open month, computed live',
    }),
    generatedAt: IsoDate,
    openingBalance: Usd('The balance at periodStart'),
    closingBalance: Usd('openingBalance + totals.net; equals the last transaction’s balanceAfter'),
    totals: Type.Object({
      top_up: KindTotalSchema,
      order: KindTotalSchema,
      refund: KindTotalSchema,
      adjustment: KindTotalSchema,
      net: Usd('Sum of every transaction'),
    }),
    transactions: Type.Array(
      Type.Object({
        id: Type.String(),
        at: IsoDate,
        kind: KindSchema,
        description: Type.String(),
        orderId: Nullable(Type.String()),
        paymentId: Nullable(Type.String()),
        amount: Usd('Signed: money in positive, money out negative'),
        balanceAfter: Usd('The wallet balance after this transaction'),
      }),
      { description: 'Oldest first' },
    ),
  },
  { title: 'Statement' },
);

export const StatementFormatQuery = Type.Object({
  format: Type.Optional(
    Type.Union([Type.Literal('json'), Type.Literal('csv'), Type.Literal('pdf')], {
      description: 'json (default), csv or pdf',
    }),
  ),
});

export const MonthParams = Type.Object({
  month: Type.String({ pattern: '^\\d{4}-\\d{2}$', description: 'YYYY-MM, a UTC month' }),
});

export const statementResponse = {
  description:
    'The statement: JSON by default, `format=csv` a CSV table (opening balance, transactions, closing balance, totals), `format=pdf` a PDF (both as attachments)',
  content: {
    'application/json': { schema: StatementSchema },
    'text/csv': { schema: Type.String() },
    'application/pdf': { schema: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }) },
  },
};

export const RangeQuery = Type.Object({
  from: Type.String({
    pattern: '^\\d{4}-\\d{2}-\\d{2}$',
    description: 'First day, YYYY-MM-DD (UTC), included',
  }),
  to: Type.String({
    pattern: '^\\d{4}-\\d{2}-\\d{2}$',
    description: 'Last day, YYYY-MM-DD (UTC), included; at most 366 days after the first day (from)',
  }),
});

export const csvResponse = (description: string) => ({
  description,
  content: { 'text/csv': { schema: Type.String() } },
});

function attachment(reply: FastifyReply, type: string, filename: string): FastifyReply {
  return reply
    .type(type)
    .header('content-disposition', `attachment; filename="${filename}"`)
    .header('cache-control', 'private, no-store');
}

/** Sends one statement in the format asked for. */
export async function sendStatement(
  statements: StatementsService,
  reply: FastifyReply,
  input: { partnerId: string; livemode: boolean; month: string; format?: 'json' | 'csv' | 'pdf' | undefined },
): Promise<FastifyReply> {
  const { partnerId, livemode, month } = input;
  const name = `statement-${month}-${livemode ? 'live' : 'test'}`;
  if (input.format === 'csv')
    return attachment(reply, 'text/csv; charset=utf-8', `${name}.csv`).send(
      await statements.statementCsv(partnerId, livemode, month),
    );
  if (input.format === 'pdf')
    return attachment(reply, 'application/pdf', `${name}.pdf`).send(
      await statements.statementPdf(partnerId, livemode, month),
    );
  return reply
    .header('cache-control', 'private, no-store')
    .send(await statements.statement(partnerId, livemode, month));
}

/** Sends the ledger rows of a date range as CSV. */
export async function sendTransactionsCsv(
  statements: StatementsService,
  reply: FastifyReply,
  input: { partnerId: string; livemode: boolean; from: string; to: string },
): Promise<FastifyReply> {
  const body = await statements.transactionsCsv(input.partnerId, input.livemode, input.from, input.to);
  const name = `transactions-${input.from}-${input.to}-${input.livemode ? 'live' : 'test'}.csv`;
  return attachment(reply, 'text/csv; charset=utf-8', name).send(body);
}
