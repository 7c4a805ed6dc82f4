import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { components } from '../../api/admin';
import { AdminPage } from '../AdminShell';
import { adminApi, call } from '../api';
import { centsMoney, count, dateTime } from '../display';
import '../account.css';

/**
 * The provider balance is always null today (no provider reports one); typed as a number that may
 * come so the tile shows it the day one does.
 */
type Overview = Omit<components['schemas']['Overview'], 'providerBalance'> & {
  providerBalance?: number | null;
};

const CHANNEL_NAMES: Record<string, string> = { mobile: 'App & web shop', partner: 'Partner API' };

/** Today's business at a glance (issue 33 O2): every figure opens the list behind it. */
export default function OverviewPage() {
  const overview = useQuery({
    queryKey: ['admin', 'overview'],
    queryFn: async () => (await call(adminApi.GET('/api/admin/v1/overview'))).overview,
    // A console left open on a second screen stays current.
    refetchInterval: 60_000,
  });
  return (
    <AdminPage
      title="Overview"
      actions={
        <button type="button" onClick={() => void overview.refetch()} disabled={overview.isFetching}>
          Refresh
        </button>
      }
    >
      {overview.isPending ? (
        <p className="admin-muted">Loading…</p>
      ) : overview.isError ? (
        <p role="alert" className="admin-error">
          {overview.error.message}
        </p>
      ) : (
        <Figures overview={overview.data} />
      )}
    </AdminPage>
  );
}

function Figures({ overview: o }: { overview: Overview }) {
  const today = `from=${encodeURIComponent(o.day.from)}&to=${encodeURIComponent(o.day.to)}`;
  return (
    <>
      <p className="admin-muted overview-day">
        Today (UTC) since {dateTime(o.day.from)} · updated {dateTime(o.generatedAt)}
      </p>
      <div className="admin-grid overview-grid">
        <Tile title="Sales today">
          <p className="overview-figure">
            <Link to={`/admin/orders?status=COMPLETED&${today}`}>{count(o.sales.orders)} orders</Link>
          </p>
          <p className="overview-sub">{centsMoney(o.sales.revenueCents)} revenue</p>
          <ul className="overview-list">
            {o.sales.channels.map((c) => (
              <li key={c.channel}>
                <Link to={`/admin/orders?status=COMPLETED&channel=${c.channel}&${today}`}>
                  {CHANNEL_NAMES[c.channel] ?? c.channel}
                </Link>
                <span>
                  {count(c.orders)} · {centsMoney(c.revenueCents)}
                </span>
              </li>
            ))}
          </ul>
        </Tile>
        <Tile title="Fulfilment failures today" alert={o.fulfilmentFailures.ordersWithFailedAttempts > 0}>
          <p className="overview-figure">
            <Link to={`/admin/orders?failed=1&${today}`}>
              {count(o.fulfilmentFailures.ordersWithFailedAttempts)} orders failed an attempt
            </Link>
          </p>
          <p className="overview-sub">Orders still processing can be retried from the order page.</p>
          <ul className="overview-list">
            <li>
              <Link to={`/admin/orders?status=REFUNDED&${today}`}>Refunded today</Link>
              <span>{count(o.fulfilmentFailures.refundedOrders)}</span>
            </li>
          </ul>
        </Tile>
        <Tile title="Dead jobs" alert={o.deadJobs > 0}>
          <p className="overview-figure">
            <Link to="/admin/jobs">{count(o.deadJobs)} waiting for an operator</Link>
          </p>
          <p className="overview-sub">Background work that gave up after its retries.</p>
        </Tile>
        <Tile title="Tickets" alert={o.tickets.open > 0}>
          <p className="overview-figure">
            <Link to="/admin/tickets?status=OPEN">{count(o.tickets.open)} open</Link>
          </p>
          <ul className="overview-list">
            <li>
              <Link to="/admin/tickets?status=ANSWERED">Waiting for the customer</Link>
              <span>{count(o.tickets.waitingForCustomer)}</span>
            </li>
          </ul>
        </Tile>
        <Tile title="Provider balance">
          {typeof o.providerBalance === 'number' ? (
            <p className="overview-figure">{centsMoney(o.providerBalance)}</p>
          ) : (
            <p className="admin-muted">
              Not reported: the eSIM provider offers no balance call. Check it in the provider’s own
              dashboard.
            </p>
          )}
        </Tile>
      </div>
    </>
  );
}

function Tile({ title, alert, children }: { title: string; alert?: boolean; children: ReactNode }) {
  return (
    <section className={`admin-card overview-tile${alert ? ' overview-alert' : ''}`}>
      <h2>
        {title} {alert ? <span className="admin-badge bad">Needs a look</span> : null}
      </h2>
      {children}
    </section>
  );
}
