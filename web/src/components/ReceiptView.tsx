import type { Receipt } from '../api/types';
import { useI18n, type MessageKey } from '../i18n';
import { formatDate, formatDateTime, formatMoney, formatUsd } from '../lib/format';
import './receipt.css';

/**
 * A receipt as the API states it (issue 30 T9): seller, customer, what was bought, payment
 * method, the USD amount charged and the display-currency amount with the rate and its date.
 * Print-friendly: the page's chrome is hidden in print (styles.css, `@media print`).
 */
export function ReceiptView({ receipt }: { receipt: Receipt }) {
  const { t, language } = useI18n();
  const rate = receipt.exchangeRate;
  return (
    <article className="receipt card" aria-labelledby="receipt-title" data-testid="receipt">
      <header className="receipt-head">
        <div>
          <h1 id="receipt-title">{t('receipt.title')}</h1>
          <p className="mono">{receipt.number}</p>
          {receipt.status === 'REFUNDED' ? <p className="badge">{t('receipt.refunded')}</p> : null}
        </div>
        <address className="receipt-company">
          <strong>{receipt.company.name}</strong>
          {receipt.company.address ? <span>{receipt.company.address}</span> : null}
          <span>{receipt.company.supportEmail}</span>
        </address>
      </header>
      <dl className="facts">
        <div>
          <dt>{t('order.date')}</dt>
          <dd>{formatDateTime(receipt.issuedAt, language)}</dd>
        </div>
        {receipt.orderNumber ? (
          <div>
            <dt>{t('order.number')}</dt>
            <dd>{receipt.orderNumber}</dd>
          </div>
        ) : null}
        <div>
          <dt>{t('receipt.billedTo')}</dt>
          <dd>{[receipt.customer.name, receipt.customer.email].filter(Boolean).join(', ')}</dd>
        </div>
        <div>
          <dt>{t('order.payment')}</dt>
          <dd>{t(`receipt.method.${receipt.paymentMethod}` as MessageKey)}</dd>
        </div>
      </dl>
      <table className="receipt-lines">
        <caption className="visually-hidden">{t('receipt.items')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('receipt.item')}</th>
            <th scope="col" className="numeric">
              {t('order.quantity')}
            </th>
            <th scope="col" className="numeric">
              {t('order.amount')}
            </th>
          </tr>
        </thead>
        <tbody>
          {receipt.lines.map((line, i) => (
            <tr key={i}>
              <td>{line.description}</td>
              <td className="numeric">{line.quantity}</td>
              <td className="numeric">{formatUsd(line.amount.amount, language)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="receipt-total">
        <p>
          {t('receipt.total')}{' '}
          <strong data-testid="receipt-total">{formatUsd(receipt.total.amount, language)}</strong>
        </p>
        <p className="hint">{t('receipt.chargedUsd')}</p>
        {receipt.displayTotal && rate ? (
          <p data-testid="receipt-display-total">
            {t('receipt.inCurrency', {
              amount: formatMoney(receipt.displayTotal.amount, receipt.displayTotal.currency, language),
            })}{' '}
            <span className="hint">
              {rate.asOf
                ? t('dest.rateOf', {
                    one: formatUsd(1, language),
                    rate: formatMoney(Number(rate.ratePerUsd), rate.currency, language),
                    date: formatDate(rate.asOf, language),
                  })
                : t('dest.rate', {
                    one: formatUsd(1, language),
                    rate: formatMoney(Number(rate.ratePerUsd), rate.currency, language),
                  })}
            </span>
          </p>
        ) : null}
      </div>
    </article>
  );
}
