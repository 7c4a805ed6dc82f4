import type { OrderRow } from '../orders/ports.js';
import type { PaymentRecord } from '../payments/payments.service.js';
import type { Job } from '../../jobs/queue.js';
import { mailItems, pushItems, webhookItems } from './order-timeline-messages.js';
import { plural, type OrderFacts, type TimelineItem, type TimelineStatus } from './order-timeline.types.js';

export * from './order-timeline.types.js';

const usd = (cents: number) => `${(Math.abs(cents) / 100).toFixed(2)} USD`;

const JOB_TITLES: Record<string, string> = {
  'order.fulfill': 'Fulfilment job',
  'order.expire': 'Unpaid-order expiry job',
  'order.cancel': 'Cancellation job',
};

const AUDIT_TITLES: Record<string, string> = {
  'order.retry': 'Operator retried fulfilment',
  'order.refund': 'Operator refunded the order',
  'order.self_refund': 'Customer cancelled and was refunded',
};

/** A before/after summary in one line: `status PROCESSING → COMPLETED, outcome success`. */
function changeOf(before: unknown, after: unknown): string | undefined {
  const b = (before ?? {}) as Record<string, unknown>;
  const a = (after ?? {}) as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  if (keys.length === 0) return undefined;
  return keys
    .map((k) =>
      k in b && k in a && b[k] !== a[k]
        ? `${k} ${String(b[k])} → ${String(a[k])}`
        : `${k} ${String(a[k] ?? b[k])}`,
    )
    .join(', ');
}

function placedItem({ order }: OrderFacts): TimelineItem {
  return {
    at: order.createdAt,
    kind: 'order',
    title: `Order ${order.orderNumber} placed`,
    detail:
      `${order.channel === 'partner' ? 'Partner API' : 'App / web shop'}: ${order.quantity} × ${order.planId}, ` +
      `${usd(order.amountCents)} by ${order.paymentMethod}${order.livemode ? '' : ' (test mode)'}`,
    status: 'info',
  };
}

/** What the order row itself says happened after it was placed. */
function outcomeItems({ order, esims, ledger }: OrderFacts): TimelineItem[] {
  const items: TimelineItem[] = [];
  if (order.supportNotifiedAt)
    items.push({
      at: order.supportNotifiedAt,
      kind: 'support',
      title: 'Support told that the eSIM is delayed',
      detail: 'A system ticket on the account (and a mail to the support address)',
      status: 'info',
    });
  if (order.completedAt)
    items.push({
      at: order.completedAt,
      kind: 'order',
      title: order.topUpIccid
        ? 'Completed: top-up applied'
        : `Completed: ${plural(esims.length, 'eSIM')} issued`,
      detail: esims.map((e) => `ICCID ${e.iccid}`).join(', ') || undefined,
      status: 'ok',
    });
  if (order.status === 'CANCELLED')
    items.push({ at: order.updatedAt, kind: 'order', title: 'Cancelled: never paid', status: 'info' });
  if (order.status === 'REFUNDED' && !ledger.some((t) => t.kind === 'refund'))
    items.push({
      at: order.updatedAt,
      kind: 'order',
      title: 'Refunded',
      detail: order.lastError ?? undefined,
      status: 'info',
    });
  return items;
}

function paymentItems({ payment }: OrderFacts): TimelineItem[] {
  if (!payment) return [];
  const ref = payment.id;
  const amount = `${(payment.amountMinor / 100).toFixed(2)} ${payment.currency}`;
  const items: TimelineItem[] = [
    {
      at: payment.createdAt,
      kind: 'payment',
      title: `Checkout opened: ${payment.method} via ${payment.provider}`,
      detail: `${amount}${payment.providerRef ? `, provider id ${payment.providerRef}` : ''}`,
      status: 'info',
      ref,
    },
  ];
  if (payment.paidAt)
    items.push({
      at: payment.paidAt,
      kind: 'payment',
      title: 'Payment received',
      detail: amount,
      status: 'ok',
      ref,
    });
  const closing: Partial<Record<PaymentRecord['status'], [string, TimelineStatus]>> = {
    cancelled: ['Payment cancelled by the payer', 'failed'],
    expired: ['Payment expired unpaid', 'failed'],
    failed: ['Payment failed', 'failed'],
    refund_pending: ['Payment being refunded to the payer', 'pending'],
    refunded: ['Payment refunded to the payer', 'ok'],
    refund_manual: ['Payment must be refunded by hand (Reconcile page)', 'failed'],
  };
  const end = closing[payment.status];
  if (end) items.push({ at: payment.updatedAt, kind: 'payment', title: end[0], status: end[1], ref });
  return items;
}

function ledgerItems({ ledger, order }: OrderFacts, kind: 'purchase' | 'refund'): TimelineItem[] {
  return ledger
    .filter((t) => t.kind === kind)
    .map((t) =>
      t.kind === 'refund'
        ? {
            at: t.createdAt,
            kind: 'wallet' as const,
            title: `Refunded ${usd(t.amountCents)} to the wallet`,
            detail: order.status === 'REFUNDED' ? (order.lastError ?? undefined) : t.description || undefined,
            status: 'ok' as const,
            ref: t.id,
          }
        : {
            at: t.createdAt,
            kind: 'wallet' as const,
            title: `Wallet charged ${usd(t.amountCents)}`,
            detail: t.description || undefined,
            status: 'info' as const,
            ref: t.id,
          },
    );
}

function attemptItems({ attempts }: OrderFacts): TimelineItem[] {
  const by = { request: 'while placing the order', job: 'by the retry job', admin: 'by an operator' };
  return attempts.map((a) => ({
    at: a.createdAt,
    kind: 'fulfilment' as const,
    title: `Provider call ${a.attempt} ${by[a.source]}: ${a.outcome === 'success' ? 'eSIM issued' : 'failed'}`,
    detail: a.error ?? undefined,
    status: a.outcome === 'success' ? ('ok' as const) : ('failed' as const),
    ref: a.id,
  }));
}

/** The order state a job acts on: once the order left it, a pending run of that job is a no-op. */
const ACTS_ON: Record<string, OrderRow['status']> = {
  'order.fulfill': 'PROCESSING',
  'order.expire': 'AWAITING_PAYMENT',
};

function jobItems({ jobs, order }: OrderFacts): TimelineItem[] {
  const idle = (job: Job) =>
    (job.status === 'pending' || job.status === 'running') &&
    ACTS_ON[job.kind] !== undefined &&
    ACTS_ON[job.kind] !== order.status;
  return jobs
    .filter((job) => !idle(job))
    .map((job): TimelineItem => {
      const name = JOB_TITLES[job.kind] ?? `Job ${job.kind}`;
      const base = { kind: 'job' as const, ref: String(job.id) };
      const tries = `attempt ${job.attempts + 1} of ${job.maxAttempts}`;
      switch (job.status) {
        case 'pending':
          return {
            ...base,
            at: job.runAt,
            title: `${name}: next run planned`,
            detail: tries,
            status: 'pending',
          };
        case 'running':
          return { ...base, at: job.updatedAt, title: `${name}: running`, detail: tries, status: 'pending' };
        case 'failed':
          return {
            ...base,
            at: job.updatedAt,
            title: `${name}: dead-lettered after ${plural(job.attempts, 'attempt')} (retry it on the Jobs page)`,
            detail: job.lastError ?? undefined,
            status: 'failed',
          };
        default:
          return {
            ...base,
            at: job.updatedAt,
            title: `${name}: out of attempts, handled automatically`,
            detail: job.lastError ?? undefined,
            status: 'info',
          };
      }
    });
}

function auditItems({ audit, operators }: OrderFacts): TimelineItem[] {
  return audit.map((row) => {
    const operator = row.actor?.startsWith('operator:') ? operators.get(row.actor.slice(9)) : undefined;
    return {
      at: row.createdAt,
      kind: 'operator' as const,
      title: AUDIT_TITLES[row.action] ?? row.action,
      detail: changeOf(row.before, row.after),
      ...(row.actor ? { actor: row.actor } : {}),
      ...(operator ? { actorEmail: operator.email, actorName: operator.name } : {}),
      status: 'info' as const,
      ref: row.id,
    };
  });
}

function cancellationItems({ cancellation: c }: OrderFacts): TimelineItem[] {
  if (!c) return [];
  const items: TimelineItem[] = [
    { at: c.createdAt, kind: 'cancellation', title: 'Customer asked to cancel', status: 'info' },
  ];
  if (c.status === 'pending')
    items.push({ at: c.updatedAt, kind: 'cancellation', title: 'Cancellation under way', status: 'pending' });
  if (c.status === 'done')
    items.push({
      at: c.completedAt ?? c.updatedAt,
      kind: 'cancellation',
      title: 'Cancellation finished: eSIM cancelled at the provider',
      status: 'ok',
    });
  if (c.status === 'released')
    items.push({
      at: c.updatedAt,
      kind: 'cancellation',
      title: 'Cancellation refused; the order stays completed',
      detail: c.error ?? undefined,
      status: 'failed',
    });
  return items;
}

/**
 * The order's story in time order. Items of one instant keep the order of the sources above
 * (placed, paid, charged, provider calls, …), which is the order things happen in.
 */
export function buildTimeline(facts: OrderFacts, options: { revealSecrets: boolean }): TimelineItem[] {
  const items = [
    placedItem(facts),
    ...paymentItems(facts),
    ...ledgerItems(facts, 'purchase'),
    ...attemptItems(facts),
    ...outcomeItems(facts),
    ...auditItems(facts),
    ...cancellationItems(facts),
    ...ledgerItems(facts, 'refund'),
    ...jobItems(facts),
    ...webhookItems(facts),
    ...mailItems(facts, options.revealSecrets),
    ...pushItems(facts, options.revealSecrets),
  ];
  return items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => a.item.at.getTime() - b.item.at.getTime() || a.index - b.index)
    .map(({ item }) => item);
}
