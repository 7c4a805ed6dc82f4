import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, unwrap } from '../api/client';
import { EsimCard } from '../components/EsimCard';
import { FormError } from '../components/FormError';
import { useI18n } from '../i18n';
import { formatDateTime } from '../lib/format';
import { useTitle } from '../lib/title';

export default function Esims() {
  const { t, language } = useI18n();
  useTitle(t('esims.title'));
  // The personal list: eSIMs of orders placed here, not the Partner API's (those are on the Partner page).
  const esims = useQuery({
    queryKey: ['esims', 'web'],
    queryFn: () => unwrap(api.GET('/api/v1/user/esims', { params: { query: { channel: 'web' } } })),
  });
  const list = esims.data?.esims ?? [];
  return (
    <div className="container">
      <div className="section-head">
        <h1>{t('esims.title')}</h1>
        {list.length > 0 ? (
          <button
            type="button"
            className="button small"
            onClick={() => void esims.refetch()}
            disabled={esims.isFetching}
          >
            {esims.isFetching ? t('common.working') : t('esims.refresh')}
          </button>
        ) : null}
      </div>
      {esims.dataUpdatedAt ? (
        <p className="hint" aria-live="polite">
          {t('esims.updated', {
            time: formatDateTime(new Date(esims.dataUpdatedAt).toISOString(), language),
          })}
        </p>
      ) : null}
      <FormError error={esims.error} />
      {esims.isPending ? <p className="muted">{t('common.loading')}</p> : null}
      {esims.isSuccess && list.length === 0 ? (
        <div className="empty card">
          <p>{t('esims.empty')}</p>
          <Link className="button primary" to="/">
            {t('esims.browse')}
          </Link>
        </div>
      ) : null}
      <div className="esim-list">
        {list.map((e) => (
          <EsimCard key={e.id} esim={e} />
        ))}
      </div>
    </div>
  );
}
