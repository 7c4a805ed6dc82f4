import type { DbOrTx } from '../../db/client.js';

/**
 * The two ports of issue 31's traveller notifications, fixed before their implementations so the
 * areas that use them (alerts, auto top-up, support) and the push delivery can be built apart.
 */

/** One push notification, as every transport (outbox, FCM, APNs, Web Push) sends it. */
export interface PushMessage {
  title: string;
  body: string;
  /**
   * String values only (FCM's rule). Every traveller alert carries `url` (the page it opens,
   * a path such as `/esims/<iccid>`) and, when it is about an eSIM, `iccid`.
   */
  data: Record<string, string>;
}

/** Push delivery (src/domain/push/): durable jobs per device, retried, gone tokens removed. */
export interface PushPort {
  /**
   * Queues `message` to each of the account's registered devices, in the caller's transaction
   * (nothing is sent if it rolls back). A second call with the same `dedupeKey` queues nothing.
   */
  toAccount(tx: DbOrTx, accountId: string, message: PushMessage, dedupeKey: string): Promise<void>;
}

/** What a traveller is told about; the alert service words each in the account's language. */
export type TravellerAlert =
  | { kind: 'usage'; iccid: string; percent: 80 | 100 }
  | { kind: 'expiring'; iccid: string; daysLeft: 3 | 1 }
  | { kind: 'esim_ready'; iccid: string; orderId: string }
  | { kind: 'ticket_answered'; ticketId: string }
  | { kind: 'auto_topup_succeeded'; iccid: string; orderId: string; amountCents: number }
  | {
      kind: 'auto_topup_failed';
      iccid: string;
      reason: 'insufficient_balance' | 'monthly_limit' | 'plan_unavailable' | 'provider_error';
    };

/** Traveller alerts (src/domain/alerts/): a push to each device and an e-mail, per preferences. */
export interface AlertPort {
  /**
   * Queues the alert's push and e-mail in the caller's transaction, each at most once per
   * `dedupeKey` (for example `usage:<esimId>:80`), honouring the account's preferences.
   */
  send(tx: DbOrTx, accountId: string, alert: TravellerAlert, dedupeKey: string): Promise<void>;
}
