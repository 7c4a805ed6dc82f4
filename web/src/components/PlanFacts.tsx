import { useDeferredValue, useId, useMemo, useState } from 'react';
import type { Plan } from '../api/types';
import { useI18n } from '../i18n';
import { formatData } from '../lib/format';
import { foldForSearch } from '../lib/text';

type Country = Plan['coverage'][number];

/** Countries whose name or ISO code contains every word of `query` (accents and case ignored). */
export function searchCountries(countries: Country[], query: string): Country[] {
  const words = foldForSearch(query).split(' ').filter(Boolean);
  if (words.length === 0) return countries;
  return countries.filter((c) => {
    const haystack = `${foldForSearch(c.name)} ${c.code.toLowerCase()}`;
    return words.every((w) => haystack.includes(w));
  });
}

/**
 * Every country a regional or global plan covers, behind a disclosure button (a global plan
 * covers 150+: too long to show unasked on a phone), with a labelled search once open.
 */
export function CoveredCountries({ countries }: { countries: Country[] }) {
  const { t } = useI18n();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const deferred = useDeferredValue(query);
  const results = useMemo(() => searchCountries(countries, deferred), [countries, deferred]);
  const searching = deferred.trim() !== '';
  return (
    <div className="coverage" data-testid="coverage">
      <button
        type="button"
        className="button small"
        aria-expanded={open}
        aria-controls={`${id}-panel`}
        onClick={() => setOpen((o) => !o)}
      >
        {open ? t('plan.coverage.hide') : t('plan.coverage.show', { n: countries.length })}
      </button>
      <div id={`${id}-panel`} className="coverage-panel" hidden={!open}>
        {open ? (
          <>
            <div className="field">
              <label htmlFor={`${id}-q`}>{t('plan.coverage.search')}</label>
              <input
                id={`${id}-q`}
                type="search"
                value={query}
                autoComplete="off"
                aria-describedby={`${id}-count`}
                onChange={(e) => setQuery(e.target.value)}
                // The list sits inside the checkout form: Enter here searches, it never places the order.
                onKeyDown={(e) => {
                  if (e.key === 'Enter') e.preventDefault();
                }}
              />
            </div>
            <p id={`${id}-count`} className="hint" role="status">
              {!searching
                ? t('plan.coverage.count', { n: countries.length })
                : results.length > 0
                  ? t('plan.coverage.matches', { n: results.length, total: countries.length })
                  : t('plan.coverage.none', { q: deferred.trim() })}
            </p>
            <ul className="coverage-list" aria-label={t('plan.coverage.listLabel')} tabIndex={0}>
              {results.map((c) => (
                <li key={c.code}>{c.name}</li>
              ))}
            </ul>
          </>
        ) : null}
      </div>
    </div>
  );
}

/**
 * What a traveller asks before paying (issue 30 T5): data, validity, when the days start
 * counting, whether more data can be added later, and where it works.
 */
export function PlanFacts({ plan }: { plan: Plan }) {
  const { t, language } = useI18n();
  const id = useId();
  const policy = plan.activationPolicy;
  return (
    <section className="plan-facts" aria-labelledby={`${id}-h`} data-testid="plan-facts">
      <h2 id={`${id}-h`}>{t('plan.facts', { name: plan.title })}</h2>
      <dl className="facts">
        <div>
          <dt>{t('plan.data')}</dt>
          <dd>{formatData(plan.dataAmountMb, language)}</dd>
        </div>
        {plan.isTopUp ? null : (
          <>
            <div>
              <dt>{t('plan.validity')}</dt>
              <dd>{t('dest.days', { n: plan.durationDays })}</dd>
            </div>
            <div>
              <dt>{t('plan.starts')}</dt>
              <dd>
                {t(`plan.starts.${policy}`)}
                <small className="hint">{t(`plan.starts.${policy}.hint`)}</small>
              </dd>
            </div>
          </>
        )}
        <div>
          <dt>{t('plan.topUp')}</dt>
          <dd>
            {plan.isTopUp
              ? t('plan.topUp.isTopUp')
              : plan.topUpSupported
                ? t('plan.topUp.yes')
                : t('plan.topUp.no')}
          </dd>
        </div>
        <div>
          <dt>{t('plan.coverage')}</dt>
          <dd>
            {plan.scope === 'country'
              ? (plan.coverage[0]?.name ?? '')
              : t('plan.coverage.count', { n: plan.coverage.length })}
          </dd>
        </div>
      </dl>
      {plan.scope === 'country' ? null : <CoveredCountries countries={plan.coverage} />}
    </section>
  );
}
