import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { api, unwrap } from '../../api/client';
import { CopyButton } from '../../components/CopyButton';
import { FormError } from '../../components/FormError';
import type { PartnerConsole } from '../../partner/console';
import { usePartnerT } from '../../partner/console';
import { PartnerShell } from '../../partner/PartnerShell';
import {
  EndpointStatus,
  EventPicker,
  useEventTypes,
  type EventTypeName,
  type WebhookEndpoint,
} from '../../partner/webhooks-ui';

/** Webhook endpoints of the partner in the chosen mode: the list, and a form to add one. */
export default function Webhooks() {
  return (
    <PartnerShell title="pc.tab.webhooks" permission="webhooks.read">
      {(pc) => <WebhooksBody pc={pc} />}
    </PartnerShell>
  );
}

function WebhooksBody({ pc }: { pc: PartnerConsole }) {
  const t = usePartnerT();
  const id = useId();
  const list = useQuery({
    queryKey: [...pc.key, 'webhooks'],
    queryFn: async () =>
      (await unwrap(api.GET('/api/v1/partners/{partnerId}/webhook-endpoints', { params: pc.scope }))).data,
  });
  const endpoints = list.data ?? [];
  return (
    <>
      <section className="card" aria-labelledby={`${id}-list`}>
        <h2 id={`${id}-list`}>{t('pc.webhooks.endpoints')}</h2>
        <FormError error={list.error} />
        {list.isPending ? <p className="muted">{t('pc.loading')}</p> : null}
        {list.data && endpoints.length === 0 ? <p className="empty">{t('pc.webhooks.none')}</p> : null}
        {endpoints.length > 0 ? (
          <div className="table-wrap" role="region" aria-labelledby={`${id}-list`} tabIndex={0}>
            <table data-testid="endpoint-list">
              <thead>
                <tr>
                  <th scope="col">{t('pc.webhooks.url')}</th>
                  <th scope="col">{t('pc.webhooks.status')}</th>
                  <th scope="col">{t('pc.webhooks.events')}</th>
                </tr>
              </thead>
              <tbody>
                {endpoints.map((e) => (
                  <EndpointRow key={e.id} endpoint={e} pc={pc} />
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </section>
      {pc.can('webhooks.write') ? <CreateEndpoint pc={pc} /> : null}
    </>
  );
}

function EndpointRow({ endpoint, pc }: { endpoint: WebhookEndpoint; pc: PartnerConsole }) {
  const t = usePartnerT();
  return (
    <tr>
      <td className="url-cell">
        <Link
          to={pc.link(`/partner/webhooks/${endpoint.id}`)}
          aria-label={t('pc.webhooks.open', { url: endpoint.url })}
        >
          {endpoint.url}
        </Link>
        {endpoint.description ? <div className="hint">{endpoint.description}</div> : null}
      </td>
      <td>
        <EndpointStatus status={endpoint.status} />
      </td>
      <td>{endpoint.events ? endpoint.events.join(', ') : t('pc.webhooks.allShort')}</td>
    </tr>
  );
}

function CreateEndpoint({ pc }: { pc: PartnerConsole }) {
  const t = usePartnerT();
  const id = useId();
  const queryClient = useQueryClient();
  const catalogue = useEventTypes(pc);
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<EventTypeName[] | null>(null);
  // The secret lives only in this component's memory: shown once, gone on reload.
  const [secret, setSecret] = useState<{ url: string; value: string } | null>(null);
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/v1/partners/{partnerId}/webhook-endpoints', {
          params: pc.scope,
          body: {
            url: url.trim(),
            ...(events ? { events } : {}),
            ...(description.trim() ? { description: description.trim() } : {}),
          },
        }),
      ),
    onSuccess: (created) => {
      setSecret({ url: created.url, value: created.secret });
      setUrl('');
      setDescription('');
      setEvents(null);
      void queryClient.invalidateQueries({ queryKey: [...pc.key, 'webhooks'] });
    },
  });
  function submit(e: FormEvent) {
    e.preventDefault();
    create.mutate();
  }
  return (
    <section className="card" aria-labelledby={`${id}-new`}>
      <h2 id={`${id}-new`}>{t('pc.webhooks.create')}</h2>
      {secret ? (
        <div className="secret-box" role="region" aria-label={t('pc.webhooks.secret')}>
          <p className="warning" role="alert">
            <strong>{t('pc.webhooks.secret')}</strong> ({secret.url}): {t('pc.webhooks.secretOnce')}
          </p>
          <div className="secret-row">
            <code data-testid="new-secret">{secret.value}</code>
            <CopyButton text={secret.value} label={t('pc.webhooks.copySecret')} />
          </div>
        </div>
      ) : null}
      <form onSubmit={submit} noValidate={false}>
        <div className="field">
          <label htmlFor={`${id}-url`}>{t('pc.webhooks.url')}</label>
          <input
            id={`${id}-url`}
            type="url"
            required
            maxLength={2048}
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            aria-describedby={`${id}-url-hint`}
            placeholder="https://"
          />
          <p className="hint" id={`${id}-url-hint`}>
            {t('pc.webhooks.urlHint')}
          </p>
        </div>
        <div className="field">
          <label htmlFor={`${id}-desc`}>{t('pc.webhooks.description')}</label>
          <input
            id={`${id}-desc`}
            maxLength={500}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
          />
        </div>
        <EventPicker catalogue={catalogue.data ?? []} value={events} onChange={setEvents} />
        <FormError error={create.error} />
        <button
          type="submit"
          className="button primary"
          disabled={create.isPending || (events !== null && events.length === 0)}
        >
          {create.isPending ? t('pc.webhooks.creating') : t('pc.webhooks.create')}
        </button>
      </form>
    </section>
  );
}
