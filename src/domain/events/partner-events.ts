import { eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { accounts } from '../../db/schema/index.js';
import type { esims, orders } from '../../db/schema/index.js';
import { centsToUsd } from '../../lib/money.js';
import { livemodeOf, type EmitEventInput, type EventOutbox } from './outbox.js';
import {
  presentPartnerEsim,
  presentPartnerOrder,
  lowBalanceThresholdOf,
  presentPartnerWallet,
  type EsimExpiringData,
  type EsimStatusChangedData,
  type EsimUsageThresholdData,
  type PartnerInstallState,
  type PartnerUsageThreshold,
  type WalletTopUpData,
} from './partner-objects.js';

type OrderRow = typeof orders.$inferSelect;
type EsimRow = typeof esims.$inferSelect;

/** eSIM usage thresholds announced by esim.usage_threshold, each once per eSIM and crossing. */
export const USAGE_THRESHOLDS = [50, 80, 90, 100] as const;

/** What a change of a wallet balance looked like (the ledger reports every posting). */
export interface BalanceChange {
  accountId: string;
  beforeCents: number;
  afterCents: number;
  /** false: the test wallet moved. */
  livemode: boolean;
  /** The mode's threshold when the posting already read it; otherwise it is read here. */
  lowBalanceThresholdCents?: number;
}

/** Percent of the volume used; a DEPLETED eSIM counts as 100 % whatever the last reading said. */
export function usagePercent(esim: Pick<EsimRow, 'status' | 'dataUsageMb' | 'totalVolumeMb'>): number {
  if (esim.status === 'DEPLETED') return 100;
  if (esim.totalVolumeMb <= 0) return 0;
  return (esim.dataUsageMb / esim.totalVolumeMb) * 100;
}

/**
 * The partner events, each built from the Partner API's own presenters (./partner-objects.ts) and
 * written through the outbox in the caller's transaction. Every method takes that transaction.
 */
export function createPartnerEvents(deps: { outbox: EventOutbox; publicBaseUrl: string }) {
  const { outbox, publicBaseUrl } = deps;

  function orderData(order: OrderRow, orderEsims: EsimRow[]): Record<string, unknown> {
    return presentPartnerOrder(order, orderEsims, publicBaseUrl, true);
  }

  /**
   * Partner events announce only orders placed through the Partner API: the account's web
   * checkouts (channel mobile) are none of the partner integration's business.
   */
  const announced = (order: Pick<OrderRow, 'channel'>) => order.channel === 'partner';

  function orderCompletedEvent(order: OrderRow, orderEsims: EsimRow[]): EmitEventInput | undefined {
    if (!announced(order)) return undefined;
    return {
      accountId: order.accountId,
      type: 'order.completed',
      livemode: livemodeOf(order),
      data: orderData(order, orderEsims),
    };
  }

  return {
    async orderCompleted(tx: Tx, order: OrderRow, orderEsims: EsimRow[]): Promise<void> {
      const event = orderCompletedEvent(order, orderEsims);
      if (event) await outbox.emitEvent(tx, event);
    },

    /** The event `orderCompleted` emits, for a completion that writes it in its own statement. */
    orderCompletedEvent,

    /** Charged, no eSIM yet, retries running. */
    async orderFulfillmentFailed(tx: Tx, order: OrderRow): Promise<void> {
      if (!announced(order)) return;
      await outbox.emitEvent(tx, {
        accountId: order.accountId,
        type: 'order.fulfillment_failed',
        livemode: livemodeOf(order),
        data: orderData(order, []),
      });
    },

    async orderRefunded(tx: Tx, order: OrderRow, orderEsims: EsimRow[] = []): Promise<void> {
      if (!announced(order)) return;
      await outbox.emitEvent(tx, {
        accountId: order.accountId,
        type: 'order.refunded',
        livemode: livemodeOf(order),
        data: orderData(order, orderEsims),
      });
    },

    /** `esim.usage_threshold`: `esim` (as stored after the claim) reached `threshold`. */
    async usageThreshold(tx: Tx, esim: EsimRow, threshold: PartnerUsageThreshold): Promise<void> {
      await outbox.emitEvent(tx, {
        accountId: esim.accountId,
        type: 'esim.usage_threshold',
        livemode: livemodeOf(esim),
        data: {
          esim: presentPartnerEsim(esim, publicBaseUrl, true),
          thresholdPercent: threshold,
          usageUpdatedAt: (esim.usageUpdatedAt ?? esim.usageCheckedAt ?? esim.updatedAt).toISOString(),
        } satisfies EsimUsageThresholdData,
      });
    },

    /** `esim.expiring`: `daysLeft` whole days (or less) are left before `esim.expiresAt`. */
    async esimExpiring(tx: Tx, esim: EsimRow, daysLeft: 3 | 1): Promise<void> {
      if (!esim.expiresAt) return;
      await outbox.emitEvent(tx, {
        accountId: esim.accountId,
        type: 'esim.expiring',
        livemode: livemodeOf(esim),
        data: {
          esim: presentPartnerEsim(esim, publicBaseUrl, true),
          daysLeft,
          expiresAt: esim.expiresAt.toISOString(),
        } satisfies EsimExpiringData,
      });
    },

    /** `esim.status_changed`: the profile's install state on the device changed. */
    async esimStatusChanged(
      tx: Tx,
      esim: EsimRow,
      installState: PartnerInstallState,
      previousInstallState: EsimStatusChangedData['previousInstallState'],
    ): Promise<void> {
      await outbox.emitEvent(tx, {
        accountId: esim.accountId,
        type: 'esim.status_changed',
        livemode: livemodeOf(esim),
        data: {
          esim: presentPartnerEsim(esim, publicBaseUrl, true),
          installState,
          previousInstallState,
        } satisfies EsimStatusChangedData,
      });
    },

    async topUpSucceeded(
      tx: Tx,
      input: { accountId: string; amountCents: number; paymentId: string; livemode?: boolean },
    ): Promise<void> {
      const [account] = await tx.select().from(accounts).where(eq(accounts.id, input.accountId));
      if (!account) return;
      await outbox.emitEvent(tx, {
        accountId: input.accountId,
        type: 'wallet.topup_succeeded',
        livemode: input.livemode ?? true,
        data: {
          paymentId: input.paymentId,
          amountUsd: centsToUsd(input.amountCents),
          wallet: presentPartnerWallet(account, input.livemode ?? true),
        } satisfies WalletTopUpData,
      });
    },

    /** Ledger observer: a posting that takes the balance from ≥ threshold to below it. */
    async balanceChanged(tx: Tx, change: BalanceChange): Promise<void> {
      if (change.afterCents >= change.beforeCents) return;
      // The common case (no crossing) needs no read when the posting told us the threshold.
      const known = change.lowBalanceThresholdCents;
      if (known !== undefined && !(change.beforeCents >= known && change.afterCents < known)) return;
      const [account] = await tx.select().from(accounts).where(eq(accounts.id, change.accountId));
      if (!account) return;
      const threshold = lowBalanceThresholdOf(account, change.livemode);
      if (!(change.beforeCents >= threshold && change.afterCents < threshold)) return;
      await outbox.emitEvent(tx, {
        accountId: account.id,
        type: 'wallet.low_balance',
        livemode: change.livemode,
        // The data is the Wallet itself, as GET /wallet answers it (docs/partner-guide.md).
        data: presentPartnerWallet(account, change.livemode),
      });
    },
  };
}

export type PartnerEvents = ReturnType<typeof createPartnerEvents>;
