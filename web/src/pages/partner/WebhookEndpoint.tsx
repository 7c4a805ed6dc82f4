import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, unwrap } from '../../api/client';
import { CopyButton } from '../../components/CopyButton';
import { FormError, FormSuccess } from '../../components/FormError';
import { LoadMore } from '../../components/Pager';
import { useI18n } from '../../i18n';
import { useCursorList } from '../../lib/cursor-list';
import { formatDateTime } from '../../lib/format';
import type { PartnerConsole } from '../../partner/console';
import { usePartnerT } from '../../partner/console';
import { PartnerShell } from '../../partner/PartnerShell';
import {
  EndpointStatus,
  EventPicker,
  useEventTypes,
  type EventTypeName,
  type WebhookDelivery,
  type WebhookEndpoint as Endpoint,
} from '../../partner/webhooks-ui';

/** One webhook endpoint: its settings, secret rotation, test, delete, and the delivery log. */
export default function WebhookEndpoint() {
  return (
    <PartnerShell title="pc.webhooks.endpointTitle" permission="webhooks.read">
      {(pc) => <EndpointPage pc={pc} />}
    </PartnerShell>
  );
}

function EndpointPage({ pc }: { pc: PartnerConsole }) {
  const t = usePartnerT();
  const { language } = useI18n();
  const id = useParams().id ?? '';
  const path = { ...pc.scope.path, id };
  const endpoint = useQuery({
    queryKey: [...pc.key, 'webhooks', id],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/partners/{partnerId}/webhook-endpoints/{id}', {
          params: { path, query: pc.scope.query },
        }),
      ),
  });
  const e = endpoint.data;
  return (
    <>
      <p>
        <Link to={pc.link('/partner/webhooks')}>← {t('pc.webhooks.back')}</Link>
      </p>
      <FormError error={endpoint.error} />
      {e ? (
        <>
          <section className="card">
            <h2 className="url-cell" data-testid="endpoint-url">
              {e.url}
            </h2>
            <p>
              <EndpointStatus status={e.status} />
              {e.description ? <span className="muted"> · {e.description}</span> : null}
            </p>
            {e.failingSince ? (
              <p className="warning">
                {t('pc.webhooks.failingSince', { time: formatDateTime(e.failingSince, language) })}
              </p>
            ) : null}
            {e.previousSecretExpiresAt && new Date(e.previousSecretExpiresAt) > new Date() ? (
              <p className="hint">
                {t('pc.webhooks.overlapUntil', { time: formatDateTime(e.previousSecretExpiresAt, language) })}
              </p>
            ) : null}
            {pc.can('webhooks.write') ? <EndpointActions pc={pc} endpoint={e} /> : null}
          </section>
          {pc.can('webhooks.write') ? <Settings key={e.id + e.url} pc={pc} endpoint={e} /> : null}
          <DeliveryLog pc={pc} endpointId={e.id} />
        </>
      ) : null}
    </>
  );
}

function useEndpointMutation<T>(
  pc: PartnerConsole,
  id: string,
  fn: () => Promise<T>,
  onDone?: (v: T) => void,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (value) => {
      void queryClient.invalidateQueries({ queryKey: [...pc.key, 'webhooks'] });
      onDone?.(value);
    },
  });
}

function EndpointActions({ pc, endpoint }: { pc: PartnerConsole; endpoint: Endpoint }) {
  const t = usePartnerT();
  const navigate = useNavigate();
  const params = { path: { ...pc.scope.path, id: endpoint.id }, query: pc.scope.query };
  const [confirm, setConfirm] = useState<'rotate' | 'delete' | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [tested, setTested] = useState(false);
  const toggle = useEndpointMutation(pc, endpoint.id, () =>
    unwrap(
      api.PATCH('/api/v1/partners/{partnerId}/webhook-endpoints/{id}', {
        params,
        body: { enabled: endpoint.status !== 'enabled' },
      }),
    ),
  );
  const rotate = useEndpointMutation(
    pc,
    endpoint.id,
    () => unwrap(api.POST('/api/v1/partners/{partnerId}/webhook-endpoints/{id}/rotate-secret', { params })),
    (rotated) => {
      setSecret(rotated.secret);
      setConfirm(null);
    },
  );
  const test = useEndpointMutation(
    pc,
    endpoint.id,
    () => unwrap(api.POST('/api/v1/partners/{partnerId}/webhook-endpoints/{id}/test', { params })),
    () => setTested(true),
  );
  const remove = useEndpointMutation(
    pc,
    endpoint.id,
    () => unwrap(api.DELETE('/api/v1/partners/{partnerId}/webhook-endpoints/{id}', { params })),
    () => void navigate(pc.link('/partner/webhooks')),
  );
  return (
    <>
      {secret ? (
        <div className="secret-box" role="region" aria-label={t('pc.webhooks.secret')}>
          <p className="warning" role="alert">
            <strong>{t('pc.webhooks.secret')}</strong> {t('pc.webhooks.secretOnce')}
          </p>
          <div className="secret-row">
            <code data-testid="new-secret">{secret}</code>
            <CopyButton text={secret} label={t('pc.webhooks.copySecret')} />
          </div>
        </div>
      ) : null}
      <div className="webhook-actions">
        <button type="button" className="button" onClick={() => test.mutate()} disabled={test.isPending}>
          {t('pc.webhooks.test')}
        </button>
        <button type="button" className="button" onClick={() => toggle.mutate()} disabled={toggle.isPending}>
          {endpoint.status === 'enabled' ? t('pc.webhooks.disable') : t('pc.webhooks.enable')}
        </button>
        <button type="button" className="button" onClick={() => setConfirm('rotate')}>
          {t('pc.webhooks.rotate')}
        </button>
        <button type="button" className="button danger" onClick={() => setConfirm('delete')}>
          {t('pc.webhooks.delete')}
        </button>
      </div>
      {tested ? <FormSuccess>{t('pc.webhooks.testSent')}</FormSuccess> : null}
      {confirm ? (
        <div className="confirm">
          <p className="warning">
            {confirm === 'rotate' ? t('pc.webhooks.rotateExplain') : t('pc.webhooks.deleteConfirm')}
          </p>
          <button
            type="button"
            className="button danger"
            disabled={rotate.isPending || remove.isPending}
            onClick={() => (confirm === 'rotate' ? rotate.mutate() : remove.mutate())}
          >
            {confirm === 'rotate' ? t('pc.webhooks.rotateConfirm') : t('pc.webhooks.deleteYes')}
          </button>{' '}
          <button type="button" className="button" onClick={() => setConfirm(null)}>
            {t('pc.webhooks.cancel')}
          </button>
        </div>
      ) : null}
      <FormError error={toggle.error ?? rotate.error ?? test.error ?? remove.error} />
    </>
  );
}

function Settings({ pc, endpoint }: { pc: PartnerConsole; endpoint: Endpoint }) {
  const t = usePartnerT();
  const id = useId();
  const catalogue = useEventTypes(pc);
  const [url, setUrl] = useState(endpoint.url);
  const [events, setEvents] = useState<EventTypeName[] | null>(endpoint.events);
  const [saved, setSaved] = useState(false);
  const save = useEndpointMutation(
    pc,
    endpoint.id,
    () =>
      unwrap(
        api.PATCH('/api/v1/partners/{partnerId}/webhook-endpoints/{id}', {
          params: { path: { ...pc.scope.path, id: endpoint.id }, query: pc.scope.query },
          body: { url: url.trim(), events },
        }),
      ),
    () => setSaved(true),
  );
  function submit(e: FormEvent) {
    e.preventDefault();
    setSaved(false);
    save.mutate();
  }
  return (
    <section className="card" aria-labelledby={`${id}-edit`}>
      <h2 id={`${id}-edit`}>{t('pc.webhooks.edit')}</h2>
      <form onSubmit={submit}>
        <div className="field">
          <label htmlFor={`${id}-url`}>{t('pc.webhooks.url')}</label>
          <input
            id={`${id}-url`}
            type="url"
            required
            maxLength={2048}
            value={url}
            onChange={(e) => setUrl(e.target.value)}
          />
        </div>
        <EventPicker catalogue={catalogue.data ?? []} value={events} onChange={setEvents} />
        <FormError error={save.error} />
        {saved ? <FormSuccess>{t('pc.webhooks.saved')}</FormSuccess> : null}
        <button
          type="submit"
          className="button primary"
          disabled={save.isPending || (events !== null && events.length === 0)}
        >
          {t('pc.webhooks.save')}
        </button>
      </form>
    </section>
  );
}

function DeliveryLog({ pc, endpointId }: { pc: PartnerConsole; endpointId: string }) {
  const t = usePartnerT();
  const id = useId();
  const log = useCursorList(
    [...pc.key, 'webhooks', endpointId, 'deliveries'],
    async (cursor) => {
      const page = await unwrap(
        api.GET('/api/v1/partners/{partnerId}/webhook-endpoints/{id}/deliveries', {
          params: {
            path: { ...pc.scope.path, id: endpointId },
            query: { ...pc.scope.query, limit: 25, ...(cursor ? { cursor } : {}) },
          },
        }),
      );
      return { items: page.data, nextCursor: page.nextCursor };
    },
    // Deliveries run in the background: the log follows them while the page is open.
    { refetchInterval: 3000 },
  );
  const rows = log.items;
  return (
    <section className="card" aria-labelledby={`${id}-log`}>
      <h2 id={`${id}-log`}>{t('pc.webhooks.log')}</h2>
      <p className="hint">
        {t('pc.webhooks.logHint')}{' '}
        <button type="button" className="button small" onClick={() => void log.query.refetch()}>
          {t('pc.webhooks.refresh')}
        </button>
      </p>
      <FormError error={log.query.error} />
      {log.query.data && rows.length === 0 ? <p className="empty">{t('pc.webhooks.logEmpty')}</p> : null}
      {rows.length > 0 ? (
        <div className="table-wrap" role="region" aria-labelledby={`${id}-log`} tabIndex={0}>
          <table data-testid="delivery-log">
            <thead>
              <tr>
                <th scope="col">{t('pc.webhooks.time')}</th>
                <th scope="col">{t('pc.webhooks.eventType')}</th>
                <th scope="col">{t('pc.webhooks.result')}</th>
                <th scope="col">{t('pc.webhooks.duration')}</th>
                <th scope="col">{t('pc.webhooks.body')}</th>
                <th scope="col">{t('pc.webhooks.nextRetry')}</th>
                {pc.can('webhooks.write') ? <th scope="col">{t('pc.webhooks.actions')}</th> : null}
              </tr>
            </thead>
            <tbody>
              {rows.map((d) => (
                <DeliveryRow key={d.id} pc={pc} endpointId={endpointId} delivery={d} />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <LoadMore hasMore={log.hasMore} loading={log.loadingMore} onMore={log.loadMore} />
    </section>
  );
}

function DeliveryRow({
  pc,
  endpointId,
  delivery,
}: {
  pc: PartnerConsole;
  endpointId: string;
  delivery: WebhookDelivery;
}) {
  const t = usePartnerT();
  const { language } = useI18n();
  const last = delivery.attempts.at(-1);
  const time = formatDateTime(last?.startedAt ?? delivery.createdAt, language);
  const resend = useEndpointMutation(pc, endpointId, () =>
    unwrap(
      api.POST('/api/v1/partners/{partnerId}/webhook-endpoints/{id}/deliveries/{deliveryId}/resend', {
        params: {
          path: { ...pc.scope.path, id: endpointId, deliveryId: delivery.id },
          query: pc.scope.query,
        },
      }),
    ),
  );
  const result = (a: WebhookDelivery['attempts'][number]) =>
    a.responseStatus !== null ? `HTTP ${a.responseStatus}` : (a.error ?? t('pc.webhooks.noAnswer'));
  return (
    <tr data-testid="delivery-row" data-status={delivery.status}>
      <td>{time}</td>
      <td>
        <code>{delivery.eventType}</code>
      </td>
      <td>
        <span
          className={`badge status-${delivery.status === 'succeeded' ? 'completed' : delivery.status === 'failed' ? 'cancelled' : 'processing'}`}
        >
          {t(`pc.webhooks.delivery.${delivery.status}`)}
        </span>{' '}
        <span data-testid="delivery-result">{last ? result(last) : '—'}</span>
        {delivery.attempts.length > 1 ? (
          <details>
            <summary>{t('pc.webhooks.attempts', { count: delivery.attempts.length })}</summary>
            <ol>
              {delivery.attempts.map((a) => (
                <li key={a.attempt}>
                  {formatDateTime(a.startedAt, language)} · {result(a)} ·{' '}
                  {t('pc.webhooks.ms', { ms: a.durationMs })}
                  {a.manual ? ` · ${t('pc.webhooks.manual')}` : ''}
                </li>
              ))}
            </ol>
          </details>
        ) : null}
      </td>
      <td>{last ? t('pc.webhooks.ms', { ms: last.durationMs }) : '—'}</td>
      <td>
        {last?.responseBody ? (
          <details>
            <summary>{t('pc.webhooks.showBody')}</summary>
            <pre className="delivery-body">{last.responseBody}</pre>
          </details>
        ) : (
          '—'
        )}
      </td>
      <td>{delivery.nextRetryAt ? formatDateTime(delivery.nextRetryAt, language) : '—'}</td>
      {pc.can('webhooks.write') ? (
        <td>
          <button
            type="button"
            className="button small"
            onClick={() => resend.mutate()}
            disabled={resend.isPending}
            aria-label={t('pc.webhooks.resendLabel', { event: delivery.eventType, time })}
          >
            {t('pc.webhooks.resend')}
          </button>
          <FormError error={resend.error} />
        </td>
      ) : null}
    </tr>
  );
}
