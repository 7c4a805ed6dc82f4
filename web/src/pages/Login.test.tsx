import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, expect, test, vi } from 'vitest';
import { I18nProvider } from '../i18n';

// The API client is created at import: stub fetch first.
const fetchMock = vi.hoisted(() => {
  const mock = vi.fn();
  globalThis.fetch = mock;
  return mock;
});

const { default: Login } = await import('./Login');

function renderLogin() {
  const router = createMemoryRouter(
    [
      { path: '/login', element: <Login /> },
      { path: '/esims', element: <p>eSIMs page</p> },
    ],
    { initialEntries: ['/login'] },
  );
  render(
    <QueryClientProvider client={new QueryClient()}>
      <I18nProvider initial="en">
        <RouterProvider router={router} />
      </I18nProvider>
    </QueryClientProvider>,
  );
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeEach(() => fetchMock.mockReset());

test('a failed login shows the mapped message beside the form and sends the UI language', async () => {
  fetchMock.mockResolvedValueOnce(
    json(401, { error: 'E-posta veya şifre hatalı.', code: 'INVALID_CREDENTIALS' }),
  );
  const user = userEvent.setup();
  renderLogin();
  await user.type(screen.getByLabelText('Email'), 'a@example.com');
  await user.type(screen.getByLabelText('Password'), 'wrong-password');
  await user.click(screen.getByRole('button', { name: 'Log in' }));
  expect((await screen.findByRole('alert')).textContent).toBe('Wrong email or password.');
  const request = fetchMock.mock.calls[0]![0] as Request;
  expect(new URL(request.url).pathname).toBe('/api/v1/auth/login');
  expect(request.headers.get('accept-language')).toBe('en');
  expect(await request.json()).toEqual({ email: 'a@example.com', password: 'wrong-password' });
});

test('a successful login goes to the next page', async () => {
  fetchMock.mockResolvedValueOnce(
    json(200, { success: true, token: 't', user: { id: 'acc_1', locale: 'en' } }),
  );
  const user = userEvent.setup();
  renderLogin();
  await user.type(screen.getByLabelText('Email'), 'a@example.com');
  await user.type(screen.getByLabelText('Password'), 'right-password');
  await user.click(screen.getByRole('button', { name: 'Log in' }));
  expect(await screen.findByText('eSIMs page')).toBeTruthy();
});
