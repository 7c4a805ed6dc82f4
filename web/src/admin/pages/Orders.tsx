import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { paths } from '../../api/admin';
import { RecordTable } from '../../components/RecordTable';
import { useCursorList } from '../../lib/cursor-list';
import { AdminPage } from '../AdminShell';
import { adminApi, call } from '../api';
import { dayOf, queryOf } from '../orders-query';
import { ErrorBox, When } from '../orders-ui';
import { StatusBadge } from '../status-badge';
import { money } from '../display';
import '../orders.css';

type Order =
  paths['/api/admin/v1/orders']['get']['responses'][200]['content']['application/json']['orders'][number];

const PAGE = 25;

export default function Orders() {
  const [params, setParams] = useSearchParams();
  const query = queryOf(params);
  const [account, setAccount] = useState(params.get('accountId') ?? '');
  const list = useCursorList<Order>(['admin', 'orders', query], async (cursor) => {
    const page = await call(
      adminApi.GET('/api/admin/v1/orders', {
        params: { query: { ...query, limit: PAGE, ...(cursor ? { cursor } : {}) } },
      }),
    );
    return { items: page.orders, nextCursor: page.nextCursor };
  });

  function set(name: string, value: string) {
    const next = new URLSearchParams(params);
    if (name === 'status') {
      // "Failed fulfilment" is a filter of its own, not a state.
      next.delete('failed');
      if (next.get('status') === 'FAILED') next.delete('status');
      if (value === 'FAILED') next.set('failed', '1');
      else if (value) next.set('status', value);
      else next.delete('status');
    } else if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: true });
  }

  function applyAccount(event: FormEvent) {
    event.preventDefault();
    set('accountId', account.trim());
  }

  const statusValue = query.failed ? 'FAILED' : (query.status ?? '');
  const filtered = [...params.keys()].length > 0;

  return (
    <AdminPage title="Orders">
      <form className="admin-filters orders-filters" onSubmit={applyAccount} aria-label="Filter orders">
        <div className="orders-field">
          <label htmlFor="orders-state">State</label>
          <select id="orders-state" value={statusValue} onChange={(e) => set('status', e.target.value)}>
            <option value="">Any</option>
            <option value="AWAITING_PAYMENT">Awaiting payment</option>
            <option value="PROCESSING">Processing</option>
            <option value="COMPLETED">Completed</option>
            <option value="CANCELLED">Cancelled</option>
            <option value="REFUNDED">Refunded</option>
            <option value="FAILED">Fulfilment failed (any state)</option>
          </select>
        </div>
        <div className="orders-field">
          <label htmlFor="orders-channel">Channel</label>
          <select
            id="orders-channel"
            value={query.channel ?? ''}
            onChange={(e) => set('channel', e.target.value)}
          >
            <option value="">Any</option>
            <option value="mobile">App / web shop</option>
            <option value="partner">Partner API</option>
          </select>
        </div>
        <div className="orders-field">
          <label htmlFor="orders-payment">Payment</label>
          <select
            id="orders-payment"
            value={query.paymentMethod ?? ''}
            onChange={(e) => set('paymentMethod', e.target.value)}
          >
            <option value="">Any</option>
            <option value="wallet">Wallet</option>
            <option value="card">Card</option>
            <option value="crypto">Crypto</option>
          </select>
        </div>
        <div className="orders-field">
          <label htmlFor="orders-mode">Mode</label>
          <select
            id="orders-mode"
            value={query.mode ?? 'live'}
            onChange={(e) => set('mode', e.target.value === 'live' ? '' : e.target.value)}
          >
            <option value="live">Live</option>
            <option value="test">Test</option>
            <option value="all">Both</option>
          </select>
        </div>
        <div className="orders-field">
          <label htmlFor="orders-from">From (UTC)</label>
          <input
            id="orders-from"
            type="date"
            value={dayOf(params.get('from'), false)}
            onChange={(e) => set('from', e.target.value)}
          />
        </div>
        <div className="orders-field">
          <label htmlFor="orders-to">To (UTC, included)</label>
          <input
            id="orders-to"
            type="date"
            value={dayOf(params.get('to'), true)}
            onChange={(e) => set('to', e.target.value)}
          />
        </div>
        <div className="orders-field orders-filter-account">
          <label htmlFor="orders-account-id">Account id</label>
          <input
            id="orders-account-id"
            value={account}
            onChange={(e) => setAccount(e.target.value)}
            onBlur={() =>
              account.trim() !== (params.get('accountId') ?? '') && set('accountId', account.trim())
            }
            placeholder="acc_…"
            spellCheck={false}
            autoComplete="off"
          />
        </div>
        <button type="submit">Apply</button>
        {filtered ? (
          <Link to="/admin/orders" className="orders-clear" onClick={() => setAccount('')}>
            Clear filters
          </Link>
        ) : null}
      </form>

      <ErrorBox error={list.query.error} />
      {list.query.isPending ? <p className="admin-muted">Loading…</p> : null}
      {list.query.isSuccess && list.items.length === 0 ? (
        <p className="admin-muted" data-testid="orders-empty">
          No orders match these filters.
        </p>
      ) : null}
      {list.items.length ? (
        <div className="ops-records">
          <RecordTable<Order>
            caption="Orders"
            rows={list.items}
            rowKey={(o) => o.id}
            testId="order-row"
            columns={[
              {
                header: 'Order',
                card: 'title',
                cell: (o) => (
                  <Link to={`/admin/orders/${o.id}`} className="admin-mono">
                    {o.orderNumber}
                  </Link>
                ),
              },
              { header: 'State', card: 'aside', cell: (o) => <StatusBadge status={o.status} /> },
              { header: 'Created', cell: (o) => <When iso={o.createdAt} /> },
              {
                header: 'Customer',
                cell: (o) => <Link to={`/admin/accounts/${o.accountId}`}>{o.accountEmail}</Link>,
              },
              { header: 'Plan', cell: (o) => `${o.quantity} × ${o.planName ?? o.planId}` },
              { header: 'Amount', numeric: true, cell: (o) => money(o.amountUsd) },
              {
                header: 'Channel',
                cell: (o) =>
                  `${o.channel === 'partner' ? 'Partner' : 'Shop'} · ${o.paymentMethod}${o.livemode ? '' : ' · test'}`,
              },
              {
                header: 'Last error',
                cell: (o) => (o.lastError ? <span className="orders-error-text">{o.lastError}</span> : '—'),
              },
            ]}
          />
        </div>
      ) : null}
      {list.hasMore ? (
        <p>
          <button type="button" onClick={list.loadMore} disabled={list.loadingMore}>
            {list.loadingMore ? 'Loading…' : 'Load more'}
          </button>
        </p>
      ) : null}
    </AdminPage>
  );
}
