import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isLocale, LOCALES, type Locale } from '../../domain/catalog/countries.js';
import { receiptPdf } from '../../domain/receipts/receipt-pdf.js';
import { receiptFigures } from '../../domain/receipts/receipt-format.js';
import type { Receipt } from '../../domain/receipts/receipts.service.js';
import { centsToUsd, CURRENCIES } from '../../lib/money.js';
import { localeFromHeader } from '../shared/locale.js';
import { IsoDate, mobileErrors, Nullable } from '../shared/schemas.js';

/**
 * Receipts of orders and wallet top-ups (issue 30 T9): JSON for the app's receipt pages and a PDF
 * to download. Only the owner reads them; anything else (another account's, an unpaid order, a
 * wallet row that is no top-up) is 404.
 */

const Amount = Type.Object({
  amount: Type.Number({ description: 'In `currency`, at most two decimals' }),
  currency: Type.String(),
  formatted: Type.String({ description: 'In the receipt language' }),
});

export const ReceiptSchema = Type.Object(
  {
    kind: Type.Union([Type.Literal('order'), Type.Literal('topup')]),
    number: Type.String({ description: 'Receipt number: R-<order number> or R-<wallet transaction id>' }),
    issuedAt: IsoDate,
    status: Type.Union([Type.Literal('PAID'), Type.Literal('REFUNDED')]),
    language: Type.String({ description: 'The language of the texts and formatted amounts' }),
    company: Type.Object({ name: Type.String(), address: Type.String(), supportEmail: Type.String() }),
    customer: Type.Object({ name: Type.String(), email: Type.String() }),
    lines: Type.Array(
      Type.Object({
        description: Type.String({
          description: 'What was bought: the plan as people name it, or the top-up',
        }),
        quantity: Type.Integer(),
        unitAmount: Amount,
        amount: Amount,
      }),
    ),
    paymentMethod: Type.Union([Type.Literal('wallet'), Type.Literal('card'), Type.Literal('crypto')]),
    orderId: Nullable(Type.String()),
    orderNumber: Nullable(Type.String()),
    transactionId: Nullable(Type.String()),
    total: Amount,
    displayTotal: Nullable(Amount),
    exchangeRate: Nullable(
      Type.Object({
        currency: Type.String(),
        ratePerUsd: Type.String({ description: 'Units of `currency` per 1 USD' }),
        asOf: Nullable(Type.String({ format: 'date-time', description: 'When the rate was set' })),
      }),
    ),
    pdfUrl: Type.String({ description: 'The same receipt as a PDF (same query)' }),
  },
  {
    title: 'Receipt',
    description:
      '`total` is what was charged, in USD. `displayTotal` is the same amount in the display currency at the rate in force at the purchase (`exchangeRate`), or what the payer paid when a top-up was paid in that currency; null for USD.',
  },
);

const ReceiptQuery = Type.Object({
  currency: Type.Optional(
    Type.Union(
      CURRENCIES.map((c) => Type.Literal(c)),
      { description: 'Display currency; default the account’s preferred currency' },
    ),
  ),
  lang: Type.Optional(
    Type.Union(
      LOCALES.map((l) => Type.Literal(l)),
      { description: 'Language; default the account’s, else Accept-Language, else en' },
    ),
  ),
});
type ReceiptQuery = Static<typeof ReceiptQuery>;

const PdfBytes = Type.Unsafe<Buffer>({ type: 'string', format: 'binary' });
const pdfResponse = {
  description: 'The receipt as a PDF document (Content-Disposition: attachment)',
  content: { 'application/pdf': { schema: PdfBytes } },
};

function receiptOptions(request: FastifyRequest, query: ReceiptQuery) {
  const account = request.auth!.account;
  const locale: Locale =
    query.lang ??
    (isLocale(account.locale) ? account.locale : undefined) ??
    localeFromHeader(request.headers['accept-language']) ??
    'en';
  return { account, options: { locale, ...(query.currency ? { currency: query.currency } : {}) } };
}

function presentReceipt(receipt: Receipt, pdfPath: string, query: ReceiptQuery) {
  const figures = receiptFigures(receipt);
  const usd = (cents: number, formatted: string) => ({
    amount: centsToUsd(cents),
    currency: 'USD',
    formatted,
  });
  const { display } = receipt;
  const search = new URLSearchParams(query as Record<string, string>).toString();
  return {
    kind: receipt.kind,
    number: receipt.number,
    issuedAt: receipt.issuedAt.toISOString(),
    status: receipt.status,
    language: receipt.locale,
    company: receipt.company,
    customer: receipt.customer,
    lines: receipt.lines.map((l) => ({
      description: l.description,
      quantity: l.quantity,
      unitAmount: usd(l.unitUsdCents, figures.amount(l.unitUsdCents)),
      amount: usd(l.totalUsdCents, figures.amount(l.totalUsdCents)),
    })),
    paymentMethod: receipt.paymentMethod,
    orderId: receipt.orderId,
    orderNumber: receipt.orderNumber,
    transactionId: receipt.transactionId,
    total: usd(receipt.totalUsdCents, figures.total),
    displayTotal:
      display && figures.display
        ? { amount: centsToUsd(display.minorUnits), currency: display.currency, formatted: figures.display }
        : null,
    exchangeRate: display
      ? {
          currency: display.currency,
          ratePerUsd: display.ratePerUsd,
          asOf: display.rateAsOf?.toISOString() ?? null,
        }
      : null,
    pdfUrl: `/api/v1${pdfPath}${search ? `?${search}` : ''}`,
  };
}

async function sendPdf(reply: FastifyReply, receipt: Receipt): Promise<FastifyReply> {
  const pdf = await receiptPdf(receipt);
  return reply
    .type('application/pdf')
    .header('content-disposition', `attachment; filename="receipt-${receipt.number}.pdf"`)
    .header('cache-control', 'private, no-store')
    .send(pdf);
}

export async function receiptsRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { purchaseReceipts } = app.container;
  const OrderParams = Type.Object({ id: Type.String({ maxLength: 100 }) });
  const TransactionParams = Type.Object({ id: Type.String({ maxLength: 100 }) });

  r.get(
    '/user/orders/:id/receipt',
    {
      schema: {
        operationId: 'getOrderReceipt',
        tags: ['Orders'],
        summary: 'The receipt of one of my orders',
        description:
          'A paid order (PROCESSING, COMPLETED or REFUNDED): the seller, the plan, the payment method, the USD amount charged and the amount in the display currency at the rate of the purchase. Another account’s order, or an unpaid one, is 404. `pdfUrl` is the PDF.',
        params: OrderParams,
        querystring: ReceiptQuery,
        response: { 200: Type.Object({ receipt: ReceiptSchema }), ...mobileErrors(401, 403, 404) },
      },
    },
    async (request) => {
      const { account, options } = receiptOptions(request, request.query);
      const receipt = await purchaseReceipts.forOrder(account, request.params.id, options);
      const pdfPath = `/user/orders/${encodeURIComponent(request.params.id)}/receipt.pdf`;
      return { receipt: presentReceipt(receipt, pdfPath, request.query) };
    },
  );

  r.get(
    '/user/orders/:id/receipt.pdf',
    {
      schema: {
        operationId: 'getOrderReceiptPdf',
        tags: ['Orders'],
        summary: 'The receipt of one of my orders as a PDF',
        description: 'The same receipt as `getOrderReceipt`, as a PDF file to save. 404 as there.',
        params: OrderParams,
        querystring: ReceiptQuery,
        response: { 200: pdfResponse, ...mobileErrors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { account, options } = receiptOptions(request, request.query);
      return sendPdf(reply, await purchaseReceipts.forOrder(account, request.params.id, options));
    },
  );

  r.get(
    '/user/wallet/transactions/:id/receipt',
    {
      schema: {
        operationId: 'getTopUpReceipt',
        tags: ['Wallet'],
        summary: 'The receipt of one of my wallet top-ups',
        description:
          'A wallet transaction that is a top-up paid by card or crypto (`hasReceipt` in the list). Another account’s, or any other row (a purchase: see its order’s receipt), is 404. `pdfUrl` is the PDF.',
        params: TransactionParams,
        querystring: ReceiptQuery,
        response: { 200: Type.Object({ receipt: ReceiptSchema }), ...mobileErrors(401, 403, 404) },
      },
    },
    async (request) => {
      const { account, options } = receiptOptions(request, request.query);
      const receipt = await purchaseReceipts.forTopUp(account, request.params.id, options);
      const pdfPath = `/user/wallet/transactions/${encodeURIComponent(request.params.id)}/receipt.pdf`;
      return { receipt: presentReceipt(receipt, pdfPath, request.query) };
    },
  );

  r.get(
    '/user/wallet/transactions/:id/receipt.pdf',
    {
      schema: {
        operationId: 'getTopUpReceiptPdf',
        tags: ['Wallet'],
        summary: 'The receipt of one of my wallet top-ups as a PDF',
        description: 'The same receipt as `getTopUpReceipt`, as a PDF file to save. 404 as there.',
        params: TransactionParams,
        querystring: ReceiptQuery,
        response: { 200: pdfResponse, ...mobileErrors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { account, options } = receiptOptions(request, request.query);
      return sendPdf(reply, await purchaseReceipts.forTopUp(account, request.params.id, options));
    },
  );
}
