import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, expect, test, vi } from 'vitest';
import { RequireAuth } from '../components/RequireAuth';
import { I18nProvider } from '../i18n';
import { ME_KEY } from '../lib/session';

// The API client is created at import: stub fetch first.
const fetchMock = vi.hoisted(() => {
  const mock = vi.fn();
  globalThis.fetch = mock;
  return mock;
});

const { default: Account } = await import('./Account');

afterEach(() => {
  fetchMock.mockReset();
  vi.restoreAllMocks();
});

test('a deleted account leaves by a full page load to the storefront notice, never via /login', async () => {
  fetchMock.mockResolvedValue(
    new Response(JSON.stringify({ success: true }), { headers: { 'content-type': 'application/json' } }),
  );
  const replace = vi.spyOn(window.location, 'replace').mockImplementation(() => {});
  const client = new QueryClient();
  client.setQueryData(ME_KEY, {
    id: 'acc_1',
    email: 'a@example.com',
    firstName: 'A',
    lastName: 'B',
    locale: 'en',
    currency: 'USD',
    walletBalance: 0,
    avatarUrl: null,
    createdAt: '2026-01-01T00:00:00.000Z',
  });
  const router = createMemoryRouter(
    [
      { path: 'login', element: <p>login page</p> },
      { element: <RequireAuth />, children: [{ path: 'account', element: <Account /> }] },
    ],
    { initialEntries: ['/account'] },
  );
  render(
    <QueryClientProvider client={client}>
      <I18nProvider initial="en">
        <RouterProvider router={router} />
      </I18nProvider>
    </QueryClientProvider>,
  );
  const user = userEvent.setup();
  await user.click(screen.getByLabelText('I understand this cannot be undone.'));
  await user.click(screen.getByRole('button', { name: 'Delete my account' }));
  await vi.waitFor(() => expect(replace).toHaveBeenCalledWith('/?deleted=1'));
  const request = fetchMock.mock.calls[0]![0] as Request;
  expect([request.method, new URL(request.url).pathname]).toEqual(['DELETE', '/api/v1/user/account']);
  expect(router.state.location.pathname).toBe('/account');
  expect(screen.queryByText('login page')).toBeNull();
});
