import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { I18nProvider } from '../i18n';

// The API client is created at import: stub fetch first.
const fetchMock = vi.hoisted(() => {
  const mock = vi.fn();
  globalThis.fetch = mock;
  return mock;
});

const { PushOptIn } = await import('./PushOptIn');

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const VAPID_KEY = `B${'A'.repeat(86)}`;
const subscription = {
  endpoint: 'https://push.example.com/send/abc',
  toJSON: () => ({ endpoint: 'https://push.example.com/send/abc', keys: { p256dh: 'p256', auth: 'auth' } }),
  unsubscribe: vi.fn(async () => true),
};

/** A browser with the Push API: permission `permission` (what requestPermission answers: `answer`). */
function stubBrowser(permission: NotificationPermission, answer: NotificationPermission = permission) {
  const subscribe = vi.fn(async () => subscription);
  const registration = {
    active: {},
    pushManager: { getSubscription: vi.fn(async () => null), subscribe },
  };
  vi.stubGlobal('PushManager', function PushManager() {});
  vi.stubGlobal(
    'Notification',
    Object.assign(function Notification() {}, { permission, requestPermission: vi.fn(async () => answer) }),
  );
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: { getRegistration: vi.fn(async () => undefined), register: vi.fn(async () => registration) },
  });
  return { subscribe, registration };
}

function renderOptIn() {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <I18nProvider initial="en">
        <PushOptIn />
      </I18nProvider>
    </QueryClientProvider>,
  );
}

beforeEach(() => fetchMock.mockReset());
afterEach(() => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, 'serviceWorker');
});

test('turning it on asks permission, subscribes with the VAPID key and registers the browser', async () => {
  const { subscribe } = stubBrowser('default', 'granted');
  fetchMock.mockImplementation(async (request?: Request) => {
    if (!request) return json(404, {});
    return new URL(request.url).pathname === '/api/v1/push/vapid-public-key'
      ? json(200, { publicKey: VAPID_KEY })
      : json(200, { success: true, device: {} });
  });
  renderOptIn();
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'Notify me when data runs low' }));
  expect((await screen.findByRole('status')).textContent).toBe('Notifications are on in this browser.');
  const key = (subscribe.mock.calls[0] as unknown as [{ applicationServerKey: Uint8Array }])[0]
    .applicationServerKey;
  expect(key).toHaveLength(65);
  const register = fetchMock.mock.calls.map((c) => c[0] as Request).find((r) => r?.method === 'POST')!;
  expect(new URL(register.url).pathname).toBe('/api/v1/user/push-devices');
  expect(await register.json()).toEqual({
    platform: 'WEB',
    pushToken: subscription.endpoint,
    subscription: { endpoint: subscription.endpoint, keys: { p256dh: 'p256', auth: 'auth' } },
    appVersion: 'web',
  });
  expect(screen.getByRole('button', { name: 'Turn off notifications' })).toBeTruthy();
});

test('a browser that blocks notifications says so and offers no button', async () => {
  stubBrowser('denied');
  renderOptIn();
  expect((await screen.findByRole('status')).textContent).toMatch(/blocked by this browser/);
  expect(screen.queryByRole('button')).toBeNull();
});

test('a refusal at the prompt shows the blocked state and registers nothing', async () => {
  stubBrowser('default', 'denied');
  renderOptIn();
  await userEvent.setup().click(await screen.findByRole('button', { name: 'Notify me when data runs low' }));
  expect((await screen.findByRole('status')).textContent).toMatch(/blocked by this browser/);
  expect(fetchMock).not.toHaveBeenCalled();
});

test('a browser without the Push API is told it is not supported', async () => {
  renderOptIn();
  expect((await screen.findByRole('status')).textContent).toBe(
    'This browser does not support notifications.',
  );
});
