import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { WalletTransaction } from '../api/types';
import { api, unwrap } from '../api/client';
import { FormError } from '../components/FormError';
import { LoadMore, PAGE_SIZE } from '../components/Pager';
import { RecordTable, type RecordColumn } from '../components/RecordTable';
import { TopUpForm } from '../components/TopUpForm';
import { useI18n, type MessageKey } from '../i18n';
import { formatDateTime, formatMoney, formatSignedMoney } from '../lib/format';
import { useCursorList } from '../lib/cursor-list';
import { useMe, useMoneyMoved } from '../lib/session';
import { useTitle } from '../lib/title';

export default function Wallet() {
  const { t, language } = useI18n();
  useTitle(t('wallet.title'));
  const me = useMe();
  const moneyMoved = useMoneyMoved();
  const [params] = useSearchParams();
  const returned = params.get('topup');
  // Pages of PAGE_SIZE from the API's cursors ("Load more").
  const {
    query: transactions,
    items: list,
    hasMore,
    loadingMore,
    loadMore,
  } = useCursorList(['transactions', 'pages'], async (cursor) => {
    const page = await unwrap(
      api.GET('/api/v1/user/wallet/transactions', {
        params: { query: { limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) } },
      }),
    );
    return { items: page.transactions, nextCursor: page.nextCursor ?? null };
  });
  // Back from a payment page: the credit arrives by webhook, so look again.
  useEffect(() => {
    if (returned) void moneyMoved();
  }, [returned, moneyMoved]);
  const balance = me.data?.walletBalance ?? 0;
  const columns: RecordColumn<WalletTransaction>[] = [
    { header: t('order.date'), cell: (tx) => formatDateTime(tx.createdAt, language) },
    { header: t('wallet.kind'), card: 'title', cell: (tx) => t(`wallet.kind.${tx.kind}` as MessageKey) },
    {
      header: t('wallet.description'),
      cell: (tx) =>
        tx.orderId ? (
          <Link to={`/orders?order=${encodeURIComponent(tx.orderId)}`}>{tx.description}</Link>
        ) : (
          tx.description
        ),
    },
    {
      header: t('order.amount'),
      numeric: true,
      card: 'aside',
      cell: (tx) => (
        <span className={tx.amount < 0 ? 'negative' : 'positive'}>
          {formatSignedMoney(tx.amount, 'USD', language)}
        </span>
      ),
    },
    {
      header: t('wallet.balanceAfter'),
      numeric: true,
      cell: (tx) => formatMoney(tx.balanceAfter, 'USD', language),
    },
    {
      // A top-up has its own receipt; a purchase, a card payment for an order or a refund has its order's.
      header: t('receipt.link'),
      cell: (tx) =>
        tx.hasReceipt ? (
          <Link to={`/wallet/receipts/${encodeURIComponent(tx.id)}`}>{t('receipt.link')}</Link>
        ) : tx.orderId ? (
          <Link to={`/orders/${encodeURIComponent(tx.orderId)}/receipt`}>{t('receipt.link')}</Link>
        ) : (
          '—'
        ),
    },
  ];

  return (
    <div className="container wallet-page">
      <h1>{t('wallet.title')}</h1>
      {returned ? (
        <p className={returned === 'cancelled' ? 'form-error' : 'form-success'} role="status">
          {t(`wallet.returned.${returned === 'cancelled' ? 'cancelled' : 'paid'}` as MessageKey)}
        </p>
      ) : null}
      <div className="wallet-grid">
        <section className="card balance-card" aria-labelledby="balance-heading">
          <h2 id="balance-heading">{t('wallet.balance')}</h2>
          <p className="balance" data-testid="wallet-balance">
            {formatMoney(balance, 'USD', language)}
          </p>
          <p className="hint">{t('wallet.balanceHint')}</p>
        </section>
        <section className="card">
          <TopUpForm returnPath="/wallet" />
        </section>
      </div>
      <section aria-labelledby="tx-heading">
        <h2 id="tx-heading">{t('wallet.history')}</h2>
        <FormError error={transactions.error} />
        {transactions.isSuccess && list.length === 0 ? (
          <p className="empty">{t('wallet.noHistory')}</p>
        ) : null}
        {list.length > 0 ? (
          <>
            <RecordTable
              rows={list}
              columns={columns}
              caption={t('wallet.history')}
              rowKey={(tx) => tx.id}
              testId="transaction-row"
            />
            <LoadMore hasMore={hasMore} loading={loadingMore} onMore={loadMore} />
          </>
        ) : null}
      </section>
    </div>
  );
}
