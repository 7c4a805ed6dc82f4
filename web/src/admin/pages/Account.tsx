import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { AdminPage } from '../AdminShell';
import { AdminApiError, adminApi, call } from '../api';
import {
  Card,
  Esims,
  Orders,
  PartnerFacts,
  ProfileList,
  Sessions,
  Tickets,
  Transactions,
  WalletSummary,
} from '../account-cards';
import { accountKey, EndSessionsAction, StatusAction, WalletAdjustment } from '../account-actions';
import { useCan } from '../operator';
import '../account.css';

/**
 * One customer on one page (issue 33 O2): profile, wallet, orders, eSIMs with usage, tickets,
 * sessions, API keys and price rule; the actions the operator's role allows (the server checks
 * each one again).
 */
export default function Account() {
  const { id = '' } = useParams();
  const can = useCan();
  const detail = useQuery({
    queryKey: accountKey(id),
    queryFn: async () =>
      (await call(adminApi.GET('/api/admin/v1/accounts/{id}', { params: { path: { id } } }))).account,
  });

  if (detail.isPending)
    return (
      <AdminPage title="Account">
        <p className="admin-muted">Loading…</p>
      </AdminPage>
    );
  if (detail.isError)
    return (
      <AdminPage title="Account">
        <p
          role="alert"
          className={
            detail.error instanceof AdminApiError && detail.error.status === 404
              ? 'admin-notice'
              : 'admin-error'
          }
        >
          {detail.error instanceof AdminApiError && detail.error.status === 404
            ? `No account has the id ${id}. Search for it by e-mail or name instead.`
            : detail.error.message}
        </p>
      </AdminPage>
    );

  const d = detail.data;
  const a = d.account;
  const name = `${a.firstName} ${a.lastName}`.trim();
  const allOrders = `/admin/orders?accountId=${encodeURIComponent(a.id)}&mode=all`;
  return (
    <AdminPage title={name ? `${name} · ${a.email}` : a.email}>
      <div className="admin-grid account-top">
        <Card title="Profile">
          <ProfileList detail={d} />
          {can('accounts.manage') ? <StatusAction account={a} /> : null}
        </Card>
        <Card title="Wallet">
          <WalletSummary wallet={d.wallet} />
          {can('wallet.adjust') ? <WalletAdjustment accountId={a.id} /> : null}
        </Card>
        <div className="account-stack">
          <Card title="Sessions">
            <Sessions sessions={d.sessions} />
            {can('accounts.manage') ? <EndSessionsAction account={a} live={d.sessions.live} /> : null}
          </Card>
          <Card title="Partner API">
            <PartnerFacts detail={d} />
          </Card>
        </div>
      </div>
      <Card
        title="Orders"
        more={
          <>
            {d.orders.more ? 'The newest 20 are shown. ' : null}
            <Link to={allOrders}>All orders of this account</Link>
          </>
        }
      >
        <Orders orders={d.orders} />
      </Card>
      <Card
        title="eSIMs"
        more={d.esims.more ? 'The newest 50 are shown; older ones are on their orders.' : null}
      >
        <Esims esims={d.esims} />
      </Card>
      <Card title="Tickets" more={d.tickets.more ? 'The 20 with the latest activity are shown.' : null}>
        <Tickets tickets={d.tickets} />
      </Card>
      <Card
        title="Wallet transactions"
        more={
          d.wallet.moreTransactions
            ? 'The newest 20 are shown; the customer’s data export has them all.'
            : null
        }
      >
        <Transactions wallet={d.wallet} />
      </Card>
    </AdminPage>
  );
}
