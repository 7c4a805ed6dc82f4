import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import { FormError } from '../../components/FormError';
import { useI18n } from '../../i18n';
import { formatMoney } from '../../lib/format';
import type { PartnerConsole } from '../../partner/console';
import { usePartnerT } from '../../partner/console';
import { PartnerShell } from '../../partner/PartnerShell';

const FORMATS = ['pdf', 'csv', 'json'] as const;

/** UTC day, YYYY-MM-DD: statements and exports are in UTC whatever the browser's zone. */
const utcDay = (d: Date) => d.toISOString().slice(0, 10);

/**
 * Billing (issue 32 C5, C6): monthly statements of the console's mode (JSON, CSV, PDF), a CSV
 * export of any date range, and the partner's prices. Downloads are plain links: the routes are
 * GETs the session cookie authorises, so the browser saves them itself.
 */
function BillingContent({ pc }: { pc: PartnerConsole }) {
  const t = usePartnerT();
  const { language } = useI18n();
  const base = `/api/v1/partners/${encodeURIComponent(pc.partnerId)}`;
  const modeQuery = `mode=${pc.mode}`;
  const months = useQuery({
    queryKey: [...pc.key, 'statements'],
    queryFn: () => unwrap(api.GET('/api/v1/partners/{partnerId}/statements', { params: pc.scope })),
  });
  const current = months.data?.months.find((m) => !m.final)?.month;
  const statement = useQuery({
    queryKey: [...pc.key, 'statement', current],
    enabled: Boolean(current),
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/partners/{partnerId}/statements/{month}', {
          params: { path: { ...pc.scope.path, month: current! }, query: pc.scope.query },
        }),
      ),
  });
  const rule = useQuery({
    queryKey: [...pc.key, 'pricing'],
    queryFn: () => unwrap(api.GET('/api/v1/partners/{partnerId}/pricing', { params: pc.scope })),
  });
  const now = new Date();
  const [from, setFrom] = useState(() => `${utcDay(now).slice(0, 8)}01`);
  const [to, setTo] = useState(() => utcDay(now));
  const money = (usd: number) => formatMoney(usd, 'USD', language);
  // The route also answers CSV and PDF (a string to the client's types); asked without format it is JSON.
  const s = typeof statement.data === 'object' ? statement.data : undefined;

  return (
    <div className="billing-page">
      <section aria-labelledby="billing-statements">
        <h2 id="billing-statements">{t('pc.billing.statements')}</h2>
        <p className="hint">{t('pc.billing.statementsHint', { mode: t(`pc.mode.${pc.mode}`) })}</p>
        <FormError error={months.error ?? statement.error} />
        {s ? (
          <div className="card billing-summary" data-testid="billing-current">
            <h3>{t('pc.billing.current', { month: s.month })}</h3>
            <dl>
              {(
                [
                  ['pc.billing.opening', s.openingBalance],
                  ['pc.billing.topUps', s.totals.top_up.amount],
                  ['pc.billing.orders', s.totals.order.amount],
                  ['pc.billing.refunds', s.totals.refund.amount],
                  ['pc.billing.adjustments', s.totals.adjustment.amount],
                  ['pc.billing.closing', s.closingBalance],
                ] as const
              ).map(([label, amount]) => (
                <div key={label}>
                  <dt>{t(label)}</dt>
                  <dd data-testid={label.replace('pc.billing.', 'billing-')}>{money(amount)}</dd>
                </div>
              ))}
            </dl>
          </div>
        ) : null}
        {months.data ? (
          <div className="table-wrap">
            <table data-testid="statements">
              <thead>
                <tr>
                  <th scope="col">{t('pc.billing.month')}</th>
                  <th scope="col">{t('pc.billing.status')}</th>
                  <th scope="col">{t('pc.billing.downloads')}</th>
                </tr>
              </thead>
              <tbody>
                {months.data.months.map((m) => (
                  <tr key={m.month}>
                    <th scope="row" className="mono billing-month">
                      {m.month}
                    </th>
                    <td>{m.final ? t('pc.billing.final') : t('pc.billing.open')}</td>
                    <td className="billing-downloads">
                      {FORMATS.map((format) => (
                        <a
                          key={format}
                          href={`${base}/statements/${m.month}?format=${format}&${modeQuery}`}
                          download
                          aria-label={t('pc.billing.download', {
                            format: format.toUpperCase(),
                            month: m.month,
                          })}
                          data-testid={`statement-${m.month}-${format}`}
                        >
                          {format.toUpperCase()}
                        </a>
                      ))}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : months.isPending ? (
          <p className="muted">{t('pc.loading')}</p>
        ) : null}
      </section>

      <section aria-labelledby="billing-export">
        <h2 id="billing-export">{t('pc.billing.export')}</h2>
        <p className="hint">{t('pc.billing.exportHint')}</p>
        <div className="billing-range">
          <label>
            <span>{t('pc.billing.from')}</span>
            <input type="date" value={from} max={to} onChange={(e) => setFrom(e.target.value)} />
          </label>
          <label>
            <span>{t('pc.billing.to')}</span>
            <input type="date" value={to} min={from} onChange={(e) => setTo(e.target.value)} />
          </label>
          <a
            className="button"
            href={`${base}/wallet/transactions.csv?from=${from}&to=${to}&${modeQuery}`}
            download
            data-testid="transactions-csv"
          >
            {t('pc.billing.exportCsv')}
          </a>
        </div>
      </section>

      <section aria-labelledby="billing-prices">
        <h2 id="billing-prices">{t('pc.billing.prices')}</h2>
        <FormError error={rule.error} />
        {rule.data ? (
          <p data-testid="price-rule">
            {rule.data.rule
              ? t(rule.data.rule.rule === 'discount' ? 'pc.billing.discount' : 'pc.billing.markup', {
                  percent: rule.data.rule.percent,
                  margin: rule.data.rule.minMarginPercent,
                })
              : t('pc.billing.retail')}
          </p>
        ) : null}
        <a className="button" href={`${base}/prices.csv`} download data-testid="price-list">
          {t('pc.billing.priceList')}
        </a>
      </section>
    </div>
  );
}

export default function Billing() {
  return (
    <PartnerShell title="pc.tab.billing" permission="statements.read">
      {(pc) => <BillingContent pc={pc} />}
    </PartnerShell>
  );
}
