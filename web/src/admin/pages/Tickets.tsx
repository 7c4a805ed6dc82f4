import { Link, useSearchParams } from 'react-router';
import { useCursorList } from '../../lib/cursor-list';
import { AdminPage } from '../AdminShell';
import { Table } from '../data-table';
import { adminApi, call } from '../api';
import {
  formatWhen,
  lastActivity,
  operatorLabel,
  TicketStatusBadge,
  type AdminTicket,
  type TicketStatus,
} from '../tickets-ui';
import '../tickets.css';

const TABS = [
  { id: 'open', label: 'Open', statuses: ['OPEN'] },
  { id: 'waiting', label: 'Waiting for customer', statuses: ['ANSWERED'] },
  { id: 'closed', label: 'Closed', statuses: ['RESOLVED', 'CLOSED'] },
] as const satisfies ReadonlyArray<{ id: string; label: string; statuses: readonly TicketStatus[] }>;
type TabId = (typeof TABS)[number]['id'];

const WHO = [
  { id: 'me', label: 'Assigned to me' },
  { id: 'unassigned', label: 'Unassigned' },
  { id: 'all', label: 'All' },
] as const;
type Who = (typeof WHO)[number]['id'];

const PAGE = 25;

/** The ticket inbox (issue 33 O2): by state, then by who owns the ticket; newest activity first. */
export default function Tickets() {
  const [params, setParams] = useSearchParams();
  const tab = TABS.find((t) => t.id === params.get('tab')) ?? TABS[0];
  const who: Who = WHO.find((w) => w.id === params.get('who'))?.id ?? 'all';

  const set = (next: { tab?: TabId; who?: Who }) => {
    const merged = new URLSearchParams(params);
    if (next.tab) merged.set('tab', next.tab);
    if (next.who) merged.set('who', next.who);
    setParams(merged, { replace: true });
  };

  const list = useCursorList(['admin', 'tickets', tab.id, who], async (cursor) => {
    const data = await call(
      adminApi.GET('/api/admin/v1/tickets', {
        params: {
          query: {
            status: [...tab.statuses],
            ...(who === 'all' ? {} : { assignee: who }),
            limit: PAGE,
            ...(cursor ? { cursor } : {}),
          },
        },
      }),
    );
    return { items: data.tickets, nextCursor: data.nextCursor ?? null };
  });

  return (
    <AdminPage title="Tickets">
      <div className="tickets-bar">
        <div className="tickets-tabs" role="group" aria-label="Ticket state">
          {TABS.map((t) => (
            <button
              key={t.id}
              type="button"
              aria-pressed={t.id === tab.id}
              onClick={() => set({ tab: t.id })}
            >
              {t.label}
            </button>
          ))}
        </div>
        <label className="tickets-who">
          Show
          <select value={who} onChange={(e) => set({ who: e.target.value as Who })}>
            {WHO.map((w) => (
              <option key={w.id} value={w.id}>
                {w.label}
              </option>
            ))}
          </select>
        </label>
      </div>

      {list.query.isPending ? (
        <p className="admin-muted">Loading tickets…</p>
      ) : list.query.isError ? (
        <p className="admin-error" role="alert">
          {list.query.error.message}
        </p>
      ) : list.items.length === 0 ? (
        <p className="admin-muted">No tickets here.</p>
      ) : (
        <Table head={['Subject', 'Customer', 'Assignee', 'Last activity']}>
          {list.items.map((ticket) => (
            <TicketRow key={ticket.id} ticket={ticket} />
          ))}
        </Table>
      )}
      {list.hasMore ? (
        <p>
          <button type="button" onClick={list.loadMore} disabled={list.loadingMore}>
            {list.loadingMore ? 'Loading…' : 'Show more'}
          </button>
        </p>
      ) : null}
    </AdminPage>
  );
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function TicketRow({ ticket }: { ticket: AdminTicket }) {
  const notes = ticket.messages.filter((m) => m.internal).length;
  return (
    <tr>
      <td data-label="Subject">
        <Link to={`/admin/tickets/${ticket.id}`}>{ticket.subject}</Link>
        <div className="tickets-sub">
          <TicketStatusBadge status={ticket.status} />
          {ticket.systemCreated ? <span className="admin-badge">System</span> : null}
          <span className="admin-muted">
            {plural(ticket.messages.length - notes, 'message')}
            {notes ? `, ${plural(notes, 'internal note')}` : ''}
          </span>
        </div>
      </td>
      <td data-label="Customer">
        <span className="admin-mono">{ticket.email}</span>
        {ticket.guest ? <div className="admin-muted">Guest: {ticket.guest.name}</div> : null}
      </td>
      <td data-label="Assignee">
        {ticket.assignee ? operatorLabel(ticket.assignee) : <span className="admin-muted">Unassigned</span>}
      </td>
      <td data-label="Last activity">
        <time dateTime={lastActivity(ticket)}>{formatWhen(lastActivity(ticket))}</time>
      </td>
    </tr>
  );
}
