import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useNavigation, useSearchParams } from 'react-router';
import { api, unwrap } from '../api/client';
import { Flag } from '../components/Flag';
import { FormError } from '../components/FormError';
import { useI18n, type MessageKey } from '../i18n';
import { useDisplayCurrency } from '../lib/currency';
import { storefrontSeed } from '../lib/ssr';
import { useTitle } from '../lib/title';

const FILTERS = ['popular', 'all', 'regional', 'global'] as const;
type Filter = (typeof FILTERS)[number];

function isFilter(value: string | null): value is Filter {
  return (FILTERS as readonly string[]).includes(value ?? '');
}

export function Storefront() {
  const { t, language } = useI18n();
  const currency = useDisplayCurrency();
  const [params, setParams] = useSearchParams();
  const filter: Filter = isFilter(params.get('filter')) ? (params.get('filter') as Filter) : 'popular';
  const search = params.get('q') ?? '';
  const [text, setText] = useState(search);
  useTitle(t('store.title'));

  // Type-ahead: the query follows the input after a short pause, unless the visitor is already
  // leaving for a destination (a late search update would cancel that navigation).
  const navigation = useNavigation();
  const leaving = navigation.state !== 'idle';
  useEffect(() => {
    const timer = setTimeout(() => {
      if (leaving || text.trim() === search) return;
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          if (text.trim()) next.set('q', text.trim());
          else next.delete('q');
          return next;
        },
        { replace: true },
      );
    }, 250);
    return () => clearTimeout(timer);
  }, [text, search, setParams, leaving]);

  // A search looks through every destination, whatever tab is open.
  const apiFilter = search ? (filter === 'popular' || filter === 'all' ? undefined : filter) : filter;
  const destinations = useQuery({
    queryKey: ['destinations', apiFilter ?? 'all', search, language, currency],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/destinations', {
          params: {
            query: {
              ...(apiFilter && apiFilter !== 'all' ? { filter: apiFilter } : {}),
              ...(search ? { search } : {}),
              locale: language,
              currency,
            },
          },
        }),
      ),
    // The previous results while a search types ahead; on a first load the server's list (USD).
    placeholderData: (previous) => previous ?? (search ? undefined : storefrontSeed(filter, language)),
    staleTime: 60_000,
  });

  const selectFilter = (next: Filter) =>
    setParams(
      (prev) => {
        const p = new URLSearchParams(prev);
        p.set('filter', next);
        return p;
      },
      { replace: true },
    );

  const countries = destinations.data?.countries ?? [];
  const regions = destinations.data?.regions ?? [];
  const empty = destinations.isSuccess && countries.length === 0 && regions.length === 0;

  return (
    <>
      <section className="hero">
        <div className="hero-inner">
          <h1>{t('store.heroTitle')}</h1>
          <p className="hero-sub">{t('store.heroSub')}</p>
          <form className="search" role="search" onSubmit={(e) => e.preventDefault()}>
            <label htmlFor="destination-search" className="visually-hidden">
              {t('store.searchLabel')}
            </label>
            <input
              id="destination-search"
              type="search"
              value={text}
              onChange={(e) => setText(e.target.value)}
              placeholder={t('store.searchPlaceholder')}
              autoComplete="off"
              maxLength={100}
            />
          </form>
          <ul className="hero-points">
            <li>{t('store.point1')}</li>
            <li>{t('store.point2')}</li>
            <li>{t('store.point3')}</li>
          </ul>
        </div>
      </section>

      {params.get('deleted') ? (
        <div className="container">
          <p className="form-success" role="status">
            {t('store.deleted')}
          </p>
        </div>
      ) : null}
      <section className="container" aria-labelledby="destinations-heading">
        <div className="section-head">
          <h2 id="destinations-heading">
            {search ? t('store.results', { q: search }) : t('store.destinations')}
          </h2>
          <div className="tabs" role="group" aria-label={t('store.filterLabel')}>
            {FILTERS.map((f) => (
              <button
                key={f}
                type="button"
                className="tab"
                aria-pressed={filter === f}
                onClick={() => selectFilter(f)}
              >
                {t(`store.filter.${f}` as MessageKey)}
              </button>
            ))}
          </div>
        </div>

        <FormError error={destinations.error} />
        {destinations.isPending ? <p className="muted">{t('common.loading')}</p> : null}
        {empty ? <p className="empty">{t('store.noResults')}</p> : null}

        {countries.length > 0 ? (
          <ul className="destination-grid" aria-label={t('store.countries')} data-testid="destination-list">
            {countries.map((c) => (
              <li key={c.code}>
                <Link className="destination-card" to={`/destinations/${c.code}`}>
                  <Flag code={c.code} />
                  <span className="destination-name">{c.name}</span>
                  <span className="destination-price">
                    <small>{t('store.from')}</small> {c.startingPrice.formatted}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        ) : null}

        {regions.length > 0 ? (
          <>
            {countries.length > 0 ? <h3 className="subhead">{t('store.regions')}</h3> : null}
            <ul className="destination-grid regions" aria-label={t('store.regions')}>
              {regions.map((r) => (
                <li key={r.code}>
                  <Link className="destination-card" to={`/destinations/${r.code}`}>
                    <Flag code={r.code} />
                    <span className="destination-name">
                      {r.name}
                      <small className="muted block">{t('store.countryCount', { n: r.countryCount })}</small>
                    </span>
                    <span className="destination-price">
                      <small>{t('store.from')}</small> {r.startingPrice.formatted}
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          </>
        ) : null}
      </section>

      <section className="container how" aria-labelledby="how-heading">
        <h2 id="how-heading">{t('store.howTitle')}</h2>
        <ol className="steps">
          <li>
            <strong>{t('store.how1')}</strong>
            <span>{t('store.how1Body')}</span>
          </li>
          <li>
            <strong>{t('store.how2')}</strong>
            <span>{t('store.how2Body')}</span>
          </li>
          <li>
            <strong>{t('store.how3')}</strong>
            <span>{t('store.how3Body')}</span>
          </li>
        </ol>
      </section>
    </>
  );
}
