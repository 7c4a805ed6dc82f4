import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { components } from '../../api/admin';
import { useCursorList } from '../../lib/cursor-list';
import { AdminPage } from '../AdminShell';
import { Table } from '../data-table';
import { adminApi, call } from '../api';
import { formatWhen } from '../tickets-ui';
import '../tickets.css';

type Entry = components['schemas']['AuditEntry'];
const FIELDS = ['actor', 'action', 'target', 'from', 'to'] as const;
type Filters = Record<(typeof FIELDS)[number], string>;
const PAGE = 50;

/** A day picked in the operator's time zone → the instant it starts (ISO). */
function dayStart(day: string, plusDays = 0): string | undefined {
  const [y, m, d] = day.split('-').map(Number);
  if (!y || !m || !d) return undefined;
  return new Date(y, m - 1, d + plusDays).toISOString();
}

const TARGET_PAGES: Record<string, string> = { account: 'accounts', order: 'orders', ticket: 'tickets' };

function Who({ entry }: { entry: Entry }) {
  if (entry.actor === 'token') return <span>admin token</span>;
  if (entry.actorEmail)
    return (
      <>
        {entry.actorName ? <div>{entry.actorName}</div> : null}
        <div className="audit-email">{entry.actorEmail}</div>
      </>
    );
  return <span className="admin-muted">{entry.actor ?? 'unknown'}</span>;
}

function Target({ entry }: { entry: Entry }) {
  const page = TARGET_PAGES[entry.targetType];
  return (
    <>
      <span className="admin-muted">{entry.targetType} </span>
      {page ? (
        <Link to={`/admin/${page}/${entry.targetId}`} className="admin-mono">
          {entry.targetId}
        </Link>
      ) : (
        <span className="admin-mono">{entry.targetId}</span>
      )}
    </>
  );
}

const shown = (value: unknown) => {
  const text = value === undefined ? '—' : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
};
const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** before → after, only what changed, one line per field. */
export function Diff({ before, after }: { before: unknown; after: unknown }) {
  if ((before === null || isRecord(before)) && (after === null || isRecord(after)) && (before || after)) {
    const b = before ?? {};
    const a = after ?? {};
    const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])].filter(
      (k) => JSON.stringify(b[k]) !== JSON.stringify(a[k]),
    );
    if (keys.length === 0) return <span className="admin-muted">no change</span>;
    return (
      <ul className="audit-diff">
        {keys.map((k) => (
          <li key={k}>
            <span className="admin-muted">{k}: </span>
            {k in b ? <del>{shown(b[k])}</del> : null}
            {k in b && k in a ? ' → ' : null}
            {k in a ? <ins>{shown(a[k])}</ins> : null}
          </li>
        ))}
      </ul>
    );
  }
  if (before === null && after === null) return <span className="admin-muted">—</span>;
  return (
    <ul className="audit-diff">
      <li>
        <del>{shown(before)}</del> → <ins>{shown(after)}</ins>
      </li>
    </ul>
  );
}

/** The audit log (issue 33 O2): who did what to which object, with filters and cursor paging. */
export default function Audit() {
  const [params, setParams] = useSearchParams();
  const applied = Object.fromEntries(FIELDS.map((f) => [f, params.get(f) ?? ''])) as Filters;
  const [form, setForm] = useState<Filters>(applied);

  const list = useCursorList(['admin', 'audit', applied], async (cursor) => {
    const from = applied.from ? dayStart(applied.from) : undefined;
    const to = applied.to ? dayStart(applied.to, 1) : undefined;
    const data = await call(
      adminApi.GET('/api/admin/v1/audit', {
        params: {
          query: {
            limit: PAGE,
            ...(applied.actor ? { actor: applied.actor } : {}),
            ...(applied.action ? { action: applied.action } : {}),
            ...(applied.target ? { target: applied.target } : {}),
            ...(from ? { from } : {}),
            ...(to ? { to } : {}),
            ...(cursor ? { cursor } : {}),
          },
        },
      }),
    );
    return { items: data.entries, nextCursor: data.nextCursor ?? null };
  });

  const apply = (next: Filters) => {
    setForm(next);
    const query = new URLSearchParams();
    for (const f of FIELDS) if (next[f].trim()) query.set(f, next[f].trim());
    setParams(query, { replace: true });
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    apply(form);
  };
  const field = (name: keyof Filters) => ({
    value: form[name],
    onChange: (e: { target: { value: string } }) => setForm({ ...form, [name]: e.target.value }),
  });

  return (
    <AdminPage title="Audit log">
      <form className="admin-filters" onSubmit={submit} aria-label="Filter the audit log">
        <label>
          Who
          <input
            {...field('actor')}
            placeholder="token or operator:<id>"
            list="audit-actors"
            maxLength={120}
          />
          <datalist id="audit-actors">
            <option value="token">Admin token</option>
            <option value="system">The service itself</option>
          </datalist>
        </label>
        <label>
          Action starts with
          <input {...field('action')} placeholder="ticket. or order.refund" maxLength={100} />
        </label>
        <label>
          Target id
          <input {...field('target')} placeholder="acc_…, ord_…, tkt_…" maxLength={200} />
        </label>
        <label>
          From
          <input type="date" {...field('from')} />
        </label>
        <label>
          To (including)
          <input type="date" {...field('to')} />
        </label>
        <button type="submit" className="primary">
          Filter
        </button>
        <button type="button" onClick={() => apply({ actor: '', action: '', target: '', from: '', to: '' })}>
          Clear
        </button>
      </form>

      {list.query.isPending ? (
        <p className="admin-muted">Loading the audit log…</p>
      ) : list.query.isError ? (
        <p className="admin-error" role="alert">
          {list.query.error.message}
        </p>
      ) : list.items.length === 0 ? (
        <p className="admin-muted">Nothing recorded matches.</p>
      ) : (
        <Table head={['When', 'Who', 'Action', 'Target', 'Before → after']}>
          {list.items.map((entry) => (
            <tr key={entry.id}>
              <td data-label="When">
                <time dateTime={entry.createdAt}>{formatWhen(entry.createdAt)}</time>
              </td>
              <td data-label="Who">
                <Who entry={entry} />
                {entry.actor && entry.actor !== applied.actor ? (
                  <div>
                    <button
                      type="button"
                      className="admin-link"
                      onClick={() => apply({ ...applied, actor: entry.actor! })}
                    >
                      only theirs
                    </button>
                  </div>
                ) : null}
              </td>
              <td className="admin-mono audit-action" data-label="Action">
                {entry.action}
              </td>
              <td data-label="Target">
                <Target entry={entry} />
              </td>
              <td data-label="Change">
                <Diff before={entry.before} after={entry.after} />
              </td>
            </tr>
          ))}
        </Table>
      )}
      {list.hasMore ? (
        <p>
          <button type="button" onClick={list.loadMore} disabled={list.loadingMore}>
            {list.loadingMore ? 'Loading…' : 'Show older entries'}
          </button>
        </p>
      ) : null}
    </AdminPage>
  );
}
