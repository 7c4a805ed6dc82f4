import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { api, unwrap } from '../../api/client';
import type { paths } from '../../api/mobile';
import { FormError } from '../../components/FormError';
import { useI18n } from '../../i18n';
import { formatDateTime } from '../../lib/format';
import { usePartnerT, type PartnerConsole } from '../../partner/console';
import type { PartnerMessageKey } from '../../partner/messages/index';
import { PartnerShell } from '../../partner/PartnerShell';
import '../../partner/logs.css';

type Page =
  paths['/api/v1/partners/{partnerId}/events']['get']['responses'][200]['content']['application/json'];

/** The event catalogue (docs/partner-reference.md, "Webhooks and events"). */
const EVENT_TYPES = [
  'order.completed',
  'order.fulfillment_failed',
  'order.refunded',
  'esim.usage_threshold',
  'esim.expiring',
  'esim.status_changed',
  'esim.auto_topup_succeeded',
  'esim.auto_topup_failed',
  'wallet.topup_succeeded',
  'wallet.low_balance',
] as const;

interface Filters {
  type?: string;
  from?: string;
  to?: string;
}

/** A date input's day (UTC) as the start of that day; `end`: the start of the next one. */
function dayBoundary(day: string, end = false): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const at = new Date(`${day}T00:00:00.000Z`);
  if (end) at.setUTCDate(at.getUTCDate() + 1);
  return at.toISOString();
}

/** The events browser (issue 32 C3): filters, the list, one event's payload and deliveries. */
export default function Events() {
  return (
    <PartnerShell title="pc.tab.events" permission="events.read">
      {(pc) => <EventsBrowser pc={pc} />}
    </PartnerShell>
  );
}

function EventsBrowser({ pc }: { pc: PartnerConsole }) {
  const t = usePartnerT();
  const { language } = useI18n();
  const id = useId();
  const [draft, setDraft] = useState({ type: '', from: '', to: '' });
  const [filters, setFilters] = useState<Filters>({});
  const [open, setOpen] = useState<string | null>(null);
  const list = useInfiniteQuery({
    queryKey: [...pc.key, 'events', filters],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/api/v1/partners/{partnerId}/events', {
          params: {
            path: pc.scope.path,
            query: { ...pc.scope.query, ...filters, limit: 25, ...(pageParam ? { after: pageParam } : {}) },
          },
        }),
      ),
    getNextPageParam: (last: Page) => (last.hasMore ? last.data[last.data.length - 1]?.id : undefined),
  });
  const events = list.data?.pages.flatMap((p) => p.data) ?? [];

  function apply(event: FormEvent) {
    event.preventDefault();
    const next: Filters = {};
    if (draft.type) next.type = draft.type;
    const from = dayBoundary(draft.from);
    const to = dayBoundary(draft.to, true);
    if (from) next.from = from;
    if (to) next.to = to;
    setOpen(null);
    setFilters(next);
  }

  return (
    <>
      <p className="hint">{t('pc.events.intro')}</p>
      <form className="console-filters" onSubmit={apply} aria-label={t('pc.events.filters')}>
        <label className="field">
          <span>{t('pc.events.type')}</span>
          <select value={draft.type} onChange={(e) => setDraft({ ...draft, type: e.target.value })}>
            <option value="">{t('pc.events.type.all')}</option>
            {EVENT_TYPES.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>{t('pc.events.from')}</span>
          <input
            type="date"
            value={draft.from}
            onChange={(e) => setDraft({ ...draft, from: e.target.value })}
          />
        </label>
        <label className="field">
          <span>{t('pc.events.to')}</span>
          <input type="date" value={draft.to} onChange={(e) => setDraft({ ...draft, to: e.target.value })} />
        </label>
        <div className="filter-actions">
          <button type="submit" className="button">
            {t('pc.events.apply')}
          </button>
        </div>
      </form>
      <FormError error={list.error} />
      {open ? <EventDetail pc={pc} eventId={open} onClose={() => setOpen(null)} /> : null}
      <h2 id={`${id}-list`}>{t('pc.events.list')}</h2>
      {list.isSuccess && events.length === 0 ? <p className="empty">{t('pc.events.none')}</p> : null}
      {events.length > 0 ? (
        <div className="table-wrap" tabIndex={0} role="region" aria-labelledby={`${id}-list`}>
          <table data-testid="event-list">
            <thead>
              <tr>
                <th scope="col">{t('pc.events.type')}</th>
                <th scope="col">{t('pc.requests.time')}</th>
                <th scope="col">Id</th>
                <th scope="col">
                  <span className="visually-hidden">{t('pc.events.open')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {events.map((e) => (
                <tr key={e.id} data-testid="event-row">
                  <td className="mono">{e.type}</td>
                  <td className="nowrap">{formatDateTime(e.createdAt, language)}</td>
                  <td className="mono">{e.id}</td>
                  <td>
                    <button
                      type="button"
                      className="button small secondary"
                      aria-expanded={open === e.id}
                      aria-label={`${t('pc.events.open')} ${e.type} ${e.id}`}
                      onClick={() => setOpen(open === e.id ? null : e.id)}
                    >
                      {t('pc.events.open')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {list.hasNextPage ? (
        <button
          type="button"
          className="button secondary"
          disabled={list.isFetchingNextPage}
          onClick={() => void list.fetchNextPage()}
        >
          {t('pc.events.more')}
        </button>
      ) : null}
    </>
  );
}

function EventDetail({ pc, eventId, onClose }: { pc: PartnerConsole; eventId: string; onClose: () => void }) {
  const t = usePartnerT();
  const { language } = useI18n();
  const id = useId();
  const detail = useQuery({
    queryKey: [...pc.key, 'event', eventId],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/partners/{partnerId}/events/{eventId}', {
          params: { path: { ...pc.scope.path, eventId }, query: pc.scope.query },
        }),
      ),
  });
  return (
    <section className="card event-detail" aria-labelledby={`${id}-title`} data-testid="event-detail">
      <div className="section-head">
        <h2 id={`${id}-title`} className="mono">
          {t('pc.events.detail', { id: eventId })}
        </h2>
        <button type="button" className="button small secondary" onClick={onClose}>
          {t('pc.events.close')}
        </button>
      </div>
      <FormError error={detail.error} />
      {detail.data ? (
        <>
          <p className="hint">
            <span className="mono">{detail.data.event.type}</span> ·{' '}
            {formatDateTime(detail.data.event.createdAt, language)}
          </p>
          <h3>{t('pc.events.payload')}</h3>
          <pre className="json" tabIndex={0} aria-label={t('pc.events.payload')}>
            {JSON.stringify(detail.data.event, null, 2)}
          </pre>
          <h3 id={`${id}-deliveries`}>{t('pc.events.deliveries')}</h3>
          {detail.data.deliveries.length === 0 ? (
            <p className="empty">{t('pc.events.noDeliveries')}</p>
          ) : (
            <div className="table-wrap" tabIndex={0} role="region" aria-labelledby={`${id}-deliveries`}>
              <table>
                <thead>
                  <tr>
                    <th scope="col">{t('pc.events.endpoint')}</th>
                    <th scope="col">{t('pc.events.status')}</th>
                    <th scope="col">{t('pc.events.attempts')}</th>
                    <th scope="col">{t('pc.events.response')}</th>
                    <th scope="col">{t('pc.events.nextRetry')}</th>
                  </tr>
                </thead>
                <tbody>
                  {detail.data.deliveries.map((d) => (
                    <tr key={d.id} data-testid="delivery-row">
                      <td className="mono">{d.endpointUrl}</td>
                      <td>{t(`pc.events.delivery.${d.status}` as PartnerMessageKey)}</td>
                      <td>{d.attempts}</td>
                      <td>
                        {d.responseStatus ?? ''} {d.lastError ?? ''}
                      </td>
                      <td>{d.nextAttemptAt ? formatDateTime(d.nextAttemptAt, language) : '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      ) : null}
    </section>
  );
}
