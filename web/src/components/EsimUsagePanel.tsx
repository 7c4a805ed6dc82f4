import type { ReactNode } from 'react';
import type { Esim } from '../api/types';
import { useI18n } from '../i18n';
import { formatDateTime } from '../lib/format';
import { EsimFacts } from './EsimCard';

/** The query behind the panel: when it last answered, whether it is asking, and asking again. */
interface UsageQuery {
  dataUpdatedAt: number;
  isFetching: boolean;
  refetch: () => Promise<unknown>;
}

/**
 * An eSIM's usage card on its own page and on its public install page: the facts, when they were
 * read, Refresh, then the page's own action (its top-up link) and any note under it.
 */
export function EsimUsagePanel({
  esim,
  query,
  action,
  children,
}: {
  esim: Pick<Esim, 'iccid' | 'activatedAt' | 'expiresAt' | 'dataUsage' | 'totalVolume'>;
  query: UsageQuery;
  action?: ReactNode;
  children?: ReactNode;
}) {
  const { t, language } = useI18n();
  return (
    <section className="card esim-usage" aria-label={t('esim.usageLabel')}>
      <EsimFacts esim={esim} />
      <p className="hint" aria-live="polite">
        {t('esims.updated', { time: formatDateTime(new Date(query.dataUpdatedAt).toISOString(), language) })}
      </p>
      <div className="esim-actions">
        <button
          type="button"
          className="button small"
          onClick={() => void query.refetch()}
          disabled={query.isFetching}
        >
          {query.isFetching ? t('common.working') : t('esims.refresh')}
        </button>
        {action}
      </div>
      {children}
    </section>
  );
}
