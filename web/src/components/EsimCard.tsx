import { Link } from 'react-router';
import type { Esim } from '../api/types';
import { useI18n, type MessageKey } from '../i18n';
import { formatDate } from '../lib/format';
import { topUpPath } from '../lib/plans';
import { InstallGuide } from './InstallGuide';
import { UsageBar } from './UsageBar';

/** Status, usage and dates of an eSIM: the list's card and the eSIM's own page share them. */
export function EsimFacts({
  esim,
}: {
  esim: Pick<Esim, 'iccid' | 'activatedAt' | 'expiresAt' | 'dataUsage' | 'totalVolume'>;
}) {
  const { t, language } = useI18n();
  return (
    <>
      <UsageBar used={esim.dataUsage} total={esim.totalVolume} />
      <dl className="facts">
        <div>
          <dt>{t('esim.iccid')}</dt>
          <dd className="mono" data-testid="iccid">
            {esim.iccid}
          </dd>
        </div>
        {esim.activatedAt ? (
          <div>
            <dt>{t('esim.activated')}</dt>
            <dd>{formatDate(esim.activatedAt, language)}</dd>
          </div>
        ) : null}
        {esim.expiresAt ? (
          <div>
            <dt>{t('esim.expires')}</dt>
            <dd>{formatDate(esim.expiresAt, language)}</dd>
          </div>
        ) : null}
      </dl>
    </>
  );
}

export function EsimStatusBadge({ status }: { status: Esim['status'] }) {
  const { t } = useI18n();
  return (
    <span className={`badge esim-${status.toLowerCase()}`}>{t(`esim.status.${status}` as MessageKey)}</span>
  );
}

/** Top-ups are for eSIMs that still run. */
export const canTopUp = (status: Esim['status']) => status !== 'EXPIRED' && status !== 'CANCELLED';

export function EsimCard({ esim }: { esim: Esim }) {
  const { t } = useI18n();
  return (
    <article className="card esim" aria-labelledby={`esim-${esim.id}`} data-testid="esim-card">
      <header className="esim-head">
        <h3 id={`esim-${esim.id}`}>{esim.planName}</h3>
        <EsimStatusBadge status={esim.status} />
      </header>
      <EsimFacts esim={esim} />
      <InstallGuide esim={esim} heading="h4" />
      <div className="esim-actions">
        <Link className="button small" to={`/esims/${esim.iccid}`}>
          {t('esim.details')}
        </Link>
        {canTopUp(esim.status) ? (
          <Link className="button small" to={topUpPath(esim.planId, esim.iccid)}>
            {t('esim.topUp')}
          </Link>
        ) : null}
      </div>
    </article>
  );
}
