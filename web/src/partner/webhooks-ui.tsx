import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { api, unwrap, type paths } from '../api/client';
import type { PartnerConsole } from './console';
import { usePartnerT } from './console';

type Ok<T> = T extends { responses: { 200: { content: { 'application/json': infer B } } } } ? B : never;
export type WebhookEndpoint = Ok<paths['/api/v1/partners/{partnerId}/webhook-endpoints/{id}']['get']>;
export type WebhookDelivery = Ok<
  paths['/api/v1/partners/{partnerId}/webhook-endpoints/{id}/deliveries']['get']
>['data'][number];
export type EventTypeInfo = Ok<
  paths['/api/v1/partners/{partnerId}/webhook-event-types']['get']
>['data'][number];
export type EventTypeName = EventTypeInfo['type'];

/** The catalogue of event types with their descriptions (the server's one list). */
export function useEventTypes(pc: PartnerConsole) {
  return useQuery({
    queryKey: ['webhook-event-types', pc.partnerId],
    enabled: pc.ready,
    staleTime: Infinity,
    queryFn: async () =>
      (
        await unwrap(
          api.GET('/api/v1/partners/{partnerId}/webhook-event-types', { params: { path: pc.scope.path } }),
        )
      ).data,
  });
}

/**
 * Event types as checkboxes with their descriptions, after an "all events" choice (`null`),
 * which also receives the types added later.
 */
export function EventPicker({
  catalogue,
  value,
  onChange,
}: {
  catalogue: EventTypeInfo[];
  value: EventTypeName[] | null;
  onChange: (next: EventTypeName[] | null) => void;
}) {
  const t = usePartnerT();
  const id = useId();
  const all = value === null;
  return (
    <fieldset className="event-picker">
      <legend>{t('pc.webhooks.events')}</legend>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={all}
          onChange={(e) => onChange(e.target.checked ? null : [])}
          data-testid="all-events"
        />
        <span>{t('pc.webhooks.allEvents')}</span>
      </label>
      {all ? null : (
        <ul className="event-list" aria-label={t('pc.webhooks.chooseEvents')}>
          {catalogue.map((type) => (
            <li key={type.type}>
              <label className="checkbox">
                <input
                  type="checkbox"
                  checked={value.includes(type.type)}
                  aria-describedby={`${id}-${type.type}`}
                  onChange={(e) =>
                    onChange(e.target.checked ? [...value, type.type] : value.filter((v) => v !== type.type))
                  }
                />
                <span>
                  <code>{type.type}</code>
                  <br />
                  <span className="hint" id={`${id}-${type.type}`}>
                    {type.description}
                  </span>
                </span>
              </label>
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}

/** "Enabled" / "Disabled" as a badge. */
export function EndpointStatus({ status }: { status: WebhookEndpoint['status'] }) {
  const t = usePartnerT();
  return (
    <span className={`badge webhook-${status}`} data-testid="endpoint-status">
      {t(`pc.webhooks.status.${status}`)}
    </span>
  );
}
