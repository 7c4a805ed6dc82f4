import { useQuery } from '@tanstack/react-query';
import type { paths } from '../api/admin';
import { adminApi, call } from './api';
import { ErrorBox, When } from './orders-ui';

type Item =
  paths['/api/admin/v1/orders/{id}/timeline']['get']['responses'][200]['content']['application/json']['timeline']['items'][number];

const KIND_LABELS: Record<Item['kind'], string> = {
  order: 'Order',
  payment: 'Payment',
  wallet: 'Wallet',
  fulfilment: 'Provider',
  job: 'Job',
  support: 'Support',
  operator: 'Operator',
  cancellation: 'Cancel',
  mail: 'Mail',
  push: 'Push',
  webhook: 'Webhook',
};

const TONE: Record<NonNullable<Item['status']>, string> = {
  ok: 'ok',
  failed: 'bad',
  pending: 'warn',
  info: '',
};

/** An operator by name and address; anyone else as the audit log names them (token, system). */
function actorOf(item: Item): string {
  if (!item.actorEmail) return item.actor === 'token' ? 'the admin token' : (item.actor ?? '');
  return item.actorName ? `${item.actorName} (${item.actorEmail})` : item.actorEmail;
}

/** Long bodies (mails) fold away; short details stay in view. */
const FOLD_AFTER = 160;

function Detail({ item }: { item: Item }) {
  if (!item.detail) return null;
  const body = <p className="timeline-detail">{item.detail}</p>;
  const note = item.redacted ? (
    <p className="admin-muted timeline-redacted">
      Links and codes that sign someone in are hidden: only an Owner sees them.
    </p>
  ) : null;
  if (item.kind !== 'mail' && item.detail.length <= FOLD_AFTER)
    return (
      <>
        {body}
        {note}
      </>
    );
  return (
    <details className="timeline-fold">
      <summary>{item.kind === 'mail' ? 'Show the message' : 'Show details'}</summary>
      {body}
      {note}
    </details>
  );
}

/** GET /orders/{id}/timeline as a list, oldest first: what happened to the order, step by step. */
export function Timeline({ orderId }: { orderId: string }) {
  const timeline = useQuery({
    queryKey: ['admin', 'order-timeline', orderId],
    queryFn: async () =>
      (await call(adminApi.GET('/api/admin/v1/orders/{id}/timeline', { params: { path: { id: orderId } } })))
        .timeline,
  });
  return (
    <section className="admin-card" aria-labelledby="order-timeline">
      <h2 id="order-timeline">Timeline</h2>
      <ErrorBox error={timeline.error} />
      {timeline.isPending ? <p className="admin-muted">Loading…</p> : null}
      {timeline.data ? (
        <ol className="timeline" data-testid="order-timeline">
          {timeline.data.items.map((item, index) => {
            const tone = item.status ? TONE[item.status] : '';
            return (
              <li key={`${item.at}-${index}`} className={`timeline-item ${tone}`} data-testid="timeline-item">
                <div className="timeline-when">
                  <When iso={item.at} seconds />
                  <span className="admin-badge">{KIND_LABELS[item.kind]}</span>
                </div>
                <div className="timeline-body">
                  <p className="timeline-title">
                    {item.title}
                    {item.status === 'failed' ? <span className="admin-badge bad">failed</span> : null}
                    {item.status === 'pending' ? <span className="admin-badge warn">to come</span> : null}
                  </p>
                  {item.actor ? (
                    <p className="admin-muted timeline-actor" data-testid="timeline-actor">
                      by {actorOf(item)}
                    </p>
                  ) : null}
                  <Detail item={item} />
                </div>
              </li>
            );
          })}
        </ol>
      ) : null}
    </section>
  );
}
