import { createOrderPaymentHandler } from '../domain/orders/order-payments.js';
import { createPaymentProviders } from '../providers/payments/registry.js';
import { createPaymentRefunds } from '../domain/payments/payment-refunds.js';
import { createPaymentsService } from '../domain/payments/payments.service.js';
import { createWalletService } from '../domain/wallet/wallet.service.js';
import type { Infrastructure } from './infrastructure.js';
import type { Events } from './events.js';
import type { Catalog } from './catalog.js';

/** The wallet (balances and ledger) and payments in (card, crypto) with their providers. */
export function buildPayments(
  infra: Infrastructure,
  { partnerEvents, receipts }: Events,
  { exchangeRates }: Catalog,
) {
  const { config, db, clock, queue, log, audit, jobHandlers } = infra;
  const wallet = createWalletService({ db, clock, audit, ledgerObserver: partnerEvents });
  const paymentProviders = createPaymentProviders(config, { db, clock });
  /** Payments → orders is a port: payments publishes "payment succeeded/closed", orders handles it. */
  const orderPayments = createOrderPaymentHandler({
    db,
    clock,
    queue,
    events: partnerEvents,
    fulfillmentMaxAttempts: config.fulfillment.maxAttempts,
  });
  const payments = createPaymentsService({
    db,
    clock,
    log,
    publicBaseUrl: config.publicBaseUrl,
    exchangeRates,
    providers: paymentProviders,
    receipts: receipts.scheduler,
    events: partnerEvents,
    orders: orderPayments,
    appUrlSchemes: config.appUrlSchemes,
    queue,
  });
  const paymentRefunds = createPaymentRefunds({ db, clock, log, audit, providers: paymentProviders });
  paymentRefunds.registerJobs(jobHandlers);
  payments.registerJobs(jobHandlers);
  return { wallet, paymentProviders, payments, paymentRefunds };
}
export type Payments = ReturnType<typeof buildPayments>;
