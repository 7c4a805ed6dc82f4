import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import type { paths } from '../../api/admin';
import { formatData } from '../../lib/format';
import { AdminPage } from '../AdminShell';
import { adminApi, call, idempotencyKey } from '../api';
import { useCan } from '../operator';
import { ErrorBox, When } from '../orders-ui';
import { StatusBadge } from '../status-badge';
import { money } from '../display';
import { Timeline } from '../OrderTimeline';
import '../orders.css';

type Order =
  paths['/api/admin/v1/orders/{id}']['get']['responses'][200]['content']['application/json']['order'];

/** One order: its facts, its timeline, and what the operator's role may do about it. */
export default function OrderPage() {
  const { id = '' } = useParams();
  const key = ['admin', 'order', id];
  const order = useQuery({
    queryKey: key,
    queryFn: async () =>
      (await call(adminApi.GET('/api/admin/v1/orders/{id}', { params: { path: { id } } }))).order,
  });
  return (
    <AdminPage
      title={order.data ? `Order ${order.data.orderNumber}` : 'Order'}
      actions={order.data ? <StatusBadge status={order.data.status} /> : null}
    >
      <ErrorBox error={order.error} />
      {order.isPending ? <p className="admin-muted">Loading…</p> : null}
      {order.data ? (
        <>
          <Actions order={order.data} />
          <Facts order={order.data} />
          <Timeline orderId={order.data.id} />
        </>
      ) : null}
    </AdminPage>
  );
}

function Facts({ order }: { order: Order }) {
  return (
    <div className="admin-grid order-facts">
      <section className="admin-card" aria-labelledby="order-facts">
        <h2 id="order-facts">Order</h2>
        <dl className="admin-dl">
          <dt>Number</dt>
          <dd className="admin-mono">{order.orderNumber}</dd>
          <dt>Id</dt>
          <dd className="admin-mono">{order.id}</dd>
          <dt>Customer</dt>
          <dd>
            <Link
              to={`/admin/accounts/${order.accountId}`}
              className="admin-mono"
              data-testid="order-customer"
            >
              {order.accountId}
            </Link>
          </dd>
          <dt>Channel</dt>
          <dd>
            {order.channel === 'partner' ? 'Partner API' : 'App / web shop'}
            {order.livemode ? '' : ' (test mode)'}
          </dd>
          <dt>Amount</dt>
          <dd>
            {money(order.amountUsd)} by {order.paymentMethod}
          </dd>
          <dt>Plan</dt>
          <dd>
            {order.quantity} × <span className="admin-mono">{order.planId}</span>
            {order.topUpIccid ? ` (top-up of ${order.topUpIccid})` : ''}
          </dd>
          <dt>Created</dt>
          <dd>
            <When iso={order.createdAt} />
          </dd>
          <dt>Completed</dt>
          <dd>
            <When iso={order.completedAt} />
          </dd>
          <dt>Provider calls</dt>
          <dd>{order.fulfillmentAttempts}</dd>
          {order.lastError ? (
            <>
              <dt>Last error</dt>
              <dd className="orders-error-text">{order.lastError}</dd>
            </>
          ) : null}
        </dl>
      </section>
      <section className="admin-card" aria-labelledby="order-esims">
        <h2 id="order-esims">eSIMs</h2>
        {order.esims.length === 0 ? <p className="admin-muted">None issued.</p> : null}
        <ul className="order-esims">
          {order.esims.map((e) => (
            <li key={e.id}>
              <span className="admin-mono">{e.iccid}</span> <StatusBadge status={e.status} />
              <span className="admin-muted">
                {' '}
                {formatData(e.dataUsage, 'en')} of {formatData(e.totalVolume, 'en')} used
              </span>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

/** Retry (orders.retry) and refund (refunds), shown only to roles that hold them, on open orders. */
function Actions({ order }: { order: Order }) {
  const can = useCan();
  const client = useQueryClient();
  const [confirming, setConfirming] = useState<string | null>(null);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const refresh = async () => {
    await client.invalidateQueries({ queryKey: ['admin', 'order', order.id] });
    await client.invalidateQueries({ queryKey: ['admin', 'order-timeline', order.id] });
    await client.invalidateQueries({ queryKey: ['admin', 'orders'] });
  };
  const retry = useMutation({
    mutationFn: () =>
      call(adminApi.POST('/api/admin/v1/orders/{id}/retry', { params: { path: { id: order.id } } })),
    onMutate: () => setResult(null),
    onSuccess: async (data) => {
      setResult(
        data.outcome === 'success'
          ? { ok: true, text: 'The provider issued the eSIM: the order is complete.' }
          : {
              ok: false,
              text: `The provider failed again (${data.order.lastError ?? 'no reason given'}). Automatic retries continue.`,
            },
      );
      await refresh();
    },
  });
  const refund = useMutation({
    mutationFn: (key: string) =>
      call(
        adminApi.POST('/api/admin/v1/orders/{id}/refund', {
          params: { path: { id: order.id }, header: { 'idempotency-key': key } },
        }),
      ),
    onMutate: () => setResult(null),
    onSuccess: async () => {
      setConfirming(null);
      setResult({ ok: true, text: `Refunded ${money(order.amountUsd)} to the customer’s wallet.` });
      await refresh();
    },
  });
  const open = order.status === 'PROCESSING';
  const canRetry = can('orders.retry') && open;
  const canRefund = can('refunds') && open;
  if (!canRetry && !canRefund && !result) return null;
  return (
    <section className="admin-card order-actions" aria-label="Actions">
      <div className="order-action-buttons">
        {canRetry ? (
          <button
            type="button"
            className="primary"
            onClick={() => retry.mutate()}
            disabled={retry.isPending || refund.isPending}
          >
            {retry.isPending ? 'Retrying…' : 'Retry fulfilment'}
          </button>
        ) : null}
        {canRefund && confirming === null ? (
          <button
            type="button"
            className="danger"
            onClick={() => setConfirming(idempotencyKey())}
            disabled={retry.isPending}
          >
            Refund
          </button>
        ) : null}
      </div>
      {canRefund && confirming !== null ? (
        <div className="admin-notice order-confirm" role="group" aria-label="Confirm the refund">
          <p>
            Give up on this order and credit {money(order.amountUsd)} back to the customer’s wallet? The eSIM
            will not be issued.
          </p>
          <button
            type="button"
            className="danger"
            onClick={() => refund.mutate(confirming)}
            disabled={refund.isPending}
          >
            {refund.isPending ? 'Refunding…' : 'Confirm refund'}
          </button>{' '}
          <button type="button" onClick={() => setConfirming(null)} disabled={refund.isPending}>
            Cancel
          </button>
        </div>
      ) : null}
      {result ? (
        <p
          role="status"
          className={result.ok ? 'admin-success' : 'admin-error'}
          data-testid="order-action-result"
        >
          {result.text}
        </p>
      ) : null}
      <ErrorBox error={retry.error ?? refund.error} />
    </section>
  );
}
