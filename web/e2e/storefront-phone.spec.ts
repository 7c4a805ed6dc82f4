import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { CLIENT_PATHS } from '../../src/lib/client-paths';
import {
  atEachSize,
  checkLayout,
  baseURL,
  buyWithWallet,
  confirmPhone,
  fundWallet,
  registerViaApi,
  screenshot,
} from './helpers';

/**
 * Issue 30 (T6, T7, T10): the eSIM phone list and the checkout's tick, phone-first lists, one title
 * per route, the not-found page with status 404, the header balance after a purchase, and
 * "Download my data". At 390×844 and 1280×800 where the layout matters.
 */
test.use({ locale: 'en-US' });

test('compatibility: the search finds "iPhone 15" and "Pixel 8", at both sizes', async ({ page }) => {
  await atEachSize(page, async (width) => {
    await page.goto('/compatibility');
    await expect(page).toHaveTitle('Does my phone support eSIM? · Roam eSIM');
    // Chromium on Linux: not a phone, so the general hint.
    await expect(page.getByTestId('compat-hint')).toHaveText(/Check the phone you will travel with/);
    // Before a search: the brands, folded; one opens on a click.
    await page
      .getByTestId('brand-groups')
      .locator('summary', { hasText: /^Google \(/ })
      .click();
    await expect(page.getByRole('list', { name: 'Google' })).toContainText('Pixel 3a');
    const search = page.getByRole('searchbox', { name: 'Search phone models' });
    const list = page.getByRole('list', { name: 'Phones with eSIM' });
    await search.fill('iPhone 15');
    await expect(list.getByRole('listitem').first()).toHaveText(/^Apple iPhone 15/);
    await expect(list.getByRole('listitem')).toHaveCount(4);
    await expect(page.getByRole('status')).toHaveText('Models found: 4');
    await checkLayout(page, `compatibility (iPhone 15) at ${width}px`);
    await screenshot(page, 'compatibility-search');
    await search.fill('Pixel 8');
    await expect(list.getByRole('listitem')).toHaveText([/Pixel 8$/, /Pixel 8 Pro$/, /Pixel 8a$/]);
  });
});

test('an iPhone visitor gets the iPhone hint', async ({ browser }) => {
  const context = await browser.newContext({
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
    locale: 'en-US',
  });
  const page = await context.newPage();
  await page.goto(`${baseURL}/compatibility`);
  await expect(page.getByTestId('compat-hint')).toHaveText(/^This looks like an iPhone/);
  await context.close();
});

test('checkout: no order without the tick; the dialog lists the phones; the header balance follows the purchase', async ({
  page,
}) => {
  await registerViaApi(page, 'tick');
  await fundWallet(page, 50);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/destinations/TR');
  await expect(page.getByRole('heading', { level: 1, name: 'Türkiye' })).toBeVisible();

  // Without the tick: the browser's validation stops the submit; our message is beside the box.
  await page.getByRole('button', { name: 'Pay from wallet' }).click();
  await expect(page.locator('.phone-check').getByRole('alert')).toHaveText(
    'Confirm that your phone supports eSIM and is unlocked before you buy.',
  );
  await expect(page).toHaveURL(/\/destinations\/TR$/);
  const orders = await page.request.get('/api/v1/user/orders');
  expect(((await orders.json()) as { orders: unknown[] }).orders).toEqual([]);

  // "Does my phone support eSIM?" opens the list in a dialog, on the phone as well.
  await page.getByRole('button', { name: 'Does my phone support eSIM?' }).click();
  const dialog = page.getByRole('dialog', { name: 'Does my phone support eSIM?' });
  await expect(dialog.getByRole('searchbox', { name: 'Search phone models' })).toBeFocused();
  await dialog.getByRole('searchbox').fill('galaxy s24');
  await expect(dialog.getByRole('listitem').first()).toHaveText(/Samsung Galaxy S24$/);
  await checkLayout(page, 'compatibility dialog at 390px');
  await screenshot(page, 'compatibility-dialog', { fullPage: false });
  // Escape in a search field first clears it (the browser's own), then closes the dialog.
  await dialog.getByRole('searchbox').fill('');
  await dialog.getByRole('searchbox').press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: 'Does my phone support eSIM?' })).toBeFocused();
  await expect(page).toHaveURL(/\/destinations\/TR$/);
  await screenshot(page, 'checkout-tick');

  // With the tick: the order is placed and the header's balance drops by its price.
  const header = page.locator('.balance-chip');
  await page.getByRole('button', { name: 'Menu' }).click();
  await expect(header).toHaveText(/\$50\.00/);
  await page.getByRole('button', { name: 'Menu' }).click();
  const total = (await page.getByTestId('checkout-total').textContent())!;
  const price = Number(total.replace(/[^0-9.]/g, ''));
  await confirmPhone(page);
  await page.getByRole('button', { name: 'Pay from wallet' }).click();
  await expect(page).toHaveURL(/\/orders\?order=/);
  await page.getByRole('button', { name: 'Menu' }).click();
  await expect(header).toHaveText(new RegExp(`\\$${(50 - price).toFixed(2).replace('.', '\\.')}`));
});

test('phone-first lists: cards at 390 px, tables at 1280 px, nothing wider than the screen', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await registerViaApi(page, 'cards');
  await fundWallet(page, 50);
  await buyWithWallet(page, 'JP');
  await page.request.post('/api/v1/support/tickets', {
    headers: { origin: baseURL },
    data: { subject: 'Roaming on the Shinkansen', category: 'esim', message: 'Will it work?' },
  });
  await page.request.post('/api/v1/user/api-key/generate', { headers: { origin: baseURL } });

  const pages: [string, string, string | null][] = [
    ['orders', '/orders', 'order-row'],
    ['wallet', '/wallet', 'transaction-row'],
    ['support', '/support', null],
    ['partner', '/partner', null],
    ['api-keys', '/api-keys', null],
  ];
  await atEachSize(page, async (width) => {
    for (const [name, url, rows] of pages) {
      await page.goto(url);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      if (rows) {
        const cards = page.getByTestId(`${rows}-card`).first();
        if (width < 640) {
          await expect(cards).toBeVisible();
          await expect(page.getByRole('table')).toHaveCount(0);
        } else {
          await expect(page.getByRole('table')).toBeVisible();
          await expect(cards).toBeHidden();
        }
      }
      if (name === 'support') await expect(page.locator('.ticket-list li')).toHaveCount(1);
      await page.waitForLoadState('networkidle');
      await checkLayout(page, `${name} at ${width}px`);
      await screenshot(page, `phone-first-${name}`);
    }
  });
});

test('every route sets a title of its own', async ({ page, browser }) => {
  const titleOf = async (p: Page, url: string) => {
    await p.goto(url);
    await expect(p.getByRole('heading', { level: 1 }).first()).toBeVisible();
    // The page's own title (index.html's does not end in the brand; a loading page says so).
    await expect(p).toHaveTitle(/^(?!Loading).+ · Roam eSIM$/);
    return p.title();
  };
  const titles = new Map<string, string>();
  // Public pages as a visitor (a session would send some of them elsewhere).
  const visitor = await browser.newContext({ locale: 'en-US', baseURL });
  const visitorPage = await visitor.newPage();
  // The operator console has a brand of its own (admin-operators.spec.ts checks its titles).
  const storefront = CLIENT_PATHS.filter((p) => !p.operator);
  for (const { example, signedIn } of storefront.filter((p) => !p.signedIn)) {
    expect(signedIn).toBe(false);
    titles.set(example, await titleOf(visitorPage, example));
  }
  titles.set('/xyz', await titleOf(visitorPage, '/xyz'));
  await visitor.close();
  await registerViaApi(page, 'titles');
  for (const { example } of storefront.filter((p) => p.signedIn)) {
    const title = await titleOf(page, example);
    // A path kept for old links that now sends to another page (/api-keys → /partner/keys).
    if (new URL(page.url()).pathname !== new URL(example, baseURL).pathname) continue;
    titles.set(example, title);
  }
  const seen = new Map<string, string>();
  for (const [url, title] of titles) {
    expect(seen.get(title), `${url} has the title of ${seen.get(title)}`).toBeUndefined();
    seen.set(title, url);
  }
  expect(titles.get('/orders')).toBe('Orders · Roam eSIM');
});

test('an unknown path is the not-found page, answered with 404', async ({ page }) => {
  await atEachSize(page, async (width) => {
    for (const url of ['/xyz', '/orders/abc']) {
      const response = await page.goto(url);
      expect(response?.status(), url).toBe(404);
      await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
      await expect(page).toHaveTitle('Page not found · Roam eSIM');
    }
    await checkLayout(page, `not found at ${width}px`);
    await screenshot(page, 'not-found-404');
  });
  await page.getByRole('link', { name: 'Browse destinations' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('account: "Download my data" saves the JSON export', async ({ page }) => {
  const { email } = await registerViaApi(page, 'export');
  await fundWallet(page, 20);
  const orderId = await buyWithWallet(page, 'TR');
  await atEachSize(page, async (width) => {
    await page.goto('/account');
    await expect(page.getByRole('heading', { name: 'Your data' })).toBeVisible();
    await checkLayout(page, `account at ${width}px`);
    await screenshot(page, 'account-data');
  });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download my data' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^esim-account-data-\d{4}-\d{2}-\d{2}\.json$/);
  const body = JSON.parse(readFileSync(await download.path(), 'utf8')) as {
    profile: { email: string };
    orders: { id: string }[];
    walletTransactions: unknown[];
  };
  expect(body.profile.email).toBe(email);
  expect(body.orders.map((o) => o.id)).toEqual([orderId]);
  expect(body.walletTransactions).toHaveLength(2);
});
