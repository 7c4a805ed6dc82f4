import type { ReactNode } from 'react';
import { formatDateTime } from '../lib/format';

/**
 * The console is English (an internal tool); times in the operator's own time zone, ISO (UTC) on
 * hover; `seconds` where steps follow each other closely (a timeline).
 */
export function When({ iso, seconds = false }: { iso: string | null | undefined; seconds?: boolean }) {
  if (!iso) return <span className="admin-muted">—</span>;
  const text = seconds
    ? new Date(iso).toLocaleString('en-GB', {
        day: 'numeric',
        month: 'short',
        year: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      })
    : formatDateTime(iso, 'en-GB');
  return (
    <time dateTime={iso} title={iso}>
      {text}
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
