import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api, unwrap } from '../api/client';
import type { Ticket } from '../api/types';
import { Field } from '../components/Field';
import { FormError } from '../components/FormError';
import { TicketMessages, TicketStatus } from '../components/TicketMessages';
import { useI18n, type MessageKey } from '../i18n';
import { formatDateTime } from '../lib/format';
import { useTitle } from '../lib/title';

const CATEGORIES = ['order', 'payment', 'esim', 'account', 'other'] as const;
type Category = (typeof CATEGORIES)[number];

export default function Support() {
  const { t } = useI18n();
  const [params] = useSearchParams();
  const ticketId = params.get('ticket');
  const tickets = useQuery({
    queryKey: ['tickets'],
    queryFn: () => unwrap(api.GET('/api/v1/support/tickets')),
  });
  const list = tickets.data?.tickets ?? [];
  const current = ticketId ? list.find((x) => x.id === ticketId) : undefined;
  useTitle(current ? current.subject : t('support.title'));

  return (
    <div className="container">
      <h1>{t('support.title')}</h1>
      <FormError error={tickets.error} />
      {ticketId ? (
        current ? (
          <Thread ticket={current} />
        ) : tickets.isPending ? (
          <p className="muted">{t('common.loading')}</p>
        ) : (
          <p className="form-error" role="alert">
            {t('error.TICKET_NOT_FOUND')}
          </p>
        )
      ) : (
        <div className="support-grid">
          <section className="card" aria-labelledby="tickets-heading">
            <h2 id="tickets-heading">{t('support.tickets')}</h2>
            {tickets.isSuccess && list.length === 0 ? <p className="muted">{t('support.none')}</p> : null}
            <ul className="ticket-list">
              {list.map((ticket) => (
                <li key={ticket.id}>
                  <Link to={`/support?ticket=${encodeURIComponent(ticket.id)}`}>
                    <span className="ticket-subject">{ticket.subject}</span>
                    <TicketStatus status={ticket.status} />
                  </Link>
                </li>
              ))}
            </ul>
          </section>
          <section className="card">
            <NewTicket />
          </section>
        </div>
      )}
    </div>
  );
}

function NewTicket() {
  const { t } = useI18n();
  const id = useId();
  const client = useQueryClient();
  const navigate = useNavigate();
  const [subject, setSubject] = useState('');
  const [category, setCategory] = useState<Category>('other');
  const [message, setMessage] = useState('');
  const create = useMutation({
    mutationFn: () => unwrap(api.POST('/api/v1/support/tickets', { body: { subject, category, message } })),
    onSuccess: async ({ ticket }) => {
      await client.invalidateQueries({ queryKey: ['tickets'] });
      void navigate(`/support?ticket=${encodeURIComponent(ticket.id)}`);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <form onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('support.new')}</h2>
      <Field
        label={t('support.subject')}
        required
        maxLength={200}
        value={subject}
        onChange={(e) => setSubject(e.target.value)}
      />
      <div className="field">
        <label htmlFor={`${id}-category`}>{t('support.category')}</label>
        <select
          id={`${id}-category`}
          value={category}
          onChange={(e) => setCategory(e.target.value as Category)}
        >
          {CATEGORIES.map((c) => (
            <option key={c} value={c}>
              {t(`support.category.${c}` as MessageKey)}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-message`}>{t('support.message')}</label>
        <textarea
          id={`${id}-message`}
          required
          maxLength={5000}
          rows={5}
          value={message}
          onChange={(e) => setMessage(e.target.value)}
        />
      </div>
      <FormError error={create.error} />
      <button type="submit" className="button primary wide" disabled={create.isPending}>
        {t('support.send')}
      </button>
    </form>
  );
}

function Thread({ ticket }: { ticket: Ticket }) {
  const { t, language } = useI18n();
  const id = useId();
  const client = useQueryClient();
  const [message, setMessage] = useState('');
  const reply = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/v1/support/tickets/{id}/messages', {
          params: { path: { id: ticket.id } },
          body: { message },
        }),
      ),
    onSuccess: ({ ticket: updated }) => {
      client.setQueryData(['tickets'], (old: { tickets: Ticket[] } | undefined) =>
        old ? { tickets: old.tickets.map((x) => (x.id === updated.id ? updated : x)) } : old,
      );
      setMessage('');
    },
  });
  const closed = ticket.status === 'CLOSED' || ticket.status === 'RESOLVED';
  const submit = (e: FormEvent) => {
    e.preventDefault();
    reply.mutate();
  };
  return (
    <section className="card thread" aria-labelledby={`${id}-subject`}>
      <nav aria-label={t('common.breadcrumb')} className="breadcrumb">
        <Link to="/support">{t('support.tickets')}</Link>
      </nav>
      <header className="thread-head">
        <h2 id={`${id}-subject`}>{ticket.subject}</h2>
        <TicketStatus status={ticket.status} />
      </header>
      <p className="hint">
        {t(
          `support.category.${(CATEGORIES as readonly string[]).includes(ticket.category) ? ticket.category : 'other'}` as MessageKey,
        )}{' '}
        · {formatDateTime(ticket.createdAt, language)}
        {ticket.orderId ? (
          <>
            {' · '}
            <Link to={`/orders?order=${encodeURIComponent(ticket.orderId)}`}>{t('support.aboutOrder')}</Link>
          </>
        ) : null}
      </p>
      <TicketMessages messages={ticket.messages} />
      <form onSubmit={submit}>
        <div className="field">
          <label htmlFor={`${id}-reply`}>{t('support.reply')}</label>
          <textarea
            id={`${id}-reply`}
            required
            maxLength={5000}
            rows={4}
            value={message}
            onChange={(e) => setMessage(e.target.value)}
            aria-describedby={closed ? `${id}-reopen` : undefined}
          />
          {closed ? (
            <small className="hint" id={`${id}-reopen`}>
              {t('support.reopenHint')}
            </small>
          ) : null}
        </div>
        <FormError error={reply.error} />
        <button type="submit" className="button primary" disabled={reply.isPending}>
          {closed ? t('support.replyReopen') : t('support.sendReply')}
        </button>
      </form>
    </section>
  );
}
