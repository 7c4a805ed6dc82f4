import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, unwrap } from '../api/client';
import type { Order } from '../api/types';
import { CancelOrder } from '../components/CancelOrder';
import { EsimCard } from '../components/EsimCard';
import { FormError } from '../components/FormError';
import { OrderStatus } from '../components/OrderStatus';
import { RecordTable, type RecordColumn } from '../components/RecordTable';
import { LoadMore, PAGE_SIZE } from '../components/Pager';
import { useCursorList } from '../lib/cursor-list';
import { useI18n, type MessageKey } from '../i18n';
import { orderForReference } from '../lib/checkout';
import { formatDateTime, formatMoney } from '../lib/format';
import { useMoneyMoved } from '../lib/session';
import { useTitle } from '../lib/title';

const FINAL: readonly Order['status'][] = ['COMPLETED', 'CANCELLED', 'REFUNDED'];
/** Orders with a receipt: paid ones (issue 30 T9). */
const PAID: readonly Order['status'][] = ['PROCESSING', 'COMPLETED', 'REFUNDED'];

function ReceiptLink({ orderId }: { orderId: string }) {
  const { t } = useI18n();
  return <Link to={`/orders/${encodeURIComponent(orderId)}/receipt`}>{t('receipt.link')}</Link>;
}

export default function Orders() {
  const [params] = useSearchParams();
  const reference = params.get('return');
  const orderId = params.get('order') ?? (reference ? orderForReference(reference) : null);
  if (orderId) return <OrderDetail id={orderId} outcome={params.get('outcome')} />;
  return <OrderList returned={reference !== null} />;
}

/** The orders list: a table on wide screens, one card per order on phones. */
export function OrdersTable({ orders, caption }: { orders: Order[]; caption: string }) {
  const { t, language } = useI18n();
  const columns: RecordColumn<Order>[] = [
    {
      header: t('order.number'),
      card: 'title',
      cell: (o) => <Link to={`/orders?order=${encodeURIComponent(o.id)}`}>{o.orderNumber}</Link>,
    },
    { header: t('order.date'), cell: (o) => formatDateTime(o.createdAt, language) },
    {
      header: t('order.plan'),
      cell: (o) => `${o.planName}${o.quantity > 1 ? ` × ${o.quantity}` : ''}`,
    },
    { header: t('order.amount'), cell: (o) => formatMoney(o.amount, 'USD', language) },
    { header: t('order.state'), card: 'aside', cell: (o) => <OrderStatus status={o.status} /> },
    {
      header: t('receipt.link'),
      cell: (o) => (PAID.includes(o.status) ? <ReceiptLink orderId={o.id} /> : '—'),
    },
  ];
  return (
    <RecordTable rows={orders} columns={columns} caption={caption} rowKey={(o) => o.id} testId="order-row" />
  );
}

function OrderList({ returned }: { returned: boolean }) {
  const { t } = useI18n();
  useTitle(t('orders.title'));
  // Pages of PAGE_SIZE from the API's cursors ("Load more"); the key lives under ['orders'].
  const {
    query: orders,
    items: list,
    hasMore,
    loadingMore,
    loadMore,
  } = useCursorList(
    ['orders', 'pages'],
    async (cursor) => {
      const page = await unwrap(
        api.GET('/api/v1/user/orders', {
          // The personal list: orders placed here, not the Partner API's (those are on the Partner page).
          params: { query: { channel: 'web', limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) } },
        }),
      );
      return { items: page.orders, nextCursor: page.nextCursor ?? null };
    },
    // Coming back from a payment page without a known order: keep the list fresh for a while.
    { refetchInterval: returned ? 2000 : false },
  );
  return (
    <div className="container">
      <h1>{t('orders.title')}</h1>
      <FormError error={orders.error} />
      {orders.isPending ? <p className="muted">{t('common.loading')}</p> : null}
      {orders.isSuccess && list.length === 0 ? (
        <div className="empty card">
          <p>{t('orders.empty')}</p>
          <Link className="button primary" to="/">
            {t('esims.browse')}
          </Link>
        </div>
      ) : null}
      {list.length > 0 ? (
        <>
          <OrdersTable orders={list} caption={t('orders.title')} />
          <LoadMore hasMore={hasMore} loading={loadingMore} onMore={loadMore} />
        </>
      ) : null}
    </div>
  );
}

function OrderDetail({ id, outcome }: { id: string; outcome: string | null }) {
  const { t, language } = useI18n();
  const order = useQuery({
    queryKey: ['order', id],
    queryFn: () => unwrap(api.GET('/api/v1/user/orders/{id}', { params: { path: { id } } })),
    // The order page follows the order until it reaches a final state.
    refetchInterval: (query) => {
      const status = query.state.data?.order.status;
      return status && FINAL.includes(status) ? false : 2000;
    },
  });
  const o = order.data?.order;
  useTitle(o ? `${t('order.title')} ${o.orderNumber}` : t('order.title'));
  // A final state may have moved money since checkout (a card payment booked, a refund to the
  // wallet): the header balance and the lists catch up once the order settles.
  const moneyMoved = useMoneyMoved();
  const settled = o ? FINAL.includes(o.status) : false;
  useEffect(() => {
    if (settled) void moneyMoved();
  }, [settled, moneyMoved]);
  const esims = useQuery({
    queryKey: ['esims'],
    queryFn: () => unwrap(api.GET('/api/v1/user/esims')),
    // REFUNDED too: a cancelled order shows its eSIMs as CANCELLED.
    enabled: o?.status === 'COMPLETED' || o?.status === 'REFUNDED',
  });
  const orderEsims = (esims.data?.esims ?? []).filter((e) => o?.esimIds.includes(e.id));

  return (
    <div className="container">
      <nav aria-label={t('common.breadcrumb')} className="breadcrumb">
        <Link to="/orders">{t('orders.title')}</Link> <span aria-hidden="true">›</span>{' '}
        <span>{o?.orderNumber ?? id}</span>
      </nav>
      <FormError error={order.error} />
      {o ? (
        <>
          <header className="order-head">
            <h1>
              {t('order.title')} {o.orderNumber}
            </h1>
            <OrderStatus status={o.status} />
            {PAID.includes(o.status) ? (
              <Link className="button" to={`/orders/${encodeURIComponent(o.id)}/receipt`}>
                {t('receipt.link')}
              </Link>
            ) : null}
          </header>
          <div className="card order-summary" aria-live="polite">
            <p className="order-message" data-testid="order-message">
              {t(`order.message.${o.status}` as MessageKey)}
              {o.status === 'AWAITING_PAYMENT' && outcome === 'cancelled'
                ? ` ${t('order.cancelledPayment')}`
                : ''}
            </p>
            <dl className="facts">
              <div>
                <dt>{t('order.plan')}</dt>
                <dd>{o.planName}</dd>
              </div>
              <div>
                <dt>{t('order.quantity')}</dt>
                <dd>{o.quantity}</dd>
              </div>
              <div>
                <dt>{t('order.amount')}</dt>
                <dd>{formatMoney(o.amount, 'USD', language)}</dd>
              </div>
              <div>
                <dt>{t('order.payment')}</dt>
                <dd>{t(`dest.method.${o.paymentMethod}` as MessageKey)}</dd>
              </div>
              <div>
                <dt>{t('order.date')}</dt>
                <dd>{formatDateTime(o.createdAt, language)}</dd>
              </div>
              {o.topUpIccid ? (
                <div>
                  <dt>{t('esim.iccid')}</dt>
                  <dd className="mono">{o.topUpIccid}</dd>
                </div>
              ) : null}
            </dl>
          </div>
          {order.data?.cancellable ? <CancelOrder order={o} /> : null}
          {orderEsims.length > 0 ? (
            <section aria-labelledby="order-esims">
              <h2 id="order-esims">{o.topUpIccid ? t('order.toppedUp') : t('order.yourEsims')}</h2>
              <div className="esim-list">
                {orderEsims.map((e) => (
                  <EsimCard key={e.id} esim={e} />
                ))}
              </div>
            </section>
          ) : null}
        </>
      ) : order.isPending ? (
        <p className="muted">{t('common.loading')}</p>
      ) : null}
    </div>
  );
}
