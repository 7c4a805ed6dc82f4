import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, expect, test, vi } from 'vitest';
import { I18nProvider } from '../i18n';
import { ME_KEY } from '../lib/session';

// The API client is created at import: stub fetch first.
const fetchMock = vi.hoisted(() => {
  const mock = vi.fn();
  globalThis.fetch = mock;
  return mock;
});

const { default: Destination } = await import('./Destination');

const USER = { id: 'acc_1', firstName: 'A', locale: 'en', currency: 'USD', walletBalance: 20 };
const DESTINATION = {
  destination: {
    code: 'TR',
    name: 'Türkiye',
    flagEmoji: '🇹🇷',
    continent: 'Asia',
    continentName: 'Asia',
    description: 'Data in Türkiye',
    plans: [
      {
        id: 'plan_sbx-tr-1gb',
        title: 'Türkiye · 1 GB',
        description: '',
        dataAmountMb: 1024,
        durationDays: 7,
        isTopUp: false,
        scope: 'country',
        activationPolicy: 'first_connection',
        topUpSupported: true,
        coverage: [{ code: 'TR', name: 'Türkiye' }],
        price: { amount: 4.99, currency: 'USD', formatted: '$4.99' },
        priceUsd: { amount: 4.99, currency: 'USD', formatted: '$4.99' },
      },
    ],
  },
  exchangeRate: null,
};

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

/** The API by path: the destination, checkout, and /auth/me with the balance after the purchase. */
function stubApi() {
  fetchMock.mockImplementation((request: Request) => {
    const path = new URL(request.url).pathname;
    if (path === '/api/v1/destinations/TR') return Promise.resolve(json(DESTINATION));
    if (path === '/api/v1/checkout') return Promise.resolve(json({ success: true, orderId: 'ord_1' }));
    if (path === '/api/v1/auth/me') return Promise.resolve(json({ user: { ...USER, walletBalance: 15.01 } }));
    return Promise.resolve(new Response('{}', { status: 404 }));
  });
}
const calls = (path: string) =>
  fetchMock.mock.calls.filter(([request]) => new URL((request as Request).url).pathname === path);

function renderDestination(client: QueryClient) {
  const router = createMemoryRouter(
    [
      { path: '/destinations/:code', element: <Destination /> },
      { path: '/orders', element: <p>Order page</p> },
    ],
    { initialEntries: ['/destinations/TR'] },
  );
  render(
    <QueryClientProvider client={client}>
      <I18nProvider initial="en">
        <RouterProvider router={router} />
      </I18nProvider>
    </QueryClientProvider>,
  );
}

afterEach(() => fetchMock.mockReset());

test('no order without "My phone supports eSIM and is unlocked"; with it, the header balance is read again', async () => {
  stubApi();
  const client = new QueryClient();
  client.setQueryData(ME_KEY, USER);
  renderDestination(client);
  const user = userEvent.setup();
  const pay = await screen.findByRole('button', { name: 'Pay from wallet' });

  await user.click(pay);
  expect((await screen.findByRole('alert')).textContent).toBe(
    'Confirm that your phone supports eSIM and is unlocked before you buy.',
  );
  expect(calls('/api/v1/checkout')).toHaveLength(0);

  await user.click(screen.getByRole('checkbox', { name: 'My phone supports eSIM and is unlocked' }));
  expect(screen.queryByRole('alert')).toBeNull();
  await user.click(pay);
  expect(await screen.findByText('Order page')).toBeTruthy();
  expect(calls('/api/v1/checkout')).toHaveLength(1);
  // The purchase invalidated the session query: the header's balance comes from a fresh /auth/me.
  await vi.waitFor(() => expect(calls('/api/v1/auth/me').length).toBeGreaterThan(0));
  await vi.waitFor(() => expect(client.getQueryData<typeof USER>(ME_KEY)?.walletBalance).toBe(15.01));
});

test('the phone list opens in a dialog from the checkout', async () => {
  stubApi();
  const client = new QueryClient();
  client.setQueryData(ME_KEY, USER);
  renderDestination(client);
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'Does my phone support eSIM?' }));
  expect(await screen.findByLabelText('Search phone models')).toBeTruthy();
});
