import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import type { paths } from '../../api/admin';
import { AdminPage } from '../AdminShell';
import { adminApi, call } from '../api';
import { minorMoney } from '../display';
import { useCan } from '../operator';
import { Badge, ErrorBox, When } from '../orders-ui';
import '../orders.css';

type Report =
  paths['/api/admin/v1/reconcile']['post']['responses'][200]['content']['application/json']['report'];
type Refund =
  paths['/api/admin/v1/payments/refunds']['get']['responses'][200]['content']['application/json']['refunds'][number];

/** Reconcile on demand (finance), and the refunds an operator must make by hand. */
export default function Reconcile() {
  const run = useMutation({
    mutationFn: async () => (await call(adminApi.POST('/api/admin/v1/reconcile'))).report,
  });
  return (
    <AdminPage
      title="Reconcile"
      actions={
        <button type="button" className="primary" onClick={() => run.mutate()} disabled={run.isPending}>
          {run.isPending ? 'Checking the books…' : 'Run reconcile'}
        </button>
      }
    >
      <p className="admin-muted">
        The checks of <code>npm run reconcile</code>, on the live database and read-only: wallets against
        their ledgers, what every order was charged and refunded, orders stuck or dead-lettered in fulfilment,
        cancellations and auto top-ups. Each run is written to the audit log.
      </p>
      <ErrorBox error={run.error} />
      {run.data ? <ReportView report={run.data} /> : null}
      <ManualRefunds />
    </AdminPage>
  );
}

const count = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

function ReportView({ report }: { report: Report }) {
  const failed = report.checks.filter((c) => !c.ok);
  return (
    <section className="admin-card" aria-labelledby="reconcile-report" data-testid="reconcile-report">
      <h2 id="reconcile-report">Report</h2>
      <p role="status" className={report.ok ? 'admin-success' : 'admin-error'}>
        {report.ok
          ? `The books add up: ${count(report.accounts, 'account')} and ${count(report.orders, 'order')} checked.`
          : `${count(failed.length, 'check')} failed among ${count(report.accounts, 'account')} and ${count(report.orders, 'order')}.`}{' '}
        <When iso={report.checkedAt} />
      </p>
      <ul className="reconcile-checks">
        {report.checks.map((c) => (
          <li key={c.check} className="reconcile-check" data-testid="reconcile-check">
            <div className="reconcile-check-head">
              <Badge tone={c.ok ? 'ok' : 'bad'}>{c.ok ? 'passed' : `${c.findings.length} found`}</Badge>
              <span>{c.title}</span>
              <span className="admin-muted admin-mono">{c.check}</span>
            </div>
            {c.findings.length ? (
              <ul>
                {c.findings.map((f, i) => (
                  <li key={i}>
                    {f.message}{' '}
                    <span className="admin-muted">
                      ({f.mode}
                      {', '}
                      <Link to={`/admin/accounts/${f.accountId}`}>account</Link>
                      {f.orderId ? (
                        <>
                          {', '}
                          <Link to={`/admin/orders/${f.orderId}`}>order</Link>
                        </>
                      ) : null}
                      )
                    </span>
                  </li>
                ))}
              </ul>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Payments for deleted accounts the provider could not hand back: refund by hand, then close. */
function ManualRefunds() {
  const refunds = useQuery({
    queryKey: ['admin', 'payments', 'refunds'],
    queryFn: async () => (await call(adminApi.GET('/api/admin/v1/payments/refunds'))).refunds,
  });
  return (
    <section className="admin-card" aria-labelledby="manual-refunds">
      <h2 id="manual-refunds">Refunds to make by hand</h2>
      <ErrorBox error={refunds.error} />
      {refunds.data?.length === 0 ? (
        <p className="admin-muted">None: every payment for a deleted account went back to its payer.</p>
      ) : null}
      {refunds.data?.length ? (
        <div className="admin-table-wrap">
          <table className="admin-table">
            <caption className="visually-hidden">Refunds to make by hand</caption>
            <thead>
              <tr>
                <th scope="col">Payment</th>
                <th scope="col">State</th>
                <th scope="col" className="num">
                  Amount
                </th>
                <th scope="col">Paid</th>
                <th scope="col">Close</th>
              </tr>
            </thead>
            <tbody>
              {refunds.data.map((r) => (
                <RefundRow key={r.paymentId} refund={r} />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}

function RefundRow({ refund }: { refund: Refund }) {
  const can = useCan();
  const client = useQueryClient();
  const [note, setNote] = useState('');
  const close = useMutation({
    mutationFn: () =>
      call(
        adminApi.POST('/api/admin/v1/payments/refunds/{id}/close', {
          params: { path: { id: refund.paymentId } },
          body: { note: note.trim() },
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: ['admin', 'payments', 'refunds'] }),
  });
  function submit(event: FormEvent) {
    event.preventDefault();
    if (note.trim()) close.mutate();
  }
  return (
    <tr>
      <td>
        <span className="admin-mono">{refund.paymentId}</span>
        <br />
        <span className="admin-muted">
          {refund.method} via {refund.provider}
          {refund.providerRef ? ` · ${refund.providerRef}` : ''}
        </span>
      </td>
      <td>
        <Badge tone={refund.status === 'refund_manual' ? 'bad' : 'warn'}>
          {refund.status === 'refund_manual' ? 'refund by hand' : 'provider retrying'}
        </Badge>
      </td>
      <td className="num">{minorMoney(refund.amountMinor, refund.currency)}</td>
      <td>
        <When iso={refund.paidAt} />
      </td>
      <td>
        {refund.status === 'refund_manual' && can('refunds') ? (
          <form onSubmit={submit} className="admin-form">
            <label>
              What you did
              <input
                value={note}
                onChange={(e) => setNote(e.target.value)}
                maxLength={500}
                placeholder="Bank transfer ref …"
                required
              />
            </label>
            <button type="submit" disabled={close.isPending || !note.trim()}>
              Mark refunded
            </button>
            <ErrorBox error={close.error} />
          </form>
        ) : (
          <span className="admin-muted">—</span>
        )}
      </td>
    </tr>
  );
}
