import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { api, ApiError, unwrap } from '../api/client';
import { EsimStatusBadge } from '../components/EsimCard';
import { EsimUsagePanel } from '../components/EsimUsagePanel';
import { FormError } from '../components/FormError';
import { InstallGuide } from '../components/InstallGuide';
import { useI18n } from '../i18n';
import { useTitle } from '../lib/title';

/** Usage changes while the traveller looks: read again at the API's own cache interval. */
const REFRESH_MS = 60_000;

/**
 * The hosted install page `/install/:token` (issue 30 T2): public, for whoever holds the link (the
 * buyer on the phone, or a partner's traveller). The token is the page's only credential.
 */
export default function Install() {
  const { token = '' } = useParams();
  const { t, language } = useI18n();
  const query = useQuery({
    // The plan name comes in the UI language.
    queryKey: ['install', token, language],
    queryFn: () => unwrap(api.GET('/api/v1/install/{token}', { params: { path: { token } } })),
    refetchInterval: REFRESH_MS,
  });
  const esim = query.data;
  const gone = query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 400);
  useTitle(gone ? t('installPage.notFoundTitle') : t('installPage.title'));
  if (gone) {
    return (
      <section className="narrow center" data-testid="install-not-found">
        <h1>{t('installPage.notFoundTitle')}</h1>
        <p className="muted">{t('installPage.notFoundBody')}</p>
        <Link className="button" to="/">
          {t('notFound.home')}
        </Link>
      </section>
    );
  }
  const topUp = esim?.topUpUrl ? new URL(esim.topUpUrl) : null;
  const ended = esim?.status === 'EXPIRED' || esim?.status === 'CANCELLED';
  return (
    <div className="container esim-page">
      <FormError error={query.error} />
      {query.isPending ? <p className="muted">{t('common.loading')}</p> : null}
      {esim ? (
        <>
          <div className="section-head">
            <div>
              <h1>{t('installPage.title')}</h1>
              <p className="muted plan-name">{esim.planName}</p>
            </div>
            <EsimStatusBadge status={esim.status} />
          </div>
          {esim.livemode ? null : <p className="warning">{t('installPage.test')}</p>}
          <EsimUsagePanel
            esim={esim}
            query={query}
            action={
              // The storefront of this service: a path, so the page stays in the app.
              topUp ? (
                <Link className="button small" to={`${topUp.pathname}${topUp.search}`}>
                  {t('esim.topUp')}
                </Link>
              ) : null
            }
          >
            {!topUp && esim.livemode && !ended ? (
              <p className="hint">{t('installPage.topUpSeller')}</p>
            ) : null}
          </EsimUsagePanel>
          <section className="card">
            <InstallGuide esim={esim} steps heading="h2" />
          </section>
        </>
      ) : null}
    </div>
  );
}
