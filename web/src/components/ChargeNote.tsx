import type { ExchangeRate } from '../api/types';
import { useI18n } from '../i18n';
import { formatDate, formatMoney, formatUsd } from '../lib/format';
import './receipt.css';

/**
 * Beside the pay button when prices are shown in another currency (issue 30 T4): the amount
 * actually charged, in US dollars, and the rate the shown prices were converted at, with its date.
 */
export function ChargeNote({ totalUsd, rate }: { totalUsd: number; rate: ExchangeRate | null }) {
  const { t, language } = useI18n();
  if (!rate) return null;
  const perDollar = formatMoney(Number(rate.ratePerUsd), rate.currency, language);
  return (
    <div className="charge-note" data-testid="charge-note">
      <p className="you-pay">
        <strong>{t('dest.youPay', { amount: formatUsd(totalUsd, language) })}</strong>
      </p>
      <p className="hint">
        {rate.asOf
          ? t('dest.rateOf', {
              rate: perDollar,
              one: formatUsd(1, language),
              date: formatDate(rate.asOf, language),
            })
          : t('dest.rate', { rate: perDollar, one: formatUsd(1, language) })}
      </p>
    </div>
  );
}
