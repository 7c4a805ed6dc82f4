import { render, screen } from '@testing-library/react';
import { describe, expect, test } from 'vitest';
import type { Receipt } from '../api/types';
import { I18nProvider } from '../i18n';
import { formatUsd } from '../lib/format';
import { ChargeNote } from './ChargeNote';
import { ReceiptView } from './ReceiptView';

const wrap = (ui: React.ReactNode, lang: 'en' | 'tr' = 'en') =>
  render(<I18nProvider initial={lang}>{ui}</I18nProvider>);

const RATE = { currency: 'EUR', ratePerUsd: '0.92', asOf: '2026-11-20T09:00:00.000Z' };

describe('formatUsd', () => {
  test('names the US dollar beside other currencies', () => {
    expect(formatUsd(3.49, 'en')).toBe('US$3.49');
    expect(formatUsd(3.49, 'tr')).toBe('US$3,49');
  });
});

describe('ChargeNote', () => {
  test('says what is charged in US dollars and the rate with its date', () => {
    wrap(<ChargeNote totalUsd={6.98} rate={RATE} />);
    const note = screen.getByTestId('charge-note');
    expect(note.textContent).toContain('You pay US$6.98');
    expect(note.textContent).toContain('US$1.00 = €0.92');
    expect(note.textContent).toContain('Nov 20, 2026');
  });

  test('in Turkish too', () => {
    wrap(<ChargeNote totalUsd={3.49} rate={{ ...RATE, currency: 'TRY', ratePerUsd: '34.25' }} />, 'tr');
    expect(screen.getByTestId('charge-note').textContent).toContain('Ödeyeceğiniz tutar: US$3,49');
  });

  test('nothing when prices are in US dollars already', () => {
    const { container } = wrap(<ChargeNote totalUsd={3.49} rate={null} />);
    expect(container.textContent).toBe('');
  });
});

const RECEIPT: Receipt = {
  kind: 'order',
  number: 'R-SVC-20261120-ABCD',
  issuedAt: '2026-11-20T10:00:00.000Z',
  status: 'PAID',
  language: 'en',
  company: { name: 'Roam Ltd', address: '1 Main St, İstanbul', supportEmail: 'help@roam.example' },
  customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
  lines: [
    {
      description: 'Türkiye · 3 GB · 15 days',
      quantity: 2,
      unitAmount: { amount: 3.49, currency: 'USD', formatted: '$3.49' },
      amount: { amount: 6.98, currency: 'USD', formatted: '$6.98' },
    },
  ],
  paymentMethod: 'card',
  orderId: 'ord_1',
  orderNumber: 'SVC-20261120-ABCD',
  transactionId: null,
  total: { amount: 6.98, currency: 'USD', formatted: '$6.98' },
  displayTotal: { amount: 6.42, currency: 'EUR', formatted: '€6.42' },
  exchangeRate: RATE,
  pdfUrl: '/api/v1/user/orders/ord_1/receipt.pdf',
};

describe('ReceiptView', () => {
  test('shows the seller, the plan, the method and both amounts with the rate date', () => {
    wrap(<ReceiptView receipt={RECEIPT} />);
    const receipt = screen.getByTestId('receipt');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Receipt');
    for (const text of [
      'R-SVC-20261120-ABCD',
      'Roam Ltd',
      '1 Main St, İstanbul',
      'help@roam.example',
      'Ada Lovelace, ada@example.com',
      'Türkiye · 3 GB · 15 days',
      'Card',
    ]) {
      expect(receipt.textContent).toContain(text);
    }
    expect(screen.getByTestId('receipt-total').textContent).toBe('US$6.98');
    const display = screen.getByTestId('receipt-display-total').textContent;
    expect(display).toContain('In your currency: €6.42');
    expect(display).toContain('rate of Nov 20, 2026');
  });

  test('a USD receipt has no second amount; a refund says so', () => {
    wrap(
      <ReceiptView receipt={{ ...RECEIPT, status: 'REFUNDED', displayTotal: null, exchangeRate: null }} />,
    );
    expect(screen.queryByTestId('receipt-display-total')).toBeNull();
    expect(screen.getByTestId('receipt').textContent).toContain('Refunded');
  });
});
