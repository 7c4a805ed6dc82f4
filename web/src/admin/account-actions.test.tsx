import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, test, vi } from 'vitest';
import { WalletAdjustment } from './account-actions';

// The API client is created at import: stub fetch first.
const fetchMock = vi.hoisted(() => {
  const mock = vi.fn();
  globalThis.fetch = mock;
  return mock;
});

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const posted = {
  transaction: {
    id: 'wtx_1',
    kind: 'deposit',
    amount: 12.5,
    currency: 'USD',
    balanceAfter: 32.5,
    description: 'Goodwill',
    orderId: null,
    hasReceipt: false,
    createdAt: '2026-11-27T09:00:00.000Z',
  },
  walletBalance: 32.5,
};

const requestOf = (call: number) => (fetchMock.mock.calls[call] as unknown as [Request])[0];

beforeEach(() => fetchMock.mockReset());

function wrap() {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <WalletAdjustment accountId="acc_1" />
    </QueryClientProvider>,
  );
}

describe('WalletAdjustment', () => {
  test('needs an amount and a reason before it calls the API', async () => {
    wrap();
    await userEvent.click(screen.getByRole('button', { name: 'Credit the wallet' }));
    expect(screen.getByRole('alert').textContent).toContain('amount');
    await userEvent.type(screen.getByLabelText('Amount (USD)'), '12.50');
    await userEvent.click(screen.getByRole('button', { name: 'Credit the wallet' }));
    expect(screen.getByRole('alert').textContent).toContain('reason');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  test('a debit posts a negative amount; a retry after a failure reuses its Idempotency-Key', async () => {
    fetchMock.mockResolvedValueOnce(json(500, { error: { code: 'INTERNAL_ERROR', message: 'Try again' } }));
    fetchMock.mockResolvedValueOnce(json(200, posted));
    wrap();
    await userEvent.selectOptions(screen.getByLabelText('Direction'), 'debit');
    await userEvent.type(screen.getByLabelText('Amount (USD)'), '12.50');
    await userEvent.type(screen.getByLabelText(/^Reason/), 'Goodwill');
    await userEvent.click(screen.getByRole('button', { name: 'Debit the wallet' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('Try again'));
    await userEvent.click(screen.getByRole('button', { name: 'Debit the wallet' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('32.50'));

    const [first, second] = [requestOf(0), requestOf(1)];
    expect(first.url).toContain('/api/admin/v1/accounts/acc_1/wallet/adjustments');
    expect(await first.clone().json()).toEqual({ amountUsd: -12.5, reason: 'Goodwill' });
    const key = first.headers.get('idempotency-key');
    expect(key).toBeTruthy();
    expect(second.headers.get('idempotency-key')).toBe(key);
  });
});
