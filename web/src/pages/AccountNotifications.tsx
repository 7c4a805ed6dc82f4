import { useMutation } from '@tanstack/react-query';
import { useId } from 'react';
import { api, unwrap } from '../api/client';
import type { User } from '../api/types';
import { FormError, FormSuccess } from '../components/FormError';
import { useI18n } from '../i18n';
import { useSetMe } from '../lib/session';

type Channel = 'email' | 'push';

/**
 * Traveller alerts (data running out, eSIM expiring, eSIM ready, support answered): one switch
 * per channel, saved as soon as it is flipped, so a traveller abroad changes it in one tap.
 */
export function Notifications({ user }: { user: User }) {
  const { t } = useI18n();
  const setMe = useSetMe();
  const id = useId();
  // Accounts from before the preferences existed answer without them: both on, as stored.
  const current = user.notifications ?? { email: true, push: true };
  const save = useMutation({
    mutationFn: (change: Partial<Record<Channel, boolean>>) =>
      unwrap(api.PATCH('/api/v1/user/profile', { body: { notifications: change } })),
    onSuccess: ({ user: updated }) => setMe(updated),
  });
  const channels: Array<{ channel: Channel; label: string; hint: string }> = [
    { channel: 'push', label: t('account.notifyPush'), hint: t('account.notifyPushHint') },
    { channel: 'email', label: t('account.notifyEmail'), hint: t('account.notifyEmailHint') },
  ];
  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('account.notifications')}</h2>
      <p className="muted">{t('account.notificationsBody')}</p>
      {channels.map(({ channel, label, hint }) => (
        <div className="field" key={channel}>
          <label className="checkbox">
            <input
              type="checkbox"
              role="switch"
              checked={current[channel]}
              disabled={save.isPending}
              aria-describedby={`${id}-${channel}-hint`}
              onChange={(e) => save.mutate({ [channel]: e.target.checked })}
            />
            <span>{label}</span>
          </label>
          <small className="hint" id={`${id}-${channel}-hint`}>
            {hint}
          </small>
        </div>
      ))}
      <FormError error={save.error} />
      {save.isSuccess ? <FormSuccess>{t('account.saved')}</FormSuccess> : null}
    </section>
  );
}
