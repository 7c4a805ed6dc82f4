import { Link } from 'react-router';
import type { Esim } from '../api/types';
import { useI18n, type MessageKey } from '../i18n';
import { formatDate } from '../lib/format';
import { destinationFromPlanId, planLabel } from '../lib/plans';
import { CopyButton } from './CopyButton';
import { UsageBar } from './UsageBar';

export function EsimCard({ esim }: { esim: Esim }) {
  const { t, language } = useI18n();
  const destination = destinationFromPlanId(esim.planId);
  const installable = esim.status === 'PENDING' || esim.status === 'ACTIVE';
  const topUpAllowed = esim.status !== 'EXPIRED' && esim.status !== 'CANCELLED';
  return (
    <article className="card esim" aria-labelledby={`esim-${esim.id}`} data-testid="esim-card">
      <header className="esim-head">
        <h3 id={`esim-${esim.id}`}>{planLabel(esim.planId)}</h3>
        <span className={`badge esim-${esim.status.toLowerCase()}`}>
          {t(`esim.status.${esim.status}` as MessageKey)}
        </span>
      </header>
      <div className="esim-body">
        <figure className="qr">
          <img
            src={esim.qrCodeSvgUrl}
            alt={t('esim.qrAlt', { iccid: esim.iccid })}
            width="180"
            height="180"
          />
          <figcaption className="hint">{t('esim.qrHint')}</figcaption>
        </figure>
        <div className="esim-info">
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
          <div className="lpa">
            <span className="lpa-label" id={`lpa-${esim.id}`}>
              {t('esim.lpa')}
            </span>
            <code aria-labelledby={`lpa-${esim.id}`} data-testid="lpa">
              {esim.activationCode}
            </code>
            <CopyButton text={esim.activationCode} label={t('esim.copyLpa')} />
          </div>
          <div className="esim-actions">
            {installable ? (
              <a className="button primary small" href={esim.iosInstallUrl}>
                {t('esim.installIos')}
              </a>
            ) : null}
            {topUpAllowed ? (
              <Link
                className="button small"
                to={destination ? `/destinations/${destination}?iccid=${esim.iccid}` : `/?filter=all`}
              >
                {t('esim.topUp')}
              </Link>
            ) : null}
          </div>
        </div>
      </div>
    </article>
  );
}
