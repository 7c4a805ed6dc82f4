import type { esims, orders } from '../../db/schema/index.js';
import { centsToUsd } from '../../lib/money.js';
import { installUrl, qrCodeUrl } from '../orders/esim-links.js';

/**
 * The partner-facing objects (order, eSIM, wallet) exactly as the Partner API answers them and as
 * partner events carry them in `data`: one presenter each, used by both. The TypeBox schemas of
 * these shapes (the OpenAPI contract) stay in src/http/shared, which checks at compile time that
 * they describe these types.
 */

type OrderRow = typeof orders.$inferSelect;
type EsimRow = typeof esims.$inferSelect;

export type PartnerEsim = {
  id: string;
  iccid: string;
  activationCode: string;
  qrCodeUrl: string;
  smdpAddress: string;
  installUrl: string;
  status: EsimRow['status'];
  dataUsageMb?: number;
  totalVolumeMb?: number;
  livemode: boolean;
  /** On the eSIM endpoints only (GET/PATCH /esims…): the eSIM's auto top-up settings. */
  autoTopUp?: AutoTopUpView;
};

/** An eSIM's auto top-up settings as both APIs show them (src/domain/autotopup/). */
export type AutoTopUpView = {
  enabled: boolean;
  planId: string | null;
  whenPercentUsed: number;
  maxPerMonth: number;
};

export type PartnerOrderSummary = {
  id: string;
  orderNumber: string;
  status: OrderRow['status'];
  amountUsd: number;
  planId: string;
  quantity: number;
  createdAt: string;
  livemode: boolean;
};

export type PartnerOrder = PartnerOrderSummary & { esims: PartnerEsim[] };

export type PartnerWallet = {
  balanceUsd: number;
  currency: 'USD';
  lowBalanceThreshold: number;
};

/** Partner eSIM; `withUsage` adds the live usage fields of the order detail. */
export function presentPartnerEsim(esim: EsimRow, publicBaseUrl: string, withUsage = false): PartnerEsim {
  return {
    id: esim.id,
    iccid: esim.iccid,
    activationCode: esim.activationCode,
    qrCodeUrl: qrCodeUrl(publicBaseUrl, esim.qrToken),
    smdpAddress: esim.smdpAddress,
    installUrl: installUrl(publicBaseUrl, esim.installToken),
    status: esim.status,
    ...(withUsage ? { dataUsageMb: esim.dataUsageMb, totalVolumeMb: esim.totalVolumeMb } : {}),
    livemode: esim.livemode,
  };
}

export function presentPartnerOrderSummary(order: OrderRow): PartnerOrderSummary {
  return {
    id: order.id,
    orderNumber: order.orderNumber,
    status: order.status,
    amountUsd: centsToUsd(order.amountCents),
    planId: order.planId,
    quantity: order.quantity,
    createdAt: order.createdAt.toISOString(),
    livemode: order.livemode,
  };
}

export function presentPartnerOrder(
  order: OrderRow,
  esims: EsimRow[],
  publicBaseUrl: string,
  withUsage = false,
): PartnerOrder {
  return {
    ...presentPartnerOrderSummary(order),
    esims: esims.map((e) => presentPartnerEsim(e, publicBaseUrl, withUsage)),
  };
}

/** The account columns of both wallets: balance and low-balance threshold per mode. */
export type WalletColumns = {
  walletBalanceCents: number;
  testWalletBalanceCents: number;
  lowBalanceThresholdCents: number;
  testLowBalanceThresholdCents: number;
};

/** The low-balance threshold of one mode (USD cents); test mode has its own (issue 28 H5). */
export function lowBalanceThresholdOf(account: WalletColumns, livemode: boolean): number {
  return livemode ? account.lowBalanceThresholdCents : account.testLowBalanceThresholdCents;
}

/** `livemode` false presents the test wallet (test-mode keys, docs/partner-reference.md "Test mode"). */
export function presentPartnerWallet(account: WalletColumns, livemode = true): PartnerWallet {
  return {
    balanceUsd: centsToUsd(livemode ? account.walletBalanceCents : account.testWalletBalanceCents),
    currency: 'USD',
    lowBalanceThreshold: centsToUsd(lowBalanceThresholdOf(account, livemode)),
  };
}

/** `wallet.topup_succeeded` data: the credited top-up and the wallet after it. */
export type WalletTopUpData = { paymentId: string; amountUsd: number; wallet: PartnerWallet };

/** The usage thresholds esim.usage_threshold announces, each once per eSIM and crossing. */
export type PartnerUsageThreshold = 50 | 80 | 90 | 100;

/**
 * `esim.usage_threshold` data: the eSIM (with usage), the threshold it reached and when the
 * provider measured that usage (ISO 8601).
 */
export type EsimUsageThresholdData = {
  esim: PartnerEsim;
  thresholdPercent: PartnerUsageThreshold;
  usageUpdatedAt: string;
};

/** `esim.expiring` data: the eSIM, whole days left (3, then 1) and when its validity ends. */
export type EsimExpiringData = { esim: PartnerEsim; daysLeft: 3 | 1; expiresAt: string };

/** The profile's state on the device, as `esim.status_changed` announces it. */
export type PartnerInstallState = 'INSTALLED' | 'ENABLED' | 'DISABLED' | 'DELETED';

/** `esim.status_changed` data: the eSIM, its new install state and the one before (null: none). */
export type EsimStatusChangedData = {
  esim: PartnerEsim;
  installState: PartnerInstallState;
  previousInstallState: PartnerInstallState | 'RELEASED' | null;
};

/** `ping` data: which endpoint was tested. */
export type PingData = { endpointId: string; message: string };
