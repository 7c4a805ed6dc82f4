import type { Db } from '../../db/client.js';
import type { AuditService } from '../audit/audit.service.js';
import { AppError } from '../errors.js';
import { orderEventLog } from '../events/event-deliveries.repository.js';
import type { Mailer } from '../mail/mailer.js';
import { createAdminOrdersRepository } from '../orders/admin-orders.repository.js';
import { createCancellationsRepository } from '../orders/cancellations.repository.js';
import type { OrderService } from '../orders/orders.service.js';
import { operatorsRepository } from '../operators/operators.repository.js';
import { cancelJobKey, fulfillJobKey } from '../orders/ports.js';
import type { PaymentsService } from '../payments/payments.service.js';
import type { PushService } from '../push/push.service.js';
import type { WalletService } from '../wallet/wallet.service.js';
import type { DeadLetter } from './dead-letter.js';
import { buildTimeline, type OrderFacts, type TimelineItem } from './order-timeline.js';

/**
 * Mail and push about an order are found among what went to its buyer (and to the support
 * address) from its creation on, for this long: receipts, "eSIM ready", delay notices and
 * cancellations all come within hours; a month bounds the read for old orders.
 */
export const TIMELINE_WINDOW_MS = 30 * 24 * 60 * 60 * 1000;
/** At most this many mails and pushes are read as candidates (a busy partner account). */
const CANDIDATES = 500;

export interface OrderTimeline {
  orderId: string;
  orderNumber: string;
  items: TimelineItem[];
}

/**
 * An order's timeline for the operator console (issue 33 O2): every stored trace of the order,
 * each read by the repository that owns it, merged by ./order-timeline.ts.
 */
export function createOrderTimeline(deps: {
  db: Db;
  orders: OrderService;
  payments: Pick<PaymentsService, 'get'>;
  wallet: Pick<WalletService, 'transactionsOfOrder'>;
  deadLetter: Pick<DeadLetter, 'openUnder'>;
  audit: Pick<AuditService, 'list'>;
  mailer: Pick<Mailer, 'listTo'>;
  push: Pick<PushService, 'listBetween'>;
  supportEmail: string;
}) {
  const { db } = deps;
  const listing = createAdminOrdersRepository(db);
  const cancellations = createCancellationsRepository(db);

  /** Mail or push that names the order, one of its eSIMs, or its order number. */
  function mentions(needles: string[], ...haystacks: Array<string | null>): boolean {
    return haystacks.some((h) => h !== null && needles.some((n) => h.includes(n)));
  }

  async function facts(orderId: string): Promise<OrderFacts> {
    const order = await listing.findWithEmail(orderId);
    if (!order) throw new AppError('ORDER_NOT_FOUND', 'Order not found');
    const window = {
      from: order.createdAt,
      until: new Date(order.createdAt.getTime() + TIMELINE_WINDOW_MS),
      limit: CANDIDATES,
    };
    const [esims, attempts, payment, ledger, jobs, audit, cancellation, mails, pushes, events] =
      await Promise.all([
        deps.orders.fulfillment.esimsOfOrder(order),
        deps.orders.repository.attemptsOf(order.id),
        order.paymentId ? deps.payments.get(order.paymentId) : Promise.resolve(undefined),
        deps.wallet.transactionsOfOrder(order.id),
        deps.deadLetter.openUnder([fulfillJobKey(order.id), cancelJobKey(order.id), `expire:${order.id}`]),
        deps.audit.list({ target: order.id, limit: 100 }),
        cancellations.find(order.id),
        deps.mailer.listTo({ to: [order.accountEmail, deps.supportEmail], ...window }),
        deps.push.listBetween({ accountId: order.accountId, ...window }),
        orderEventLog(db, order),
      ]);
    const operatorIds = [
      ...new Set(audit.flatMap((r) => (r.actor?.startsWith('operator:') ? [r.actor.slice(9)] : []))),
    ];
    const operators = new Map<string, { email: string; name: string }>();
    for (const id of operatorIds) {
      const row = await operatorsRepository.byId(db, id);
      if (row) operators.set(id, { email: row.email, name: row.name });
    }
    const needles = [order.id, order.orderNumber, ...esims.map((e) => e.id)];
    return {
      order,
      esims,
      attempts,
      payment,
      ledger,
      jobs,
      audit,
      operators,
      cancellation,
      mails: mails.filter((m) => mentions(needles, m.dedupeKey, m.subject, m.text)),
      pushes: pushes.filter((p) => mentions(needles, p.dedupeKey, JSON.stringify(p.data))),
      events,
    };
  }

  return {
    /** 404 ORDER_NOT_FOUND for an unknown id; mail and push bodies redacted unless `revealSecrets`. */
    async get(orderId: string, options: { revealSecrets: boolean }): Promise<OrderTimeline> {
      const found = await facts(orderId);
      return {
        orderId: found.order.id,
        orderNumber: found.order.orderNumber,
        items: buildTimeline(found, options),
      };
    },
  };
}

export type OrderTimelineService = ReturnType<typeof createOrderTimeline>;
