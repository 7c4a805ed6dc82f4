import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import type { paths } from '../api/mobile';
import { FormError } from '../components/FormError';
import { OrderStatus } from '../components/OrderStatus';
import { UsageBar } from '../components/UsageBar';
import { useI18n, type MessageKey } from '../i18n';
import { formatDateTime, formatMoney } from '../lib/format';
import { usePartnerT, type PartnerConsole } from '../partner/console';
import { PartnerShell } from '../partner/PartnerShell';
import { WalletActions } from '../partner/WalletActions';

type ConsoleOrders =
  paths['/api/v1/partners/{partnerId}/orders']['get']['responses'][200]['content']['application/json'];

const PAGE_SIZE = 10;

/**
 * The console's overview (issue 32 C7): the wallet of the current mode and the orders placed
 * through the Partner API in that mode with their eSIMs. The account's own web purchases are on
 * /orders and /esims, never here.
 */
export default function Partner() {
  return (
    <PartnerShell title="pc.tab.overview" permission="partner.read">
      {(pc) => <Overview pc={pc} />}
    </PartnerShell>
  );
}

function Overview({ pc }: { pc: PartnerConsole }) {
  const t = usePartnerT();
  const { t: tApp, language } = useI18n();
  const wallet = useQuery({
    queryKey: [...pc.key, 'wallet'],
    queryFn: () => unwrap(api.GET('/api/v1/partners/{partnerId}/wallet', { params: pc.scope })),
  });
  const orders = useInfiniteQuery({
    queryKey: [...pc.key, 'orders'],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/api/v1/partners/{partnerId}/orders', {
          params: {
            path: pc.scope.path,
            query: { ...pc.scope.query, limit: PAGE_SIZE, ...(pageParam ? { cursor: pageParam } : {}) },
          },
        }),
      ),
    getNextPageParam: (last: ConsoleOrders) => last.nextCursor ?? undefined,
  });
  const list = orders.data?.pages.flatMap((p) => p.orders) ?? [];
  const total = orders.data?.pages[0]?.total;

  return (
    <>
      <div className="stats">
        <div className="stat card">
          <span className="muted">{t('pc.overview.balance')}</span>
          <strong data-testid="partner-balance">
            {wallet.data ? formatMoney(wallet.data.balanceUsd, 'USD', language) : '…'}
          </strong>
          {wallet.data && wallet.data.lowBalanceThreshold > 0 ? (
            <span className="hint">
              {t('pc.overview.lowBalance', {
                amount: formatMoney(wallet.data.lowBalanceThreshold, 'USD', language),
              })}
            </span>
          ) : null}
        </div>
        <div className="stat card">
          <span className="muted">{t('pc.overview.orderCount')}</span>
          <strong data-testid="partner-order-count">{total ?? '…'}</strong>
        </div>
      </div>
      <WalletActions pc={pc} />
      <FormError error={wallet.error ?? orders.error} />
      <section aria-labelledby="partner-orders">
        <div className="section-head">
          <h2 id="partner-orders">{t('pc.overview.orders')}</h2>
          <button
            type="button"
            className="button small"
            onClick={() => void Promise.all([orders.refetch(), wallet.refetch()])}
          >
            {t('pc.overview.refresh')}
          </button>
        </div>
        <p className="hint">{t('pc.overview.separation')}</p>
        {orders.isSuccess && list.length === 0 ? <p className="empty">{t('pc.overview.none')}</p> : null}
        <ul className="partner-orders">
          {list.map((o) => (
            <li key={o.id} className="card" data-testid="partner-order">
              <div className="partner-order-head">
                <span className="mono">{o.orderNumber}</span>
                <OrderStatus status={o.status} />
              </div>
              <p className="hint">
                {o.planName} × {o.quantity} · {formatMoney(o.amountUsd, 'USD', language)} ·{' '}
                {formatDateTime(o.createdAt, language)}
              </p>
              {o.esims.length > 0 ? (
                <ul className="partner-esims" aria-label={t('pc.overview.esims', { order: o.orderNumber })}>
                  {o.esims.map((e) => (
                    <li key={e.id}>
                      <span className="mono">{e.iccid}</span>{' '}
                      <span className={`badge esim-${e.status.toLowerCase()}`}>
                        {tApp(`esim.status.${e.status}` as MessageKey)}
                      </span>
                      <UsageBar used={e.dataUsageMb} total={e.totalVolumeMb} />
                    </li>
                  ))}
                </ul>
              ) : null}
            </li>
          ))}
        </ul>
        {orders.hasNextPage ? (
          <button
            type="button"
            className="button secondary"
            disabled={orders.isFetchingNextPage}
            onClick={() => void orders.fetchNextPage()}
          >
            {t('pc.overview.more')}
          </button>
        ) : null}
      </section>
    </>
  );
}
