import { expect, test, type Page } from '@playwright/test';
import {
  baseURL,
  buyWithWallet,
  expectAccessible,
  expectNoHorizontalScroll,
  expectNothingWiderThanViewport,
  fundWallet,
  registerViaApi,
  screenshot,
  VIEWPORTS,
} from './helpers';
import { CLIENT_PATHS } from '../../src/lib/client-paths';

/**
 * Every page at 390×844 and 1280×800: no horizontal scroll, no serious or critical axe-core
 * violation, and a full-page screenshot in e2e/screenshots/.
 */
test.use({ locale: 'en-US' });

const publicPages: [string, string, (page: Page) => Promise<void>][] = [
  // The operator console signed out: its sign-in page (its signed-in pages are checked at both
  // sizes by the admin-*.spec.ts journeys).
  [
    'admin',
    '/admin',
    (p) => expect(p.getByRole('heading', { level: 1, name: 'Sign in to the console' })).toBeVisible(),
  ],
  [
    'storefront',
    '/',
    (p) => expect(p.getByTestId('destination-list').getByRole('link').first()).toBeVisible(),
  ],
  [
    'storefront-all',
    '/?filter=all',
    (p) => expect(p.getByRole('heading', { name: 'Regions' })).toBeVisible(),
  ],
  [
    'destination',
    '/destinations/TR',
    (p) => expect(p.getByRole('heading', { level: 1, name: 'Türkiye' })).toBeVisible(),
  ],
  [
    'region',
    '/destinations/EUROPE',
    (p) => expect(p.getByRole('heading', { level: 1, name: 'Europe' })).toBeVisible(),
  ],
  [
    'compatibility',
    '/compatibility',
    (p) => expect(p.getByTestId('brand-groups').locator('summary').first()).toHaveText(/^Apple/),
  ],
  ['login', '/login', (p) => expect(p.getByRole('heading', { name: 'Log in' })).toBeVisible()],
  [
    'register',
    '/register',
    (p) => expect(p.getByRole('heading', { name: 'Create your account' })).toBeVisible(),
  ],
  [
    'forgot-password',
    '/forgot-password',
    (p) => expect(p.getByRole('heading', { name: 'Reset your password' })).toBeVisible(),
  ],
  ['reset-password', '/reset-password?token=x', (p) => expect(p.getByRole('alert')).toBeVisible()],
  ['not-found', '/destinations/XX', (p) => expect(p.getByRole('alert')).toBeVisible()],
  [
    'terms',
    '/terms',
    (p) => expect(p.getByRole('heading', { level: 1, name: 'Terms of service' })).toBeVisible(),
  ],
  [
    'privacy',
    '/privacy',
    (p) => expect(p.getByRole('heading', { level: 1, name: 'Privacy policy' })).toBeVisible(),
  ],
  [
    'refund-policy',
    '/refund-policy',
    (p) => expect(p.getByRole('heading', { level: 1, name: 'Refund policy' })).toBeVisible(),
  ],
  ['contact', '/contact', (p) => expect(p.getByRole('heading', { name: 'Send us a message' })).toBeVisible()],
  // A thread with messages: legal.spec.ts, which has a real link; here the page for a wrong one.
  [
    'guest-ticket',
    '/support/guest/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    (p) => expect(p.getByRole('alert')).toBeVisible(),
  ],
];

const accountPages: [string, string, (page: Page) => Promise<void>][] = [
  ['esims', '/esims', (p) => expect(p.getByTestId('esim-card').first().getByRole('img')).toBeVisible()],
  ['esim', '/esims/ICCID', (p) => expect(p.getByTestId('install-url')).toBeVisible()],
  // A table on a wide screen, cards on a phone (RecordTable): whichever is shown.
  [
    'orders',
    '/orders',
    (p) =>
      expect(
        p
          .getByTestId(/^order-row/)
          .filter({ visible: true })
          .first(),
      ).toBeVisible(),
  ],
  ['order', '/orders?order=ORDER', (p) => expect(p.getByTestId('esim-card')).toBeVisible()],
  ['order-receipt', '/orders/ORDER/receipt', (p) => expect(p.getByTestId('receipt-total')).toBeVisible()],
  [
    'wallet',
    '/wallet',
    (p) =>
      expect(
        p
          .getByTestId(/^transaction-row/)
          .filter({ visible: true })
          .first(),
      ).toBeVisible(),
  ],
  ['topup-receipt', '/wallet/receipts/TOPUP', (p) => expect(p.getByTestId('receipt-total')).toBeVisible()],
  ['support', '/support', (p) => expect(p.getByRole('heading', { name: 'New ticket' })).toBeVisible()],
  ['ticket', '/support?ticket=TICKET', (p) => expect(p.locator('.message').first()).toBeVisible()],
  ['account', '/account', (p) => expect(p.getByRole('heading', { name: 'Delete account' })).toBeVisible()],
  ['api-keys', '/api-keys', (p) => expect(p.getByTestId('key-prefix')).toBeVisible()],
  ['partner', '/partner', (p) => expect(p.getByTestId('partner-order').first()).toBeVisible()],
  ['partner-keys', '/partner/keys', (p) => expect(p.getByTestId('key-prefix')).toBeVisible()],
  [
    'partner-team',
    '/partner/team',
    (p) =>
      expect(
        p
          .getByTestId(/^invitation-row/)
          .filter({ visible: true })
          .first(),
      ).toBeVisible(),
  ],
  [
    'partner-audit',
    '/partner/audit',
    (p) =>
      expect(
        p
          .getByTestId(/^audit-row/)
          .filter({ visible: true })
          .first(),
      ).toBeVisible(),
  ],
  ['partner-webhooks', '/partner/webhooks', (p) => expect(p.getByTestId('endpoint-list')).toBeVisible()],
  [
    'partner-webhook',
    '/partner/webhooks/WEBHOOK',
    (p) => expect(p.getByTestId('endpoint-url')).toBeVisible(),
  ],
  ['partner-billing', '/partner/billing', (p) => expect(p.getByTestId('statements')).toBeVisible()],
  ['partner-events', '/partner/events', (p) => expect(p.getByTestId('event-row').first()).toBeVisible()],
  [
    'partner-requests',
    '/partner/requests',
    (p) => expect(p.getByTestId('request-row').first()).toBeVisible(),
  ],
];

/** Public pages that need something to show: checked logged out after the account pages. */
const linkPages: [string, string, (page: Page) => Promise<void>][] = [
  ['install', '/install/TOKEN', (p) => expect(p.getByTestId('matching-id')).toBeVisible()],
  [
    'partner-invitation',
    '/partner-invitations/INVITE',
    (p) => expect(p.getByTestId('invitation')).toContainText('Developer'),
  ],
];

async function check(page: Page, name: string, url: string, ready: (page: Page) => Promise<void>) {
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await page.goto(url);
    await ready(page);
    await page.evaluate(() => document.fonts.ready);
    // Let lazy flag and QR images arrive before the screenshot.
    await page.waitForLoadState('networkidle');
    await expectNoHorizontalScroll(page, `${name} at ${viewport.width}px`);
    await expectNothingWiderThanViewport(page, `${name} at ${viewport.width}px`);
    await expectAccessible(page, `${name} at ${viewport.width}px`);
    await screenshot(page, name);
  }
}

test('every client route (src/lib/client-paths.ts) has its layout check below', () => {
  const checked = new Set([...publicPages, ...accountPages, ...linkPages].map(([name]) => name));
  const signedIn = new Set(accountPages.map(([name]) => name));
  for (const { page, signedIn: needsSession } of CLIENT_PATHS) {
    expect(checked.has(page), `${page} has no layout check`).toBe(true);
    expect(signedIn.has(page), `${page} is checked ${needsSession ? 'without' : 'with'} a session`).toBe(
      needsSession,
    );
  }
});

test('public pages: no horizontal scroll, accessible, screenshots', async ({ page }) => {
  test.setTimeout(240_000);
  for (const [name, url, ready] of publicPages) await check(page, name, url, ready);
  // The phone menu opens and its links are reachable by keyboard.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  await page.getByRole('button', { name: 'Menu' }).click();
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Log in' }),
  ).toBeVisible();
  await screenshot(page, 'menu-open');
});

test('account pages: no horizontal scroll, accessible, screenshots', async ({ page }) => {
  test.setTimeout(240_000);
  await registerViaApi(page, 'layout', 'Elif');
  await fundWallet(page, 50);
  const orderId = await buyWithWallet(page, 'JP');
  const ticket = await page.request.post('/api/v1/support/tickets', {
    headers: { origin: baseURL },
    data: {
      subject: 'Question about my Japan eSIM',
      category: 'esim',
      message: 'Does it work on the Shinkansen?',
    },
  });
  expect(ticket.status()).toBe(201);
  const ticketId = ((await ticket.json()) as { ticket: { id: string } }).ticket.id;
  const key = await page.request.post('/api/v1/user/api-key/generate', {
    headers: { origin: baseURL },
  });
  const rawKey = ((await key.json()) as { key: string }).key;
  const plan = await (await page.request.get('/api/v1/destinations/FR')).json();
  await page.request.post('/api/public/v1/orders', {
    headers: { authorization: `Bearer ${rawKey}` },
    data: { planId: plan.destination.plans[0].id, quantity: 1 },
  });
  const esims = await page.request.get('/api/v1/user/esims?channel=web');
  const [esim] = ((await esims.json()) as { esims: { iccid: string; installUrl: string }[] }).esims;
  const history = await page.request.get('/api/v1/user/wallet/transactions');
  const { transactions } = (await history.json()) as { transactions: { id: string; hasReceipt: boolean }[] };
  const topUpId = transactions.find((tx) => tx.hasReceipt)!.id;
  const me = ((await (await page.request.get('/api/v1/auth/me')).json()) as { user: { id: string } }).user;
  const invitation = await page.request.post(`/api/v1/partners/${me.id}/invitations`, {
    headers: { origin: baseURL },
    data: { email: 'layout-invitee@example.com', role: 'developer' },
  });
  const invite = ((await invitation.json()) as { path: string }).path.split('/').pop()!;
  // An endpoint nobody listens on (private URLs are allowed in the e2e server's configuration).
  const endpoint = await page.request.post(`/api/v1/partners/${me.id}/webhook-endpoints`, {
    headers: { origin: baseURL },
    data: { url: 'http://127.0.0.1:9/hooks', description: 'Layout check' },
  });
  expect(endpoint.status(), await endpoint.text()).toBe(201);
  const webhookId = ((await endpoint.json()) as { id: string }).id;
  for (const [name, url, ready] of accountPages) {
    const concrete = url
      .replace('ORDER', orderId)
      .replace('TICKET', ticketId)
      .replace('ICCID', esim!.iccid)
      .replace('TOPUP', topUpId)
      .replace('WEBHOOK', webhookId);
    await check(page, name, concrete, ready);
  }
  await page.context().clearCookies();
  for (const [name, url, ready] of linkPages) {
    await check(
      page,
      name,
      url.replace('TOKEN', new URL(esim!.installUrl).pathname.split('/').pop()!).replace('INVITE', invite),
      ready,
    );
  }
});

test('keyboard: skip link, then the search field and a destination by Tab', async ({ page }) => {
  await page.goto('/');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Search destinations')).toBeFocused();
  await page.keyboard.type('greece');
  // Let the type-ahead settle (query in the URL, results fetched) before picking a result, so the
  // link focused is the one that stays on the page.
  await expect(page).toHaveURL(/[?&]q=greece/);
  await page.waitForLoadState('networkidle');
  const link = page.getByRole('link', { name: /Greece/ });
  await expect(link).toBeVisible();
  await link.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/destinations\/GR$/);
});
