import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, unwrap } from '../api/client';
import type { Esim, Order } from '../api/types';
import { FormError } from '../components/FormError';
import { OrderStatus } from '../components/OrderStatus';
import { Pager, usePage } from '../components/Pager';
import { PartnerTabs } from '../components/PartnerTabs';
import { UsageBar } from '../components/UsageBar';
import { useI18n, type MessageKey } from '../i18n';
import { formatDateTime, formatMoney } from '../lib/format';
import { useMe } from '../lib/session';
import { useTitle } from '../lib/title';

/** Orders placed through the Partner API carry the SVC-API- order number prefix (docs/orders.md). */
export function isPartnerOrder(order: Pick<Order, 'orderNumber'>): boolean {
  return order.orderNumber.startsWith('SVC-API-');
}

export default function Partner() {
  const { t, language } = useI18n();
  useTitle(t('partner.title'));
  const me = useMe();
  const orders = useQuery({ queryKey: ['orders'], queryFn: () => unwrap(api.GET('/api/v1/user/orders')) });
  const esims = useQuery({ queryKey: ['esims'], queryFn: () => unwrap(api.GET('/api/v1/user/esims')) });
  const partnerOrders = (orders.data?.orders ?? []).filter(isPartnerOrder);
  const esimById = new Map((esims.data?.esims ?? []).map((e) => [e.id, e]));
  const [page, setPage] = useState(0);
  const shown = usePage(partnerOrders, page);
  const spent = partnerOrders.filter((o) => o.status === 'COMPLETED').reduce((sum, o) => sum + o.amount, 0);

  return (
    <div className="container partner-page">
      <h1>{t('partner.title')}</h1>
      <PartnerTabs />
      <div className="stats">
        <div className="stat card">
          <span className="muted">{t('partner.balance')}</span>
          <strong>{formatMoney(me.data?.walletBalance ?? 0, 'USD', language)}</strong>
          <Link to="/api-keys">{t('partner.topUp')}</Link>
        </div>
        <div className="stat card">
          <span className="muted">{t('partner.orderCount')}</span>
          <strong data-testid="partner-order-count">{partnerOrders.length}</strong>
        </div>
        <div className="stat card">
          <span className="muted">{t('partner.spent')}</span>
          <strong>{formatMoney(Math.round(spent * 100) / 100, 'USD', language)}</strong>
        </div>
      </div>
      <FormError error={orders.error ?? esims.error} />
      <section aria-labelledby="partner-orders">
        <div className="section-head">
          <h2 id="partner-orders">{t('partner.orders')}</h2>
          <button
            type="button"
            className="button small"
            onClick={() => void Promise.all([orders.refetch(), esims.refetch(), me.refetch()])}
          >
            {t('esims.refresh')}
          </button>
        </div>
        {orders.isSuccess && partnerOrders.length === 0 ? (
          <p className="empty">{t('partner.noOrders')}</p>
        ) : null}
        <ul className="partner-orders">
          {shown.map((o) => (
            <li key={o.id} className="card" data-testid="partner-order">
              <div className="partner-order-head">
                <Link to={`/orders?order=${encodeURIComponent(o.id)}`} className="mono">
                  {o.orderNumber}
                </Link>
                <OrderStatus status={o.status} />
              </div>
              <p className="hint">
                {o.planName} × {o.quantity} · {formatMoney(o.amount, 'USD', language)} ·{' '}
                {formatDateTime(o.createdAt, language)}
              </p>
              {o.esimIds.length > 0 ? (
                <ul className="partner-esims">
                  {o.esimIds.map((id) => {
                    const e: Esim | undefined = esimById.get(id);
                    return e ? (
                      <li key={id}>
                        <span className="mono">{e.iccid}</span>{' '}
                        <span className={`badge esim-${e.status.toLowerCase()}`}>
                          {t(`esim.status.${e.status}` as MessageKey)}
                        </span>
                        <UsageBar used={e.dataUsage} total={e.totalVolume} />
                      </li>
                    ) : null;
                  })}
                </ul>
              ) : null}
            </li>
          ))}
        </ul>
        <Pager page={page} total={partnerOrders.length} onPage={setPage} />
      </section>
    </div>
  );
}
