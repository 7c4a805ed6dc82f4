import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { beforeEach, expect, test, vi } from 'vitest';
import type { Order } from '../api/types';
import { I18nProvider, type Language } from '../i18n';

// The API client is created at import: stub fetch first.
const fetchMock = vi.hoisted(() => {
  const mock = vi.fn();
  globalThis.fetch = mock;
  return mock;
});

const { CancelOrder } = await import('./CancelOrder');

// jsdom has <dialog> without its modal methods.
HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
  this.open = true;
};
HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
  this.open = false;
};

const order: Order = {
  id: 'ord_1',
  orderNumber: 'SVC-261127-ABCDEFGH',
  status: 'COMPLETED',
  planId: 'plan_1',
  planName: 'Türkiye · 1 GB · 7 days',
  quantity: 1,
  amount: 4.99,
  currency: 'USD',
  paymentMethod: 'card',
  esimIds: ['esim_1'],
  topUpIccid: null,
  createdAt: '2026-11-27T09:00:00.000Z',
  completedAt: '2026-11-27T09:00:01.000Z',
};

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function renderIt(language: Language = 'en') {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <I18nProvider initial={language}>
        <MemoryRouter>
          <CancelOrder order={order} />
        </MemoryRouter>
      </I18nProvider>
    </QueryClientProvider>,
  );
}

beforeEach(() => fetchMock.mockReset());

test('confirming cancels with an Idempotency-Key and says where the money went', async () => {
  const requests: Request[] = [];
  fetchMock.mockImplementation(async (request: Request) => {
    requests.push(request);
    return json(200, { order: { ...order, status: 'REFUNDED' } });
  });
  renderIt();
  await userEvent.click(screen.getByRole('button', { name: 'Cancel and refund' }));
  expect(screen.getByText(/also if you paid by card or crypto/)).toBeTruthy();
  await userEvent.click(screen.getByRole('button', { name: 'Yes, cancel and refund' }));
  expect(await screen.findByRole('status')).toHaveProperty(
    'textContent',
    'Order cancelled: $4.99 was returned to your wallet.',
  );
  const cancel = requests.find((r) => r.url.endsWith('/api/v1/user/orders/ord_1/cancel'))!;
  expect(cancel.method).toBe('POST');
  expect(cancel.headers.get('idempotency-key')).toMatch(/^[0-9a-f]{32}$/);
});

test('a refusal is shown in the UI language with the way to support', async () => {
  fetchMock.mockImplementation(async () =>
    json(409, { error: 'x', code: 'ESIM_INSTALLED', supportEmail: 'help@example.com' }),
  );
  renderIt('de');
  await userEvent.click(screen.getByRole('button', { name: 'Stornieren und erstatten' }));
  await userEvent.click(screen.getByRole('button', { name: 'Ja, stornieren und erstatten' }));
  expect((await screen.findByRole('alert')).textContent).toMatch(/auf einem Gerät installiert/);
  expect(screen.getByRole('link', { name: 'Support kontaktieren' }).getAttribute('href')).toBe('/support');
});
