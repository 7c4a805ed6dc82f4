import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import type { components } from '../api/admin';
import { adminApi, call } from './api';
import { useCan } from './operator';
import { formatWhen } from './tickets-ui';

type SyncReport = components['schemas']['CatalogSyncReport'];
const CURRENCIES = ['EUR', 'GBP', 'TRY'] as const;
type Rates = Record<(typeof CURRENCIES)[number], string>;

function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** "Sync now": the provider's catalogue at once, and what it changed. */
export function CatalogSync() {
  const can = useCan();
  const client = useQueryClient();
  const sync = useMutation({
    mutationFn: async () => (await call(adminApi.POST('/api/admin/v1/catalog/sync'))).sync,
    onSuccess: () => void client.invalidateQueries({ queryKey: ['admin', 'plans'] }),
  });
  return (
    <section className="admin-card" aria-labelledby="catalog-sync">
      <h2 id="catalog-sync">Provider sync</h2>
      <p className="admin-muted">
        Imports the provider’s plans and wholesale prices now (it also runs on its own schedule). Your
        switches and price overrides stay.
      </p>
      {can('catalog.write') ? (
        <button type="button" className="primary" onClick={() => sync.mutate()} disabled={sync.isPending}>
          {sync.isPending ? 'Syncing…' : 'Sync now'}
        </button>
      ) : (
        <p className="admin-muted">Syncing needs the Catalog or Owner role.</p>
      )}
      <div aria-live="polite" className="catalog-sync-result">
        {sync.isError ? (
          <p className="admin-error" role="alert">
            {sync.error.message}
          </p>
        ) : null}
        {sync.data ? <SyncResult report={sync.data} /> : null}
      </div>
    </section>
  );
}

function SyncResult({ report }: { report: SyncReport }) {
  if (!report.ok)
    return (
      <p className="admin-error" role="alert">
        Sync failed after {seconds(report.durationMs)}: {report.error}. The catalogue was left as it was.
      </p>
    );
  return (
    <p className="admin-success" data-testid="sync-result">
      Synced at {formatWhen(report.syncedAt)} in {seconds(report.durationMs)}: {report.created} added,{' '}
      {report.updated} updated, {report.deactivated} disabled (no longer offered), {report.unchanged}{' '}
      unchanged{report.skipped ? `, ${report.skipped} skipped (unknown country)` : ''}.
    </p>
  );
}

/** Units per 1 USD the storefront converts prices with. */
export function ExchangeRates() {
  const can = useCan();
  const client = useQueryClient();
  const rates = useQuery({
    queryKey: ['admin', 'exchange-rates'],
    queryFn: () => call(adminApi.GET('/api/admin/v1/exchange-rates')),
  });
  const [form, setForm] = useState<Rates>({ EUR: '', GBP: '', TRY: '' });
  useEffect(() => {
    if (rates.data)
      setForm({ EUR: rates.data.rates.EUR, GBP: rates.data.rates.GBP, TRY: rates.data.rates.TRY });
  }, [rates.data]);
  const save = useMutation({
    mutationFn: () => call(adminApi.PUT('/api/admin/v1/exchange-rates', { body: form })),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['admin', 'exchange-rates'] }),
  });
  const writable = can('catalog.write');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <section className="admin-card" aria-labelledby="catalog-rates">
      <h2 id="catalog-rates">Exchange rates</h2>
      {rates.isError ? (
        <p className="admin-error" role="alert">
          {rates.error.message}
        </p>
      ) : (
        <form className="catalog-rates" onSubmit={submit}>
          {CURRENCIES.map((c) => (
            <label key={c}>
              {c} per 1 USD
              <input
                inputMode="decimal"
                value={form[c]}
                readOnly={!writable}
                onChange={(e) => setForm({ ...form, [c]: e.target.value })}
              />
              <span className="admin-muted">
                {rates.data?.updatedAt[c] ? `set ${formatWhen(rates.data.updatedAt[c])}` : 'starting rate'}
              </span>
            </label>
          ))}
          {writable ? (
            <button type="submit" disabled={save.isPending || rates.isPending}>
              Save rates
            </button>
          ) : null}
        </form>
      )}
      {save.isError ? (
        <p className="admin-error" role="alert">
          {save.error.message}
        </p>
      ) : null}
      {save.isSuccess ? (
        <p className="admin-success">Rates saved; prices are converted with them now.</p>
      ) : null}
    </section>
  );
}
