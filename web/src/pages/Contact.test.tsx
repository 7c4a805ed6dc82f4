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

const { default: Contact } = await import('./Contact');

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The service as the page sees it, logged out; `contact` answers the form's posts in turn. */
function serve(contact: Response[]) {
  fetchMock.mockImplementation(async (request: Request) => {
    const { pathname } = new URL(request.url);
    if (pathname === '/api/v1/auth/me') return json(401, { error: 'x', code: 'UNAUTHORIZED' });
    if (pathname === '/api/v1/legal') {
      return json(200, {
        company: { name: 'Roam Travel Data Ltd', address: 'İstanbul', supportEmail: 'help@roam.example' },
        pages: ['terms', 'privacy', 'refund-policy', 'contact'],
      });
    }
    if (pathname === '/api/v1/legal/contact') {
      return json(200, {
        page: 'contact',
        language: 'en',
        title: 'Contact us',
        html: '<h1>Contact us</h1>\n<p>Read the <a href="/refund-policy">Refund policy</a> first.</p>\n',
      });
    }
    if (pathname === '/api/v1/support/contact') return contact.shift()!;
    throw new Error(`unexpected request ${pathname}`);
  });
}

function renderContact() {
  const router = createMemoryRouter(
    [
      { path: '/contact', element: <Contact /> },
      { path: '/refund-policy', element: <p>Refund page</p> },
    ],
    { initialEntries: ['/contact'] },
  );
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <I18nProvider initial="en">
        <RouterProvider router={router} />
      </I18nProvider>
    </QueryClientProvider>,
  );
}

async function fillForm(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText('Email'), ' Guest@Example.com');
  await user.type(screen.getByLabelText('Your name'), 'Zeynep');
  await user.type(screen.getByLabelText('Subject'), 'Plans for Italy');
  await user.type(screen.getByLabelText('Message'), 'Which plan for 8 days?');
  await user.click(screen.getByRole('button', { name: 'Send message' }));
}

// A block body: a function returned by beforeEach would be called as its teardown.
beforeEach(() => {
  fetchMock.mockReset();
});

test('shows the server’s text, whose links to our pages move within the app', async () => {
  serve([]);
  const user = userEvent.setup();
  renderContact();
  expect(await screen.findByRole('heading', { level: 1, name: 'Contact us' })).toBeTruthy();
  expect(document.title).toBe('Contact us · Roam eSIM');
  await user.click(screen.getByRole('link', { name: 'Refund policy' }));
  expect(await screen.findByText('Refund page')).toBeTruthy();
});

test('sends the form without a session and says where the answer will go', async () => {
  serve([
    json(201, {
      ticket: {
        id: 'tkt_1',
        subject: 'Plans for Italy',
        status: 'OPEN',
        createdAt: '2026-11-27T10:00:00.000Z',
      },
    }),
  ]);
  const user = userEvent.setup();
  renderContact();
  await fillForm(user);
  expect((await screen.findByRole('status')).textContent).toBe(
    'Thank you, Zeynep. Your message has reached our support team; we will answer by e-mail at guest@example.com.',
  );
  const post = fetchMock.mock.calls
    .map(([request]) => request as Request)
    .find((request) => request.method === 'POST')!;
  expect(new URL(post.url).pathname).toBe('/api/v1/support/contact');
  expect(await post.json()).toEqual({
    email: 'Guest@Example.com',
    name: 'Zeynep',
    subject: 'Plans for Italy',
    message: 'Which plan for 8 days?',
  });
  await user.click(screen.getByRole('button', { name: 'Send another message' }));
  expect(screen.getByLabelText<HTMLInputElement>('Subject').value).toBe('');
});

test('past the hourly limit it says so and names the support address', async () => {
  serve([json(429, { error: 'Too many requests', code: 'RATE_LIMITED' })]);
  const user = userEvent.setup();
  renderContact();
  await screen.findByRole('heading', { level: 1, name: 'Contact us' });
  await fillForm(user);
  expect((await screen.findByRole('alert')).textContent).toBe(
    'You have sent several messages in the last hour. Please wait a while, or write to us at help@roam.example.',
  );
});
