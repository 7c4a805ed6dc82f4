import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useI18n } from '../i18n';
import { currentPushState, disablePush, enablePush, type PushState } from '../lib/web-push';
import { FormError } from './FormError';

const KEY = ['push-state'];

/**
 * "Notify me when data runs low": Web Push for this browser (issue 31 L1). Shows whether it is on,
 * blocked by the browser, or not supported; turning it on asks for permission, subscribes and
 * registers the browser as a device of the account.
 */
export function PushOptIn() {
  const { t } = useI18n();
  const client = useQueryClient();
  const state = useQuery({ queryKey: KEY, queryFn: currentPushState, staleTime: Infinity });
  const change = useMutation({
    mutationFn: (on: boolean) => (on ? enablePush() : disablePush()),
    onSuccess: (next: PushState) => client.setQueryData(KEY, next),
  });
  const current = state.data;
  return (
    <section className="card push-opt-in" aria-labelledby="push-title">
      <h2 id="push-title">{t('push.title')}</h2>
      <p className="muted">{t('push.hint')}</p>
      <div aria-live="polite">
        {current === 'on' ? (
          <p className="form-success" role="status">
            {t('push.on')}
          </p>
        ) : null}
        {current === 'blocked' ? <p role="status">{t('push.blocked')}</p> : null}
        {current === 'unsupported' ? <p role="status">{t('push.unsupported')}</p> : null}
      </div>
      {current === 'off' ? (
        <button
          type="button"
          className="button small"
          onClick={() => change.mutate(true)}
          disabled={change.isPending}
        >
          {change.isPending ? t('common.working') : t('push.optIn')}
        </button>
      ) : null}
      {current === 'on' ? (
        <button
          type="button"
          className="button small"
          onClick={() => change.mutate(false)}
          disabled={change.isPending}
        >
          {change.isPending ? t('common.working') : t('push.turnOff')}
        </button>
      ) : null}
      <FormError error={change.error} />
    </section>
  );
}
