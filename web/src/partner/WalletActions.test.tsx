import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, test, vi } from 'vitest';
import { I18nProvider } from '../i18n';
import type { PartnerPermission } from './console';
import { WalletActions } from './WalletActions';

// The API client is created at import: stub fetch first.
const fetchMock = vi.hoisted(() => {
  const mock = vi.fn();
  globalThis.fetch = mock;
  return mock;
});

function pcOf(mode: 'live' | 'test', permissions: PartnerPermission[]) {
  return {
    mode,
    can: (p: PartnerPermission) => permissions.includes(p),
    scope: { path: { partnerId: 'acc_partner' }, query: { mode } },
    key: ['partner', 'acc_partner', mode] as const,
    link: (path: string) => (mode === 'test' ? `${path}?mode=test` : path),
  };
}

const wrap = (pc: ReturnType<typeof pcOf>) =>
  render(
    <QueryClientProvider client={new QueryClient()}>
      <I18nProvider initial="en">
        <WalletActions pc={pc} />
      </I18nProvider>
    </QueryClientProvider>,
  );

beforeEach(() => fetchMock.mockReset());

describe('WalletActions', () => {
  test('live mode with wallet.topup: the top-up form, no reset', () => {
    wrap(pcOf('live', ['wallet.topup', 'testmode.write']));
    expect(screen.getByRole('form', { name: 'Top up the partner wallet' })).toBeTruthy();
    expect(screen.queryByTestId('reset-test-wallet')).toBeNull();
  });

  test('a Developer in live mode sees nothing; in test mode the reset button', () => {
    const { unmount } = wrap(pcOf('live', ['keys.write', 'testmode.write']));
    expect(screen.queryByTestId('wallet-actions')).toBeNull();
    unmount();
    wrap(pcOf('test', ['keys.write', 'testmode.write']));
    expect(screen.getByTestId('reset-test-wallet')).toBeTruthy();
    expect(screen.queryByTestId('partner-topup')).toBeNull();
  });

  test('reset calls the partner route and says the new balance', async () => {
    fetchMock.mockImplementation(
      async () =>
        new Response(JSON.stringify({ testBalanceUsd: 1000 }), {
          headers: { 'content-type': 'application/json' },
        }),
    );
    wrap(pcOf('test', ['testmode.write']));
    await userEvent.click(screen.getByTestId('reset-test-wallet'));
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('1,000.00'));
    const request = (fetchMock.mock.calls[0] as unknown as [Request])[0];
    expect(request.url).toContain('/api/v1/partners/acc_partner/test-wallet/reset?mode=test');
    expect(request.method).toBe('POST');
  });

  test('refuses an amount below 2 USD without calling the API', async () => {
    wrap(pcOf('live', ['wallet.topup']));
    const input = screen.getByLabelText('Amount (USD)');
    await userEvent.clear(input);
    await userEvent.type(input, '1');
    await userEvent.click(screen.getByRole('button', { name: 'Continue to payment' }));
    expect(screen.getByRole('alert').textContent).toContain('at least 2.00 USD');
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
