import { dateTime } from './display';

/**
 * Times in the operator's own locale and time zone (as the rest of the console), the UTC instant
 * on hover; `seconds` where steps follow each other closely (a timeline).
 */
export function When({ iso, seconds = false }: { iso: string | null | undefined; seconds?: boolean }) {
  if (!iso) return <span className="admin-muted">—</span>;
  const text = seconds
    ? new Date(iso).toLocaleString(undefined, {
        day: 'numeric',
        month: 'short',
        year: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      })
    : dateTime(iso);
  return (
    <time dateTime={iso} title={iso}>
      {text}
    </time>
  );
}

/** A badge whose words are not a state (a passed check, a to-come step). */
export function Badge({ tone, children }: { tone?: 'ok' | 'warn' | 'bad'; children: string }) {
  return <span className={tone ? `admin-badge ${tone}` : 'admin-badge'}>{children}</span>;
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
