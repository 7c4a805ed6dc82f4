import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, test, vi } from 'vitest';
import type { User } from '../api/types';
import { I18nProvider } from '../i18n';
import { ME_KEY } from '../lib/session';

// The API client is created at import: stub fetch first.
const fetchMock = vi.hoisted(() => {
  const mock = vi.fn();
  globalThis.fetch = mock;
  return mock;
});

const { Notifications } = await import('./AccountNotifications');

afterEach(() => fetchMock.mockReset());

const user = {
  id: 'acc_1',
  email: 'a@example.com',
  firstName: 'A',
  lastName: 'B',
  fullName: 'A B',
  emailVerified: true,
  locale: 'de',
  currency: 'EUR',
  walletBalance: 0,
  avatarUrl: null,
  hasApiKey: false,
  hasTestApiKey: false,
  apiKeyPrefix: null,
  apiKeyGeneratedAt: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  notifications: { email: true, push: true },
} satisfies User;

test('each switch saves its channel at once, labelled in the page language', async () => {
  fetchMock.mockResolvedValue(
    new Response(
      JSON.stringify({ success: true, user: { ...user, notifications: { email: false, push: true } } }),
      {
        headers: { 'content-type': 'application/json' },
      },
    ),
  );
  const client = new QueryClient();
  client.setQueryData(ME_KEY, user);
  render(
    <QueryClientProvider client={client}>
      <I18nProvider initial="de">
        <Notifications user={user} />
      </I18nProvider>
    </QueryClientProvider>,
  );
  const email = screen.getByRole('switch', { name: 'E-Mails' });
  const push = screen.getByRole('switch', { name: 'Push-Mitteilungen auf meinen Geräten' });
  expect((email as HTMLInputElement).checked).toBe(true);
  expect((push as HTMLInputElement).checked).toBe(true);
  await userEvent.setup().click(email);
  await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
  const request = fetchMock.mock.calls[0]![0] as Request;
  expect([request.method, new URL(request.url).pathname]).toEqual(['PATCH', '/api/v1/user/profile']);
  expect(await request.json()).toEqual({ notifications: { email: false } });
  await vi.waitFor(() =>
    expect(client.getQueryData<User>(ME_KEY)?.notifications).toEqual({ email: false, push: true }),
  );
  expect(await screen.findByText('Gespeichert.')).toBeTruthy();
});
