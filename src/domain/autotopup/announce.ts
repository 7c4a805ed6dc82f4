import { eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import type { autoTopUpAttempts } from '../../db/schema/index.js';
import { esims, orders } from '../../db/schema/index.js';
import { centsToUsd } from '../../lib/money.js';
import type { AlertPort } from '../alerts/ports.js';
import type { EventOutbox } from '../events/outbox.js';
import { presentPartnerEsim, type PartnerEsim } from '../events/partner-objects.js';

export type AttemptRow = typeof autoTopUpAttempts.$inferSelect;
export type FailureReason = NonNullable<AttemptRow['reason']>;

/** `esim.auto_topup_succeeded` data: the eSIM after the top-up and the order that bought it. */
export type AutoTopUpSucceededData = {
  esim: PartnerEsim;
  orderId: string;
  planId: string;
  amountUsd: number;
};

/** `esim.auto_topup_failed` data: the eSIM, the plan it would have bought and why it did not. */
export type AutoTopUpFailedData = {
  esim: PartnerEsim;
  planId: string;
  reason: FailureReason;
  /** The top-up order when one was placed (then refunded), else null. */
  orderId: string | null;
};

/**
 * Tells the outcome of one crossing, in the transaction that settled its attempt (so exactly
 * once): Partner API eSIMs get the partner event (as every partner event, only for eSIMs of
 * Partner API orders), the account's own eSIMs (web and app) a traveller alert, push and e-mail.
 */
export function createAutoTopUpAnnouncer(deps: {
  outbox: EventOutbox;
  alerts: AlertPort;
  publicBaseUrl: string;
}) {
  return async function announce(tx: Tx, attempt: AttemptRow): Promise<void> {
    const [found] = await tx
      .select({ esim: esims, channel: orders.channel })
      .from(esims)
      .innerJoin(orders, eq(orders.id, esims.orderId))
      .where(eq(esims.id, attempt.esimId));
    if (!found) return;
    const { esim } = found;
    const dedupeKey = `auto-topup:${esim.id}:${attempt.crossing}`;
    const succeeded = attempt.status === 'succeeded';
    if (found.channel === 'partner') {
      const partnerEsim = presentPartnerEsim(esim, deps.publicBaseUrl, true);
      await deps.outbox.emitEvent(tx, {
        accountId: esim.accountId,
        type: succeeded ? 'esim.auto_topup_succeeded' : 'esim.auto_topup_failed',
        livemode: esim.livemode,
        data: succeeded
          ? ({
              esim: partnerEsim,
              orderId: attempt.orderId!,
              planId: attempt.planId,
              amountUsd: centsToUsd(attempt.amountCents ?? 0),
            } satisfies AutoTopUpSucceededData)
          : ({
              esim: partnerEsim,
              planId: attempt.planId,
              reason: attempt.reason ?? 'provider_error',
              orderId: attempt.orderId,
            } satisfies AutoTopUpFailedData),
      });
      return;
    }
    await deps.alerts.send(
      tx,
      esim.accountId,
      succeeded
        ? {
            kind: 'auto_topup_succeeded',
            iccid: esim.iccid,
            orderId: attempt.orderId!,
            amountCents: attempt.amountCents ?? 0,
          }
        : { kind: 'auto_topup_failed', iccid: esim.iccid, reason: attempt.reason ?? 'provider_error' },
      dedupeKey,
    );
  };
}

export type AutoTopUpAnnouncer = ReturnType<typeof createAutoTopUpAnnouncer>;
