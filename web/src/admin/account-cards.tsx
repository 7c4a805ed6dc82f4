import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { components } from '../api/admin';
import { dataSize, dateTime, dateTimeOrDash, money, signedMoney } from './display';
import { StatusBadge, TestBadge } from './status-badge';
import { Table } from './data-table';

type Detail = components['schemas']['AccountDetail'];

/** A card of the account page with a heading and, when there is more than shown, a pointer to it. */
export function Card({
  title,
  more,
  className,
  children,
}: {
  title: string;
  more?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <section className={`admin-card${className ? ` ${className}` : ''}`} aria-label={title}>
      <h2>{title}</h2>
      {children}
      {more ? <p className="admin-muted account-more">{more}</p> : null}
    </section>
  );
}

export function ProfileList({ detail }: { detail: Detail }) {
  const a = detail.account;
  return (
    <dl className="admin-dl">
      <dt>Status</dt>
      <dd>
        <StatusBadge status={a.status} />
      </dd>
      <dt>E-mail</dt>
      <dd>
        {a.email} {a.emailVerified ? <span className="admin-badge ok">verified</span> : null}
      </dd>
      <dt>Name</dt>
      <dd>{`${a.firstName} ${a.lastName}`.trim() || '—'}</dd>
      <dt>Account id</dt>
      <dd className="admin-mono">{a.id}</dd>
      <dt>Language</dt>
      <dd>{a.locale}</dd>
      <dt>Currency shown</dt>
      <dd>{a.preferredCurrency}</dd>
      <dt>Partner</dt>
      <dd>{a.isPartner ? 'Yes: sells through the Partner API' : 'No'}</dd>
      <dt>Created</dt>
      <dd>{dateTime(a.createdAt)}</dd>
      {a.deletedAt ? (
        <>
          <dt>Deleted</dt>
          <dd>{dateTime(a.deletedAt)}</dd>
        </>
      ) : null}
    </dl>
  );
}

export function WalletSummary({ wallet }: { wallet: Detail['wallet'] }) {
  return (
    <dl className="admin-dl">
      <dt>Balance</dt>
      <dd className="account-balance" data-testid="wallet-balance">
        {money(wallet.balance, wallet.currency)}
      </dd>
      <dt>Low-balance alert below</dt>
      <dd>{money(wallet.lowBalanceThreshold, wallet.currency)}</dd>
      {wallet.testBalance !== null ? (
        <>
          <dt>Test wallet</dt>
          <dd>{money(wallet.testBalance, wallet.currency)}</dd>
        </>
      ) : null}
    </dl>
  );
}

export function Transactions({ wallet }: { wallet: Detail['wallet'] }) {
  if (wallet.transactions.length === 0) return <p className="admin-muted">No wallet transactions yet.</p>;
  return (
    <Table
      head={['When', 'Kind', 'Amount', 'Balance after', 'Description']}
      numeric={['Amount', 'Balance after']}
    >
      {wallet.transactions.map((t) => (
        <tr key={t.id}>
          <td data-label="When">{dateTime(t.createdAt)}</td>
          <td data-label="Kind">{t.kind}</td>
          <td data-label="Amount" className="num">
            {signedMoney(t.amount, t.currency)}
          </td>
          <td data-label="Balance after" className="num">
            {money(t.balanceAfter, t.currency)}
          </td>
          <td data-label="Description">
            {t.description || '—'}
            {t.orderId ? (
              <>
                {' '}
                <Link to={`/admin/orders/${encodeURIComponent(t.orderId)}`}>order</Link>
              </>
            ) : null}
          </td>
        </tr>
      ))}
    </Table>
  );
}

export function Orders({ orders }: { orders: Detail['orders'] }) {
  if (orders.items.length === 0) return <p className="admin-muted">No orders.</p>;
  return (
    <Table head={['Order', 'Created', 'Status', 'Plan', 'Amount', 'Paid by']} numeric={['Amount']}>
      {orders.items.map((o) => (
        <tr key={o.id}>
          <td data-label="Order">
            <Link to={`/admin/orders/${encodeURIComponent(o.id)}`} className="account-nowrap">
              {o.orderNumber}
            </Link>{' '}
            <TestBadge livemode={o.livemode} />
            {o.channel === 'partner' ? <div className="admin-muted">Partner API</div> : null}
          </td>
          <td data-label="Created">{dateTime(o.createdAt)}</td>
          <td data-label="Status">
            <StatusBadge status={o.status} />
            {o.lastError && o.status === 'PROCESSING' ? (
              <div className="admin-muted">{o.lastError}</div>
            ) : null}
          </td>
          <td data-label="Plan">
            {o.planName ?? o.planId}
            {o.quantity > 1 ? ` × ${o.quantity}` : ''}
          </td>
          <td data-label="Amount" className="num">
            {money(o.amountUsd, o.currency)}
          </td>
          <td data-label="Paid by">{o.paymentMethod}</td>
        </tr>
      ))}
    </Table>
  );
}

function Usage({ used, total }: { used: number; total: number }) {
  const percent = total > 0 ? Math.min(100, Math.round((used / total) * 100)) : 0;
  return (
    <div className="account-usage">
      <span>
        {dataSize(used)} of {dataSize(total)}
      </span>
      <span className="account-usage-bar" aria-hidden="true">
        <span style={{ width: `${percent}%` }} />
      </span>
    </div>
  );
}

export function Esims({ esims }: { esims: Detail['esims'] }) {
  if (esims.items.length === 0) return <p className="admin-muted">No eSIMs.</p>;
  return (
    <Table head={['ICCID', 'Plan', 'Status', 'Usage', 'Usage as of', 'Expires', 'Order']}>
      {esims.items.map((e) => (
        <tr key={e.id}>
          <td data-label="ICCID">
            <span className="admin-mono account-nowrap">{e.iccid}</span> <TestBadge livemode={e.livemode} />
          </td>
          <td data-label="Plan">{e.planName ?? e.planId}</td>
          <td data-label="Status">
            <StatusBadge status={e.status} />
            {e.installState ? (
              <div className="admin-muted">on phone: {e.installState.toLowerCase()}</div>
            ) : null}
          </td>
          <td data-label="Usage">
            <Usage used={e.dataUsageMb} total={e.totalVolumeMb} />
          </td>
          <td data-label="Usage as of">{dateTimeOrDash(e.usageUpdatedAt ?? e.usageCheckedAt)}</td>
          <td data-label="Expires">{dateTimeOrDash(e.expiresAt)}</td>
          <td data-label="Order">
            <Link to={`/admin/orders/${encodeURIComponent(e.orderId)}`}>order</Link>
          </td>
        </tr>
      ))}
    </Table>
  );
}

const AUTHORS: Record<string, string> = { customer: 'customer', staff: 'support', system: 'the service' };

export function Tickets({ tickets }: { tickets: Detail['tickets'] }) {
  if (tickets.items.length === 0) return <p className="admin-muted">No tickets.</p>;
  return (
    <Table head={['Subject', 'Status', 'Messages', 'Last activity']} numeric={['Messages']}>
      {tickets.items.map((t) => (
        <tr key={t.id}>
          <td data-label="Subject">
            <Link to={`/admin/tickets/${encodeURIComponent(t.id)}`}>{t.subject}</Link>
            <div className="admin-muted">{t.category}</div>
          </td>
          <td data-label="Status">
            <StatusBadge status={t.status} />
          </td>
          <td data-label="Messages" className="num">
            {t.messages}
          </td>
          <td data-label="Last activity">
            {dateTime(t.updatedAt)}
            {t.lastAuthor ? (
              <div className="admin-muted">by {AUTHORS[t.lastAuthor] ?? t.lastAuthor}</div>
            ) : null}
          </td>
        </tr>
      ))}
    </Table>
  );
}

export function Sessions({ sessions }: { sessions: Detail['sessions'] }) {
  return (
    <>
      <p data-testid="live-sessions">
        <strong>{sessions.live}</strong> live {sessions.live === 1 ? 'session' : 'sessions'} (app, web shop,
        partner console)
      </p>
      {sessions.newest.length > 0 ? (
        <ul className="account-sessions">
          {sessions.newest.map((s, i) => (
            <li key={i}>
              Signed in {dateTime(s.createdAt)}
              <span className="admin-muted"> · runs out {dateTime(s.expiresAt)}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}

export function PartnerFacts({ detail }: { detail: Detail }) {
  const { apiKeys, partner } = detail;
  const rule = partner.priceRule;
  return (
    <dl className="admin-dl">
      <dt>Live API key</dt>
      <dd className="admin-mono">{apiKeys.live ? apiKeys.live.prefix : '—'}</dd>
      {apiKeys.live ? (
        <>
          <dt>Generated</dt>
          <dd>{dateTime(apiKeys.live.generatedAt)}</dd>
        </>
      ) : null}
      <dt>Test API key</dt>
      <dd className="admin-mono">{apiKeys.test ? apiKeys.test.prefix : '—'}</dd>
      <dt>Price rule</dt>
      <dd>
        {rule
          ? `${rule.rule === 'discount' ? `${rule.percent}% off retail` : `${rule.percent}% over wholesale`}, at least ${rule.minMarginPercent}% margin`
          : 'Retail prices'}
      </dd>
      {partner.memberOf.length > 0 ? (
        <>
          <dt>Team member of</dt>
          <dd>
            <ul className="account-plain-list">
              {partner.memberOf.map((m) => (
                <li key={m.partnerId}>
                  <Link to={`/admin/accounts/${encodeURIComponent(m.partnerId)}`}>{m.name || m.email}</Link> (
                  {m.role})
                </li>
              ))}
            </ul>
          </dd>
        </>
      ) : null}
    </dl>
  );
}
