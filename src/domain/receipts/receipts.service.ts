import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { payments, plans, walletTransactions } from '../../db/schema/index.js';
import { isCurrency, type Currency } from '../../lib/money.js';
import type { Locale } from '../../lib/geo/countries.js';
import { fromUsdCents, type ExchangeRateService } from '../catalog/exchange-rates.js';
import { planTitle } from '../catalog/plan-names.js';
import { AppError } from '../errors.js';
import type { Company } from '../legal/legal.service.js';
import type { OrdersRepository } from '../orders/orders.repository.js';
import { receiptLabels } from './receipt-labels.js';

/**
 * Receipts of orders and wallet top-ups (issue 30 T9), read from what the purchase left: the
 * order or the top-up's payment, its plan, and the exchange rate in force at the time.
 */

export type ReceiptMethod = 'wallet' | 'card' | 'crypto';

export interface ReceiptLine {
  description: string;
  quantity: number;
  unitUsdCents: number;
  totalUsdCents: number;
}

/** The amount in the display currency, as it was at the purchase. */
export interface ReceiptDisplayAmount {
  currency: Exclude<Currency, 'USD'>;
  minorUnits: number;
  ratePerUsd: string;
  /** When that rate was set (null: a built-in rate that was never stored). */
  rateAsOf: Date | null;
}

export interface Receipt {
  kind: 'order' | 'topup';
  number: string;
  issuedAt: Date;
  status: 'PAID' | 'REFUNDED';
  company: Company;
  customer: { name: string; email: string };
  lines: ReceiptLine[];
  paymentMethod: ReceiptMethod;
  orderId: string | null;
  orderNumber: string | null;
  transactionId: string | null;
  totalUsdCents: number;
  display: ReceiptDisplayAmount | null;
  locale: Locale;
}

export interface ReceiptReader {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  preferredCurrency: string;
}

export interface ReceiptOptions {
  locale: Locale;
  /** The display currency asked for; else the account's preferred one. */
  currency?: Currency;
}

/** Orders that were paid: an unpaid or cancelled order has nothing to receipt. */
const PAID_STATUSES = new Set(['PROCESSING', 'COMPLETED', 'REFUNDED']);

export interface ReceiptDeps {
  db: Db;
  orders: Pick<OrdersRepository, 'findOwnOrder'>;
  exchangeRates: Pick<ExchangeRateService, 'at'>;
  /** The seller named on every receipt (COMPANY_NAME, COMPANY_ADDRESS, SUPPORT_EMAIL). */
  legal: { company: Company };
}

export function createReceiptService(deps: ReceiptDeps) {
  const { db } = deps;
  const { company } = deps.legal;

  function customer(account: ReceiptReader) {
    return { name: `${account.firstName} ${account.lastName}`.trim(), email: account.email };
  }

  async function converted(
    usdCents: number,
    currency: Currency,
    at: Date,
  ): Promise<ReceiptDisplayAmount | null> {
    if (currency === 'USD') return null;
    const rate = await deps.exchangeRates.at(currency, at);
    return {
      currency,
      minorUnits: fromUsdCents(usdCents, rate.ratePerUsd),
      ratePerUsd: rate.ratePerUsd,
      rateAsOf: rate.asOf,
    };
  }

  function displayCurrency(account: ReceiptReader, options: ReceiptOptions): Currency {
    return options.currency ?? (isCurrency(account.preferredCurrency) ? account.preferredCurrency : 'USD');
  }

  async function paymentOf(paymentId: string | null) {
    if (!paymentId) return undefined;
    const [row] = await db.select().from(payments).where(eq(payments.id, paymentId));
    return row;
  }

  return {
    /** A paid order of the account (live, any channel); anything else is ORDER_NOT_FOUND. */
    async forOrder(account: ReceiptReader, orderId: string, options: ReceiptOptions): Promise<Receipt> {
      const order = await deps.orders.findOwnOrder(account.id, orderId, true);
      if (!order || !PAID_STATUSES.has(order.status)) {
        throw new AppError('ORDER_NOT_FOUND', 'No receipt: order not found or not paid');
      }
      const [plan] = await db.select().from(plans).where(eq(plans.id, order.planId));
      const payment = await paymentOf(order.paymentId);
      // Paid when the payment was confirmed (card, crypto), else when the wallet was charged.
      const issuedAt = payment?.paidAt ?? order.createdAt;
      const unit = Math.round(order.amountCents / order.quantity);
      return {
        kind: 'order',
        number: `R-${order.orderNumber}`,
        issuedAt,
        status: order.status === 'REFUNDED' ? 'REFUNDED' : 'PAID',
        company,
        customer: customer(account),
        lines: [
          {
            description: plan ? planTitle(plan, options.locale) : order.planId,
            quantity: order.quantity,
            unitUsdCents: unit,
            totalUsdCents: order.amountCents,
          },
        ],
        paymentMethod: order.paymentMethod,
        orderId: order.id,
        orderNumber: order.orderNumber,
        transactionId: null,
        totalUsdCents: order.amountCents,
        display: await converted(order.amountCents, displayCurrency(account, options), issuedAt),
        locale: options.locale,
      };
    },

    /**
     * A wallet top-up of the account: a deposit paid by card or crypto. Other rows (purchases,
     * refunds, operator adjustments, an order's card payment) are NOT_FOUND: an
     * order's receipt is the order's.
     */
    async forTopUp(account: ReceiptReader, transactionId: string, options: ReceiptOptions): Promise<Receipt> {
      const [row] = await db
        .select()
        .from(walletTransactions)
        .where(
          and(
            eq(walletTransactions.id, transactionId),
            eq(walletTransactions.accountId, account.id),
            eq(walletTransactions.livemode, true),
            eq(walletTransactions.kind, 'deposit'),
          ),
        );
      const payment = row && !row.orderId ? await paymentOf(row.paymentId) : undefined;
      if (!row || !payment || payment.purpose !== 'topup') {
        throw new AppError('NOT_FOUND', 'No receipt: not a wallet top-up of this account');
      }
      const issuedAt = payment.paidAt ?? row.createdAt;
      const paidIn = isCurrency(payment.currency) ? payment.currency : 'USD';
      // Paid in another currency: the receipt states what the payer paid, at the rate it was converted.
      const display: ReceiptDisplayAmount | null =
        paidIn !== 'USD'
          ? {
              currency: paidIn,
              minorUnits: payment.amountMinor,
              ratePerUsd: payment.exchangeRate,
              rateAsOf: payment.createdAt,
            }
          : await converted(row.amountCents, displayCurrency(account, options), issuedAt);
      return {
        kind: 'topup',
        number: `R-${row.id}`,
        issuedAt,
        status: payment.status === 'refunded' ? 'REFUNDED' : 'PAID',
        company,
        customer: customer(account),
        lines: [
          {
            description: receiptLabels(options.locale).topUp,
            quantity: 1,
            unitUsdCents: row.amountCents,
            totalUsdCents: row.amountCents,
          },
        ],
        paymentMethod: payment.method,
        orderId: null,
        orderNumber: null,
        transactionId: row.id,
        totalUsdCents: row.amountCents,
        display,
        locale: options.locale,
      };
    },
  };
}

export type ReceiptService = ReturnType<typeof createReceiptService>;
