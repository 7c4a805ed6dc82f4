import { useI18n } from '../i18n';
import { formatData, usagePercent } from '../lib/format';

/** Data used of the plan's total as a labelled progress bar (used/total MB). */
export function UsageBar({ used, total }: { used: number; total: number }) {
  const { t, language } = useI18n();
  const percent = usagePercent(used, total);
  const label = t('esim.usage', { used: formatData(used, language), total: formatData(total, language) });
  return (
    <div className="usage">
      <div className="usage-text">
        <span>{label}</span>
        <span className="muted">
          {t('esim.left', { left: formatData(Math.max(0, total - used), language) })}
        </span>
      </div>
      <div
        className={percent >= 90 ? 'usage-bar high' : 'usage-bar'}
        role="progressbar"
        aria-label={t('esim.usageLabel')}
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={Math.min(used, total)}
        aria-valuetext={label}
      >
        <span style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}
