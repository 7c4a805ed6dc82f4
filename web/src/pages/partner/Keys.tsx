import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api, unwrap } from '../../api/client';
import { CopyButton } from '../../components/CopyButton';
import { FormError } from '../../components/FormError';
import { useI18n } from '../../i18n';
import { formatDateTime } from '../../lib/format';
import { usePartnerT, type PartnerConsole } from '../../partner/console';
import { PartnerShell } from '../../partner/PartnerShell';

type Fresh = { key: string; mode: 'live' | 'test' };

/**
 * The partner's key of the console's mode (issue 32 C1): prefix and date, generate or rotate
 * after a confirmation, the new key shown once (kept only in this component's memory).
 */
function KeyPanel({ pc }: { pc: PartnerConsole }) {
  const t = usePartnerT();
  const { language } = useI18n();
  const id = useId();
  const client = useQueryClient();
  const [fresh, setFresh] = useState<Fresh | null>(null);
  const [confirming, setConfirming] = useState(false);
  const keys = useQuery({
    queryKey: [...pc.key, 'keys'],
    queryFn: () => unwrap(api.GET('/api/v1/partners/{partnerId}/keys', { params: pc.scope })),
  });
  const generate = useMutation({
    mutationFn: () =>
      unwrap(api.POST('/api/v1/partners/{partnerId}/keys', { params: pc.scope, body: { mode: pc.mode } })),
    onSuccess: (made) => {
      setFresh({ key: made.key, mode: made.mode });
      setConfirming(false);
      void client.invalidateQueries({ queryKey: ['partner', pc.partnerId] });
    },
  });
  const current = keys.data?.[pc.mode] ?? null;
  // A key made in the other mode is never shown here (test mode shows nothing of live).
  const shown = fresh?.mode === pc.mode ? fresh : null;
  const canWrite = pc.can('keys.write');
  const base = window.location.origin;
  const path = pc.mode === 'test' ? '/api/public/v1/destinations' : '/api/public/v1/wallet';
  return (
    <div className="partner-grid">
      <section className="card" aria-labelledby={`${id}-key`}>
        <h2 id={`${id}-key`}>{t(pc.mode === 'test' ? 'pc.keys.test' : 'pc.keys.live')}</h2>
        <FormError error={keys.error} />
        {current ? (
          <dl className="facts">
            <div>
              <dt>{t('pc.keys.prefix')}</dt>
              <dd className="mono" data-testid="key-prefix">
                {current.apiKeyPrefix}
              </dd>
            </div>
            <div>
              <dt>{t('pc.keys.created')}</dt>
              <dd data-testid="key-created">{formatDateTime(current.apiKeyGeneratedAt, language)}</dd>
            </div>
          </dl>
        ) : keys.isSuccess ? (
          <p className="muted">{t('pc.keys.none')}</p>
        ) : null}
        {shown ? (
          <div className="secret-box" role="region" aria-label={t('pc.keys.newKey')}>
            <p className="warning" role="alert">
              {t('pc.keys.once')}
            </p>
            <div className="secret-row">
              <code data-testid="new-key">{shown.key}</code>
              <CopyButton text={shown.key} label={t('pc.keys.copy')} />
            </div>
          </div>
        ) : null}
        <FormError error={generate.error} />
        {canWrite && current && !confirming ? (
          <button type="button" className="button" onClick={() => setConfirming(true)}>
            {t('pc.keys.rotate')}
          </button>
        ) : null}
        {canWrite && current && confirming ? (
          <div className="confirm">
            <p className="warning">{t('pc.keys.rotateWarning')}</p>
            <button
              type="button"
              className="button danger"
              onClick={() => generate.mutate()}
              disabled={generate.isPending}
            >
              {t('pc.keys.rotateConfirm')}
            </button>{' '}
            <button type="button" className="button" onClick={() => setConfirming(false)}>
              {t('pc.keys.cancel')}
            </button>
          </div>
        ) : null}
        {canWrite && keys.isSuccess && !current ? (
          <button
            type="button"
            className="button primary"
            onClick={() => generate.mutate()}
            disabled={generate.isPending}
          >
            {t('pc.keys.generate')}
          </button>
        ) : null}
        <p className="hint">{t('pc.keys.belongs')}</p>
      </section>
      <section className="card" aria-labelledby={`${id}-start`}>
        <h2 id={`${id}-start`}>{t('pc.keys.quickStart')}</h2>
        <p className="muted">{t(pc.mode === 'test' ? 'pc.keys.quickStartTest' : 'pc.keys.quickStartLive')}</p>
        <pre className="code" tabIndex={0} aria-label={t('pc.keys.example')} data-testid="quick-start">
          {`curl ${base}${path} \\\n  -H "Authorization: Bearer ${shown?.key ?? (pc.mode === 'test' ? '$TEST_API_KEY' : '$API_KEY')}"`}
        </pre>
      </section>
    </div>
  );
}

export default function Keys() {
  return (
    <PartnerShell title="pc.tab.keys" permission="keys.read">
      {(pc) => <KeyPanel key={`${pc.partnerId}:${pc.mode}`} pc={pc} />}
    </PartnerShell>
  );
}
