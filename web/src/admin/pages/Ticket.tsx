import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import type { components } from '../../api/admin';
import { AdminPage } from '../AdminShell';
import { money } from '../display';
import { adminApi, call } from '../api';
import { StatusBadge, TestBadge } from '../status-badge';
import { useCan } from '../operator';
import {
  formatWhen,
  operatorLabel,
  STATUS_LABEL,
  TicketStatusBadge,
  type AdminTicket,
  type TicketStatus,
} from '../tickets-ui';
import { TicketAssignment } from '../TicketAssignment';
import '../tickets.css';

type Detail = components['schemas']['TicketDetail'];
type Message = AdminTicket['messages'][number];

/** One ticket (issue 33 O2): the thread with internal notes, reply or note, status, owner, orders. */
export default function Ticket() {
  const { id = '' } = useParams();
  const key = ['admin', 'ticket', id];
  const detail = useQuery({
    queryKey: key,
    queryFn: () => call(adminApi.GET('/api/admin/v1/tickets/{id}', { params: { path: { id } } })),
  });

  if (detail.isPending) return <p className="admin-muted">Loading the ticket…</p>;
  if (detail.isError)
    return (
      <AdminPage title="Ticket">
        <p className="admin-error" role="alert">
          {detail.error.message}
        </p>
      </AdminPage>
    );
  const { ticket } = detail.data;
  return (
    <AdminPage title={ticket.subject} actions={<TicketStatusBadge status={ticket.status} />}>
      <div className="ticket-layout">
        <section className="ticket-main" aria-label="Conversation">
          <Thread messages={ticket.messages} />
          <Composer ticketId={ticket.id} queryKey={key} />
        </section>
        <aside className="ticket-side">
          <TicketFacts detail={detail.data} queryKey={key} />
          <CustomerOrders detail={detail.data} />
        </aside>
      </div>
    </AdminPage>
  );
}

function authorOf(m: Message): string {
  if (m.author === 'customer') return 'Customer';
  if (m.author === 'system') return 'System';
  return m.operator ? operatorLabel(m.operator) : 'Staff (admin token)';
}

function Thread({ messages }: { messages: Message[] }) {
  return (
    <ol className="ticket-thread">
      {messages.map((m) => (
        <li key={m.id} className={`ticket-msg ticket-msg-${m.author}${m.internal ? ' ticket-note' : ''}`}>
          {m.internal ? (
            <p className="ticket-note-flag">
              <strong>Internal note</strong> — the customer never sees this
            </p>
          ) : null}
          <div className="ticket-msg-head">
            <strong>{authorOf(m)}</strong>
            <time dateTime={m.createdAt}>{formatWhen(m.createdAt)}</time>
          </div>
          <p className="ticket-msg-body">{m.message}</p>
        </li>
      ))}
    </ol>
  );
}

function Composer({ ticketId, queryKey }: { ticketId: string; queryKey: string[] }) {
  const can = useCan();
  const client = useQueryClient();
  const [mode, setMode] = useState<'reply' | 'note'>('reply');
  const [text, setText] = useState('');
  const send = useMutation({
    mutationFn: async () => {
      const body = { message: text.trim() };
      const params = { path: { id: ticketId } };
      return mode === 'note'
        ? call(adminApi.POST('/api/admin/v1/tickets/{id}/notes', { params, body }))
        : call(adminApi.POST('/api/admin/v1/tickets/{id}/messages', { params, body }));
    },
    onSuccess: ({ ticket }) => {
      setText('');
      client.setQueryData<Detail>(queryKey, (old) => (old ? { ...old, ticket } : old));
      void client.invalidateQueries({ queryKey: ['admin', 'tickets'] });
    },
  });
  if (!can('tickets.write'))
    return <p className="admin-muted">Your role reads tickets; replies and notes need Support or Owner.</p>;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (text.trim()) send.mutate();
  };
  const note = mode === 'note';
  return (
    <form className={`ticket-composer${note ? ' ticket-note' : ''}`} onSubmit={submit}>
      <fieldset className="ticket-mode">
        <legend className="visually-hidden">Kind of message</legend>
        <label>
          <input type="radio" name="mode" checked={!note} onChange={() => setMode('reply')} /> Reply to
          customer
        </label>
        <label>
          <input type="radio" name="mode" checked={note} onChange={() => setMode('note')} /> Internal note
        </label>
      </fieldset>
      <label htmlFor="ticket-text" className={note ? 'ticket-note-flag' : 'admin-muted'}>
        {note
          ? 'Internal note — only operators see it; the customer is not told'
          : 'Reply — mailed to the customer, who can read it in the app'}
      </label>
      <textarea
        id="ticket-text"
        rows={5}
        maxLength={5000}
        value={text}
        onChange={(e) => setText(e.target.value)}
        required
      />
      {send.isError ? (
        <p className="admin-error" role="alert">
          {send.error.message}
        </p>
      ) : null}
      <div>
        <button type="submit" className="primary" disabled={send.isPending || !text.trim()}>
          {send.isPending ? 'Sending…' : note ? 'Add internal note' : 'Send reply'}
        </button>
      </div>
    </form>
  );
}

function TicketFacts({ detail, queryKey }: { detail: Detail; queryKey: string[] }) {
  const { ticket, customer } = detail;
  return (
    <section className="admin-card" aria-labelledby="ticket-facts">
      <h2 id="ticket-facts">Ticket</h2>
      <dl className="admin-dl">
        <dt>Customer</dt>
        <dd>
          <span className="admin-mono">{customer.email}</span>
          {ticket.guest ? <div className="admin-muted">Guest ({ticket.guest.name}), no account</div> : null}
          {customer.accountId ? (
            <div>
              <Link to={`/admin/accounts/${customer.accountId}`}>
                {customer.matchedByEmail ? 'Account with this address' : 'Open account'}
              </Link>
            </div>
          ) : null}
        </dd>
        <dt>Category</dt>
        <dd>{ticket.category}</dd>
        {ticket.orderId ? (
          <>
            <dt>About order</dt>
            <dd>
              <Link to={`/admin/orders/${ticket.orderId}`} className="admin-mono">
                {ticket.orderId}
              </Link>
            </dd>
          </>
        ) : null}
        <dt>Opened</dt>
        <dd>{formatWhen(ticket.createdAt)}</dd>
        <dt>Ticket id</dt>
        <dd className="admin-mono">{ticket.id}</dd>
      </dl>
      <StatusControl ticket={ticket} queryKey={queryKey} />
      <TicketAssignment ticket={ticket} queryKey={queryKey} />
    </section>
  );
}

function StatusControl({ ticket, queryKey }: { ticket: AdminTicket; queryKey: string[] }) {
  const can = useCan();
  const client = useQueryClient();
  const [status, setStatus] = useState<TicketStatus>(ticket.status);
  const change = useMutation({
    mutationFn: () =>
      call(
        adminApi.PATCH('/api/admin/v1/tickets/{id}', {
          params: { path: { id: ticket.id } },
          body: { status },
        }),
      ),
    onSuccess: (data) => {
      client.setQueryData<Detail>(queryKey, (old) => (old ? { ...old, ticket: data.ticket } : old));
      void client.invalidateQueries({ queryKey: ['admin', 'tickets'] });
    },
  });
  if (!can('tickets.write')) return null;
  return (
    <form
      className="ticket-control"
      onSubmit={(e) => {
        e.preventDefault();
        change.mutate();
      }}
    >
      <label>
        Status
        <select value={status} onChange={(e) => setStatus(e.target.value as TicketStatus)}>
          {(Object.keys(STATUS_LABEL) as TicketStatus[]).map((s) => (
            <option key={s} value={s}>
              {STATUS_LABEL[s]}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" disabled={change.isPending || status === ticket.status}>
        Set status
      </button>
      {change.isError ? (
        <p className="admin-error" role="alert">
          {change.error.message}
        </p>
      ) : null}
    </form>
  );
}

function CustomerOrders({ detail }: { detail: Detail }) {
  const { orders, customer } = detail;
  return (
    <section className="admin-card" aria-labelledby="ticket-orders">
      <h2 id="ticket-orders">Customer’s orders</h2>
      {orders.length === 0 ? (
        <p className="admin-muted">
          {customer.accountId ? 'No orders yet.' : 'A guest without an account: no orders.'}
        </p>
      ) : (
        <div className="admin-table-wrap">
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">Order</th>
                <th scope="col">State and amount</th>
              </tr>
            </thead>
            <tbody>
              {orders.map((o) => (
                <tr key={o.id}>
                  <td>
                    <Link to={`/admin/orders/${o.id}`} className="admin-mono ticket-order-number">
                      {o.orderNumber}
                    </Link>
                    <div className="admin-muted">{o.planName ?? 'Plan no longer listed'}</div>
                    <div className="admin-muted">{formatWhen(o.createdAt)}</div>
                  </td>
                  <td>
                    <StatusBadge status={o.status} /> <TestBadge livemode={o.livemode} />
                    <div>{money(o.amountUsd)}</div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
