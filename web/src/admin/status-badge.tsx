/** States of accounts, orders, eSIMs, tickets and payments, by how an operator should read them. */
const GOOD = new Set(['ACTIVE', 'COMPLETED', 'paid', 'RESOLVED', 'CLOSED']);
const BAD = new Set([
  'SUSPENDED',
  'BANNED',
  'DELETED',
  'REFUNDED',
  'CANCELLED',
  'EXPIRED',
  'DEPLETED',
  'failed',
  'refunded',
  'refund_manual',
]);
const PENDING = new Set(['PROCESSING', 'AWAITING_PAYMENT', 'PENDING', 'OPEN', 'pending', 'refund_pending']);

/** A state as a badge: green when all is well, red when it stopped, amber while in flight. */
export function StatusBadge({ status }: { status: string }) {
  const tone = GOOD.has(status) ? ' ok' : BAD.has(status) ? ' bad' : PENDING.has(status) ? ' warn' : '';
  return <span className={`admin-badge${tone}`}>{status}</span>;
}

/** Marks a test-mode order or eSIM (sandbox, test wallet): never real money. */
export function TestBadge({ livemode }: { livemode: boolean }) {
  return livemode ? null : <span className="admin-badge">test</span>;
}
