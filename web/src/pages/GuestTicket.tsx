import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { api, ApiError, unwrap } from '../api/client';
import { FormError } from '../components/FormError';
import { TicketMessages, TicketStatus } from '../components/TicketMessages';
import { useI18n } from '../i18n';
import { formatDateTime } from '../lib/format';
import { useTitle } from '../lib/title';

/**
 * /support/guest/:token: the thread of a contact-form ticket, opened from the link of a staff
 * reply mail, and the guest's answer. The token is the only credential (no account): a wrong one,
 * or one a newer mail replaced, is simply not found.
 */
export default function GuestTicket() {
  const { token = '' } = useParams();
  const { t, language } = useI18n();
  const id = useId();
  const client = useQueryClient();
  const queryKey = ['guest-ticket', token];
  const thread = useQuery({
    queryKey,
    queryFn: () => unwrap(api.GET('/api/v1/support/guest/{token}', { params: { path: { token } } })),
    retry: false,
  });
  const ticket = thread.data?.ticket;
  useTitle(ticket ? ticket.subject : t('guest.title'));
  const [message, setMessage] = useState('');
  const reply = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/v1/support/guest/{token}/messages', {
          params: { path: { token } },
          body: { message },
        }),
      ),
    onSuccess: (data) => {
      client.setQueryData(queryKey, data);
      setMessage('');
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    reply.mutate();
  };
  const invalid =
    thread.error instanceof ApiError &&
    (thread.error.code === 'TICKET_NOT_FOUND' || thread.error.status === 400);

  return (
    <div className="container guest-thread">
      <h1>{t('guest.title')}</h1>
      {invalid ? (
        <div className="card">
          <p className="form-error" role="alert">
            {t('guest.invalid')}
          </p>
          <Link to="/contact" className="button">
            {t('guest.contact')}
          </Link>
        </div>
      ) : thread.isError ? (
        <FormError error={thread.error} />
      ) : !ticket ? (
        <p className="muted page-loading">{t('common.loading')}</p>
      ) : (
        <section className="card thread" aria-labelledby={`${id}-subject`}>
          <header className="thread-head">
            <h2 id={`${id}-subject`}>{ticket.subject}</h2>
            <TicketStatus status={ticket.status} />
          </header>
          <p className="hint">
            {ticket.name} · {formatDateTime(ticket.createdAt, language)}
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
                aria-describedby={`${id}-reopens`}
              />
              <small className="hint" id={`${id}-reopens`}>
                {t('guest.reopens')}
              </small>
            </div>
            <FormError error={reply.error} />
            <button type="submit" className="button primary" disabled={reply.isPending}>
              {t('support.sendReply')}
            </button>
          </form>
          <p className="hint guest-private">{t('guest.private')}</p>
        </section>
      )}
    </div>
  );
}
