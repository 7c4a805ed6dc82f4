import { useI18n, type MessageKey } from '../i18n';
import { formatDateTime } from '../lib/format';

type Status = 'OPEN' | 'ANSWERED' | 'RESOLVED' | 'CLOSED';
interface Message {
  id: string;
  author: 'customer' | 'staff';
  message: string;
  createdAt: string;
}

/** A ticket's status as a badge: the customer's tickets and a guest's thread alike. */
export function TicketStatus({ status }: { status: Status }) {
  const { t } = useI18n();
  return (
    <span className={`badge ticket-${status.toLowerCase()}`} data-status={status}>
      {t(`ticket.status.${status}` as MessageKey)}
    </span>
  );
}

/** A thread, oldest first: the reader's messages ("You") and the support team's. */
export function TicketMessages({ messages }: { messages: readonly Message[] }) {
  const { t, language } = useI18n();
  return (
    <ol className="messages">
      {messages.map((m) => (
        <li key={m.id} className={`message ${m.author}`}>
          <p className="message-meta">
            <strong>{m.author === 'staff' ? t('support.staff') : t('support.you')}</strong>{' '}
            <time dateTime={m.createdAt}>{formatDateTime(m.createdAt, language)}</time>
          </p>
          <p className="message-body">{m.message}</p>
        </li>
      ))}
    </ol>
  );
}
