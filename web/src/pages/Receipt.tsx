import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { api, unwrap } from '../api/client';
import type { Receipt } from '../api/types';
import { FormError } from '../components/FormError';
import { ReceiptView } from '../components/ReceiptView';
import { useI18n } from '../i18n';
import { useDisplayCurrency } from '../lib/currency';
import { useTitle } from '../lib/title';

/** `/orders/:id/receipt` and `/wallet/receipts/:transactionId` (issue 30 T9); one chunk. */

function ReceiptPage({
  receipt,
  error,
  pending,
  back,
  heading,
}: {
  receipt: Receipt | undefined;
  error: unknown;
  pending: boolean;
  back: { to: string; label: string; current?: string };
  /** What the page is while there is no receipt to show (loading, not found). */
  heading: string;
}) {
  const { t } = useI18n();
  useTitle(receipt ? `${t('receipt.title')} ${receipt.number}` : heading);
  return (
    <div className="container receipt-page">
      <nav aria-label={t('common.breadcrumb')} className="breadcrumb no-print">
        <Link to={back.to}>{back.label}</Link> <span aria-hidden="true">›</span>{' '}
        <span>{t('receipt.title')}</span>
      </nav>
      {receipt ? null : <h1>{heading}</h1>}
      <FormError error={error} />
      {pending ? <p className="muted">{t('common.loading')}</p> : null}
      {receipt ? (
        <>
          <ReceiptView receipt={receipt} />
          <p className="receipt-actions no-print">
            <a className="button primary" href={receipt.pdfUrl} download data-testid="receipt-pdf">
              {t('receipt.downloadPdf')}
            </a>
            <button type="button" className="button" onClick={() => window.print()}>
              {t('receipt.print')}
            </button>
          </p>
        </>
      ) : null}
    </div>
  );
}

export function OrderReceipt() {
  const { id = '' } = useParams();
  const { t, language } = useI18n();
  const currency = useDisplayCurrency();
  const query = useQuery({
    queryKey: ['receipt', 'order', id, currency, language],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/user/orders/{id}/receipt', {
          params: { path: { id }, query: { currency, lang: language } },
        }),
      ),
  });
  return (
    <ReceiptPage
      receipt={query.data?.receipt}
      error={query.error}
      pending={query.isPending}
      back={{ to: `/orders?order=${encodeURIComponent(id)}`, label: t('orders.title') }}
      heading={t('receipt.orderTitle')}
    />
  );
}

export function TopUpReceipt() {
  const { transactionId = '' } = useParams();
  const { t, language } = useI18n();
  const currency = useDisplayCurrency();
  const query = useQuery({
    queryKey: ['receipt', 'topup', transactionId, currency, language],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/user/wallet/transactions/{id}/receipt', {
          params: { path: { id: transactionId }, query: { currency, lang: language } },
        }),
      ),
  });
  return (
    <ReceiptPage
      receipt={query.data?.receipt}
      error={query.error}
      pending={query.isPending}
      back={{ to: '/wallet', label: t('wallet.title') }}
      heading={t('receipt.topUpTitle')}
    />
  );
}
