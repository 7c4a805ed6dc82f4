import { useQuery } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { AdminPage } from '../AdminShell';
import { adminApi, call } from '../api';
import { centsMoney, dateTime, minorMoney } from '../display';
import { exactHit, hitLinks, type SearchResults } from '../search-hits';
import { StatusBadge, TestBadge } from '../status-badge';
import { Table } from '../data-table';
import '../account.css';

/**
 * The results of the console's search box (issue 33 O2), grouped by kind. A query naming exactly
 * one record (an id, an ICCID, an order number, a whole e-mail address) opens it directly.
 */
export default function Search() {
  const [params] = useSearchParams();
  const q = (params.get('q') ?? '').trim();
  const navigate = useNavigate();
  const results = useQuery({
    queryKey: ['admin', 'search', q],
    queryFn: () => call(adminApi.GET('/api/admin/v1/search', { params: { query: { q } } })),
    enabled: q.length > 0,
  });
  const jump = results.data ? exactHit(q, results.data) : null;
  useEffect(() => {
    // Replace: Back from the record returns to where the search started, not to a page that jumps again.
    if (jump) void navigate(jump, { replace: true });
  }, [jump, navigate]);

  return (
    <AdminPage title={q ? `Search: ${q}` : 'Search'}>
      {!q ? (
        <Explanation />
      ) : results.isPending || jump ? (
        <p className="admin-muted">Searching…</p>
      ) : results.isError ? (
        <p role="alert" className="admin-error">
          {results.error.message}
        </p>
      ) : (
        <Results results={results.data} />
      )}
    </AdminPage>
  );
}

function Explanation({ none }: { none?: boolean }) {
  return (
    <div className={none ? 'admin-notice' : 'admin-card'} role={none ? 'status' : undefined}>
      {none ? <p className="search-none">Nothing found.</p> : null}
      <p>The search box finds:</p>
      <ul className="search-help">
        <li>accounts by e-mail (whole or its beginning), first or last name, or id (acc_…);</li>
        <li>orders by order number (SVC-…) or id (ord_…);</li>
        <li>eSIMs by ICCID (18 to 22 digits) or id (esim_…);</li>
        <li>payments by the provider’s reference (Stripe session, Cryptomus invoice) or id (pay_…).</li>
      </ul>
    </div>
  );
}

function Results({ results: r }: { results: SearchResults }) {
  const total = r.accounts.length + r.orders.length + r.esims.length + r.payments.length;
  if (total === 0) return <Explanation none />;
  return (
    <>
      {r.accounts.length > 0 ? (
        <Group title="Accounts" count={r.accounts.length} head={['Account', 'Name', 'Status', 'Created']}>
          {r.accounts.map((a) => (
            <tr key={a.id}>
              <td data-label="Account">
                <Link to={hitLinks.account(a)}>{a.email}</Link>
                <div className="admin-mono admin-muted">{a.id}</div>
              </td>
              <td data-label="Name">{`${a.firstName} ${a.lastName}`.trim() || '—'}</td>
              <td data-label="Status">
                <StatusBadge status={a.status} />
              </td>
              <td data-label="Created">{dateTime(a.createdAt)}</td>
            </tr>
          ))}
        </Group>
      ) : null}
      {r.orders.length > 0 ? (
        <Group
          title="Orders"
          count={r.orders.length}
          head={['Order', 'Customer', 'Status', 'Amount', 'Created']}
        >
          {r.orders.map((o) => (
            <tr key={o.id}>
              <td data-label="Order">
                <Link to={hitLinks.order(o)}>{o.orderNumber}</Link> <TestBadge livemode={o.livemode} />
              </td>
              <td data-label="Customer">
                <Link to={hitLinks.account({ id: o.accountId })}>{o.accountEmail}</Link>
              </td>
              <td data-label="Status">
                <StatusBadge status={o.status} />
              </td>
              <td data-label="Amount" className="num">
                {centsMoney(o.amountCents, o.currency)}
              </td>
              <td data-label="Created">{dateTime(o.createdAt)}</td>
            </tr>
          ))}
        </Group>
      ) : null}
      {r.esims.length > 0 ? (
        <Group
          title="eSIMs"
          count={r.esims.length}
          head={['ICCID', 'Customer', 'Status', 'Order', 'Created']}
        >
          {r.esims.map((e) => (
            <tr key={e.id}>
              <td data-label="ICCID">
                <span className="admin-mono account-nowrap">{e.iccid}</span>{' '}
                <TestBadge livemode={e.livemode} />
              </td>
              <td data-label="Customer">
                <Link to={hitLinks.esim(e)}>{e.accountEmail}</Link>
              </td>
              <td data-label="Status">
                <StatusBadge status={e.status} />
              </td>
              <td data-label="Order">
                <Link to={hitLinks.order({ id: e.orderId })} className="admin-mono">
                  {e.orderId}
                </Link>
              </td>
              <td data-label="Created">{dateTime(e.createdAt)}</td>
            </tr>
          ))}
        </Group>
      ) : null}
      {r.payments.length > 0 ? (
        <Group
          title="Payments"
          count={r.payments.length}
          head={['Payment', 'Provider reference', 'Status', 'Amount', 'Opens', 'Created']}
        >
          {r.payments.map((p) => (
            <tr key={p.id}>
              <td data-label="Payment">
                <span className="admin-mono">{p.id}</span>
              </td>
              <td data-label="Provider reference">
                {p.provider} <span className="admin-mono">{p.providerRef ?? '—'}</span>
              </td>
              <td data-label="Status">
                <StatusBadge status={p.status} />
              </td>
              <td data-label="Amount" className="num">
                {minorMoney(p.amountMinor, p.currency)}
              </td>
              <td data-label="Opens">
                <Link to={hitLinks.payment(p)}>
                  {p.orderId ? 'Its order' : 'The account (wallet top-up)'}
                </Link>
              </td>
              <td data-label="Created">{dateTime(p.createdAt)}</td>
            </tr>
          ))}
        </Group>
      ) : null}
    </>
  );
}

function Group({
  title,
  count,
  head,
  children,
}: {
  title: string;
  count: number;
  head: string[];
  children: ReactNode;
}) {
  return (
    <section className="admin-card" aria-label={title}>
      <h2>
        {title} <span className="admin-muted">({count})</span>
      </h2>
      <Table head={head} numeric={['Amount']}>
        {children}
      </Table>
    </section>
  );
}
