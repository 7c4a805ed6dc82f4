import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, unwrap } from '../api/client';
import type { Esim } from '../api/types';
import { AutoTopUp } from '../components/AutoTopUp';
import { canTopUp, EsimStatusBadge } from '../components/EsimCard';
import { EsimUsagePanel } from '../components/EsimUsagePanel';
import { FormError } from '../components/FormError';
import { CodeField, InstallGuide } from '../components/InstallGuide';
import { PushOptIn } from '../components/PushOptIn';
import { useI18n } from '../i18n';
import { topUpPath } from '../lib/plans';
import { useTitle } from '../lib/title';

/** One eSIM (`/esims/:iccid`): usage, top-up, the install guide with steps, and its install page link. */
export default function EsimDetail() {
  const { iccid = '' } = useParams();
  const { t } = useI18n();
  const query = useQuery({
    queryKey: ['esim', iccid],
    queryFn: () => unwrap(api.GET('/api/v1/user/esims/{iccid}', { params: { path: { iccid } } })),
  });
  const esim = query.data?.esim;
  // A link to an eSIM that is not (or no longer) the account's still gets a heading and a title.
  const missing = !esim && query.isError;
  useTitle(esim ? esim.planName : missing ? t('esim.notFound') : t('esims.title'));
  return (
    <div className="container esim-page">
      <nav aria-label={t('common.breadcrumb')} className="breadcrumb">
        <Link to="/esims">{t('esim.back')}</Link> <span aria-hidden="true">›</span>{' '}
        <span className="mono">{iccid}</span>
      </nav>
      {missing ? <h1>{t('esim.notFound')}</h1> : null}
      <FormError error={query.error} />
      {query.isPending ? <p className="muted">{t('common.loading')}</p> : null}
      {esim ? (
        <>
          <div className="section-head">
            <h1>{esim.planName}</h1>
            <EsimStatusBadge status={esim.status} />
          </div>
          <EsimUsagePanel
            esim={esim}
            query={query}
            action={
              canTopUp(esim.status) ? (
                <Link className="button small" to={topUpPath(esim.planId, esim.iccid)}>
                  {t('esim.topUp')}
                </Link>
              ) : null
            }
          />
          <PushOptIn />
          <AutoTopUp esim={esim} />
          <section className="card">
            <InstallGuide esim={esim} steps heading="h2" />
          </section>
          <ShareInstallLink esim={esim} />
        </>
      ) : null}
    </div>
  );
}

/** The hosted install page's link: copy, open, or replace it (the old one stops working). */
function ShareInstallLink({ esim }: { esim: Esim }) {
  const { t } = useI18n();
  const client = useQueryClient();
  const [replaced, setReplaced] = useState(false);
  const replace = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/v1/user/esims/{iccid}/install-link', { params: { path: { iccid: esim.iccid } } }),
      ),
    onSuccess: (data) => {
      client.setQueryData(['esim', esim.iccid], data);
      void client.invalidateQueries({ queryKey: ['esims'] });
      setReplaced(true);
    },
  });
  return (
    <section className="card share-link" aria-labelledby="share-title">
      <h2 id="share-title">{t('install.share.title')}</h2>
      <p className="muted">{t('install.share.body')}</p>
      <CodeField
        label={t('install.share.title')}
        value={esim.installUrl}
        copyLabel={t('install.share.copy')}
        testId="install-url"
      />
      <div className="esim-actions">
        <a className="button small" href={esim.installUrl}>
          {t('install.share.open')}
        </a>
        <button
          type="button"
          className="button small"
          onClick={() => replace.mutate()}
          disabled={replace.isPending}
        >
          {replace.isPending ? t('common.working') : t('install.share.replace')}
        </button>
      </div>
      <p className="hint">{t('install.share.replaceHint')}</p>
      <div aria-live="polite">
        {replaced && !replace.isPending ? (
          <p className="form-success" role="status">
            {t('install.share.replaced')}
          </p>
        ) : null}
      </div>
      <FormError error={replace.error} />
    </section>
  );
}
