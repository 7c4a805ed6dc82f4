import { useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { components } from '../../api/admin';
import { useCursorList, type CursorPage } from '../../lib/cursor-list';
import { AdminPage } from '../AdminShell';
import { dataSize, money } from '../display';
import { adminApi, call } from '../api';
import { CatalogSync, ExchangeRates } from '../CatalogTools';
import { useCan } from '../operator';
import '../tickets.css';

type Plan = components['schemas']['ListPlansResponse']['plans'][number];

const PAGE = 100;

/** The catalogue (issue 33 O2): plans with wholesale, retail and markup; switches, overrides, rates, sync. */
export default function Catalog() {
  const [destination, setDestination] = useState('');
  const [active, setActive] = useState<'' | 'true' | 'false'>('');
  const [applied, setApplied] = useState({ destination: '', active: '' as '' | 'true' | 'false' });
  const key = ['admin', 'plans', applied.destination, applied.active];
  const list = useCursorList(key, async (cursor) => {
    const data = await call(
      adminApi.GET('/api/admin/v1/plans', {
        params: {
          query: {
            limit: PAGE,
            ...(applied.destination ? { destination: applied.destination } : {}),
            ...(applied.active ? { active: applied.active === 'true' } : {}),
            ...(cursor ? { cursor } : {}),
          },
        },
      }),
    );
    return { items: data.plans, nextCursor: data.nextCursor ?? null };
  });

  const filter = (event: FormEvent) => {
    event.preventDefault();
    setApplied({ destination: destination.trim().toUpperCase(), active });
  };

  return (
    <AdminPage title="Catalog">
      <div className="admin-grid">
        <CatalogSync />
        <ExchangeRates />
      </div>
      <section className="admin-card" aria-labelledby="catalog-plans">
        <h2 id="catalog-plans">Plans</h2>
        <form className="admin-filters" onSubmit={filter}>
          <label>
            Destination code
            <input
              value={destination}
              onChange={(e) => setDestination(e.target.value)}
              placeholder="TR, EU, GLOBAL…"
              maxLength={64}
            />
          </label>
          <label>
            Sellable
            <select value={active} onChange={(e) => setActive(e.target.value as typeof active)}>
              <option value="">All</option>
              <option value="true">Sellable</option>
              <option value="false">Not sellable</option>
            </select>
          </label>
          <button type="submit">Filter</button>
        </form>
        {list.query.isPending ? (
          <p className="admin-muted">Loading plans…</p>
        ) : list.query.isError ? (
          <p className="admin-error" role="alert">
            {list.query.error.message}
          </p>
        ) : list.items.length === 0 ? (
          <p className="admin-muted">No plans. Run a sync to import the provider’s catalogue.</p>
        ) : (
          <div className="admin-table-wrap catalog-plans">
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">Plan</th>
                  <th scope="col">Country / region</th>
                  <th scope="col" className="num">
                    Wholesale
                  </th>
                  <th scope="col" className="num">
                    Retail
                  </th>
                  <th scope="col" className="num">
                    Markup
                  </th>
                  <th scope="col">Enabled</th>
                  <th scope="col">Price override (USD)</th>
                </tr>
              </thead>
              <tbody>
                {list.items.map((plan) => (
                  <PlanRow key={plan.id} plan={plan} listKey={key} />
                ))}
              </tbody>
            </table>
          </div>
        )}
        {list.hasMore ? (
          <p>
            <button type="button" onClick={list.loadMore} disabled={list.loadingMore}>
              {list.loadingMore ? 'Loading…' : 'Show more plans'}
            </button>
          </p>
        ) : null}
      </section>
    </AdminPage>
  );
}

function PlanRow({ plan, listKey }: { plan: Plan; listKey: unknown[] }) {
  const can = useCan();
  const client = useQueryClient();
  const writable = can('catalog.write');
  const [override, setOverride] = useState(
    plan.priceOverrideUsd === null ? '' : String(plan.priceOverrideUsd),
  );
  const update = useMutation({
    mutationFn: (body: { active?: boolean; priceUsd?: number | null }) =>
      call(adminApi.PATCH('/api/admin/v1/plans/{id}', { params: { path: { id: plan.id } }, body })),
    onSuccess: ({ plan: next }) => {
      setOverride(next.priceOverrideUsd === null ? '' : String(next.priceOverrideUsd));
      client.setQueryData<InfiniteData<CursorPage<Plan>>>(listKey, (old) =>
        old
          ? {
              ...old,
              pages: old.pages.map((p) => ({
                ...p,
                items: p.items.map((x) => (x.id === next.id ? next : x)),
              })),
            }
          : old,
      );
    },
  });
  const savePrice = (event: FormEvent) => {
    event.preventDefault();
    const value = override.trim();
    update.mutate({ priceUsd: value === '' ? null : Number(value) });
  };
  return (
    <tr>
      <td>
        {plan.title}
        <div className="admin-muted">
          {dataSize(plan.dataAmountMb)} · {plan.durationDays} days{plan.isTopUp ? ' · top-up' : ''}
        </div>
        <div className="admin-mono admin-muted">{plan.id}</div>
      </td>
      <td>
        {plan.destinationCode}
        <div className="admin-muted">{plan.scope}</div>
        {plan.offeredByProvider ? null : <span className="admin-badge bad">Not offered by provider</span>}
      </td>
      <td className="num">{money(plan.wholesaleUsd)}</td>
      <td className="num">
        {money(plan.priceUsd)}
        {plan.priceOverrideUsd !== null ? (
          <div className="admin-muted">synced {money(plan.syncedPriceUsd)}</div>
        ) : null}
      </td>
      <td className="num">{plan.markupPercent === null ? '—' : `${plan.markupPercent}%`}</td>
      <td>
        <label>
          <input
            type="checkbox"
            checked={plan.enabledByOperator}
            disabled={!writable || update.isPending}
            onChange={(e) => update.mutate({ active: e.target.checked })}
          />
          <span className="visually-hidden">Enabled: {plan.title}</span>
        </label>
      </td>
      <td>
        {writable ? (
          <form className="catalog-price" onSubmit={savePrice}>
            <label className="visually-hidden" htmlFor={`price-${plan.id}`}>
              Price override for {plan.title}
            </label>
            <input
              id={`price-${plan.id}`}
              inputMode="decimal"
              value={override}
              placeholder="none"
              onChange={(e) => setOverride(e.target.value)}
            />
            <button type="submit" disabled={update.isPending}>
              Save
            </button>
          </form>
        ) : plan.priceOverrideUsd === null ? (
          <span className="admin-muted">none</span>
        ) : (
          money(plan.priceOverrideUsd)
        )}
        {update.isError ? (
          <p className="admin-error" role="alert">
            {update.error.message}
          </p>
        ) : null}
      </td>
    </tr>
  );
}
