import type { AuditRecord } from '../audit/audit.service.js';
import type { OrderEventLog } from '../events/event-deliveries.repository.js';
import type { MailRecord } from '../mail/mailer.js';
import type { CancellationRow } from '../orders/cancellations.repository.js';
import type { FulfillmentAttemptRow } from '../orders/order-admin.js';
import type { EsimRow, OrderRow } from '../orders/ports.js';
import type { PaymentRecord } from '../payments/payments.service.js';
import type { PushRecord } from '../push/push-messages.js';
import type { WalletTransaction } from '../wallet/wallet.service.js';
import type { Job } from '../../jobs/queue.js';

/** An order's timeline (issue 33 O2): its items, and the stored facts they are made of. */

export const TIMELINE_KINDS = [
  'order',
  'payment',
  'wallet',
  'fulfilment',
  'job',
  'support',
  'operator',
  'cancellation',
  'mail',
  'push',
  'webhook',
] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

/** ok: it worked; failed: it did not (or needs someone); pending: still to happen; info: a fact. */
export type TimelineStatus = 'ok' | 'failed' | 'pending' | 'info';

export interface TimelineItem {
  at: Date;
  kind: TimelineKind;
  title: string;
  detail?: string;
  status?: TimelineStatus;
  /** Who did it, as the audit log names them (`operator:<id>`, `token`, `account:<id>`, `system`). */
  actor?: string;
  /** For an `operator:<id>` actor: who that is (their e-mail and name, as the audit log shows). */
  actorEmail?: string;
  actorName?: string;
  /** The row it comes from (mail, push, job, delivery, audit id), for finding it elsewhere. */
  ref?: string;
  /** A mail or push body shown with its credentials replaced (see ../mail/redact.ts). */
  redacted?: true;
}

/** Everything stored about one order, read by ./order-timeline.service.ts. */
export interface OrderFacts {
  order: OrderRow;
  esims: EsimRow[];
  attempts: FulfillmentAttemptRow[];
  payment?: PaymentRecord | undefined;
  ledger: WalletTransaction[];
  jobs: Job[];
  audit: AuditRecord[];
  /** The operators named by `audit` actors, by id. */
  operators: ReadonlyMap<string, { email: string; name: string }>;
  cancellation?: CancellationRow | undefined;
  mails: MailRecord[];
  pushes: PushRecord[];
  events: OrderEventLog[];
}

export const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
