import type { ReactNode } from 'react';
import { formatDateTime } from '../lib/format';

/** The console is English (an internal tool); times in the operator's own time zone, ISO on hover. */
export function When({ iso }: { iso: string | null | undefined }) {
  if (!iso) return <span className="admin-muted">—</span>;
  return (
    <time dateTime={iso} title={iso}>
      {formatDateTime(iso, 'en-GB')}
    </time>
  );
}

export function usd(amount: number): string {
  return `${amount.toFixed(2)} USD`;
}

type Tone = 'ok' | 'warn' | 'bad' | undefined;

const TONES: Record<string, Tone> = {
  COMPLETED: 'ok',
  PROCESSING: 'warn',
  AWAITING_PAYMENT: undefined,
  CANCELLED: undefined,
  REFUNDED: 'bad',
  ok: 'ok',
  sent: 'ok',
  succeeded: 'ok',
  failed: 'bad',
  gone: 'bad',
  pending: 'warn',
  running: 'warn',
  refund_manual: 'bad',
  refund_pending: 'warn',
};

const LABELS: Record<string, string> = {
  AWAITING_PAYMENT: 'Awaiting payment',
  PROCESSING: 'Processing',
  COMPLETED: 'Completed',
  CANCELLED: 'Cancelled',
  REFUNDED: 'Refunded',
};

/** A state as a coloured badge: green done, amber in progress, red failed or refunded. */
export function StateBadge({ state, children }: { state: string; children?: ReactNode }) {
  const tone = TONES[state];
  return (
    <span className={tone ? `admin-badge ${tone}` : 'admin-badge'}>{children ?? LABELS[state] ?? state}</span>
  );
}

/** An API error (or nothing) as the console's error box. */
export function ErrorBox({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p role="alert" className="admin-error">
      {error instanceof Error ? error.message : 'Something went wrong'}
    </p>
  );
}
