import { useMutation } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { api, unwrap } from '../api/client';
import type { GeneratedKey } from '../api/types';
import { CopyButton } from '../components/CopyButton';
import { FormError } from '../components/FormError';
import { PartnerTabs } from '../components/PartnerTabs';
import { TopUpForm } from '../components/TopUpForm';
import { useI18n } from '../i18n';
import { formatDateTime, formatMoney } from '../lib/format';
import { useMe, useMoneyMoved, useSetMe } from '../lib/session';
import { useTitle } from '../lib/title';

/**
 * The specification's "API keys page": the key is shown once, right after generation, and only
 * kept in this component's memory; a reload shows the prefix and date only.
 */
export default function ApiKeys() {
  const { t, language } = useI18n();
  useTitle(t('keys.title'));
  const me = useMe();
  const setMe = useSetMe();
  const user = me.data!;
  const id = useId();
  const [fresh, setFresh] = useState<GeneratedKey | null>(null);
  const [confirmRotate, setConfirmRotate] = useState(false);
  const generate = useMutation({
    mutationFn: () => unwrap(api.POST('/api/v1/user/api-key/generate', { body: { mode: 'live' } })),
    onSuccess: (key) => {
      setFresh(key);
      setConfirmRotate(false);
      setMe({
        ...user,
        hasApiKey: true,
        apiKeyPrefix: key.apiKeyPrefix,
        apiKeyGeneratedAt: key.apiKeyGeneratedAt,
      });
    },
  });
  const base = window.location.origin;
  // Back from the wallet top-up's payment page (returnPath below): read the balance again.
  const returned = useSearchParams()[0].get('topup');
  const moneyMoved = useMoneyMoved();
  useEffect(() => {
    if (returned) void moneyMoved();
  }, [returned, moneyMoved]);

  return (
    <div className="container partner-page">
      <h1>{t('keys.title')}</h1>
      <PartnerTabs />
      <div className="partner-grid">
        <section className="card" aria-labelledby={`${id}-key`}>
          <h2 id={`${id}-key`}>{t('keys.key')}</h2>
          {user.hasApiKey ? (
            <dl className="facts">
              <div>
                <dt>{t('keys.prefix')}</dt>
                <dd className="mono" data-testid="key-prefix">
                  {user.apiKeyPrefix ?? '—'}
                </dd>
              </div>
              <div>
                <dt>{t('keys.created')}</dt>
                <dd data-testid="key-created">
                  {user.apiKeyGeneratedAt ? formatDateTime(user.apiKeyGeneratedAt, language) : '—'}
                </dd>
              </div>
            </dl>
          ) : (
            <p className="muted">{t('keys.none')}</p>
          )}

          {fresh ? (
            <div className="secret-box" role="region" aria-label={t('keys.newKey')}>
              <p className="warning" role="alert">
                <strong>{t('keys.onceTitle')}</strong> {t('keys.onceBody')}
              </p>
              <div className="secret-row">
                <code data-testid="new-key">{fresh.key}</code>
                <CopyButton text={fresh.key} label={t('keys.copy')} />
              </div>
            </div>
          ) : null}

          <FormError error={generate.error} />
          {user.hasApiKey && !confirmRotate ? (
            <button type="button" className="button" onClick={() => setConfirmRotate(true)}>
              {t('keys.rotate')}
            </button>
          ) : null}
          {user.hasApiKey && confirmRotate ? (
            <div className="confirm">
              <p className="warning">{t('keys.rotateWarning')}</p>
              <button
                type="button"
                className="button danger"
                onClick={() => generate.mutate()}
                disabled={generate.isPending}
              >
                {t('keys.rotateConfirm')}
              </button>{' '}
              <button type="button" className="button" onClick={() => setConfirmRotate(false)}>
                {t('common.cancel')}
              </button>
            </div>
          ) : null}
          {!user.hasApiKey ? (
            <button
              type="button"
              className="button primary"
              onClick={() => generate.mutate()}
              disabled={generate.isPending}
            >
              {t('keys.generate')}
            </button>
          ) : null}
        </section>

        <section className="card wallet-card" aria-labelledby={`${id}-wallet`}>
          <h2 id={`${id}-wallet`}>{t('partner.wallet')}</h2>
          <p className="balance" data-testid="wallet-balance">
            {formatMoney(user.walletBalance, 'USD', language)}
          </p>
          <p className="hint">{t('partner.walletHint')}</p>
          <TopUpForm returnPath="/api-keys" />
        </section>
        <section className="card" aria-labelledby={`${id}-start`}>
          <h2 id={`${id}-start`}>{t('keys.quickStart')}</h2>
          <p className="muted">{t('keys.quickStartBody')}</p>
          <pre className="code" tabIndex={0} aria-label={t('keys.example')}>
            {`curl ${base}/api/public/v1/destinations \\\n  -H "Authorization: Bearer $API_KEY"`}
          </pre>
          <p>
            <a href="/docs">{t('partner.reference')}</a>
          </p>
        </section>
      </div>
    </div>
  );
}
