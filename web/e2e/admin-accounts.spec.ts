import { expect, test, type Page } from '@playwright/test';
import { atEachSize, baseURL, checkLayout, PASSWORD, registerViaApi } from './helpers';
import { createOperator, signIn } from './operator';

/**
 * Issue 33 O2: the console's overview, search and account page. A customer registered through
 * the API is found by Support, signed out everywhere, suspended and unsuspended; the wallet
 * adjustment is Finance's alone.
 */

const sameOrigin = { origin: baseURL };

/** Searches with the console's one search box. */
async function search(page: Page, q: string): Promise<void> {
  await page.getByRole('searchbox', { name: 'Search accounts, orders, eSIMs and payments' }).fill(q);
  await page.getByRole('search').getByRole('button', { name: 'Search' }).click();
}

test('Support finds a customer by e-mail, ends their sessions, suspends and unsuspends', async ({
  page,
  browser,
  request,
}) => {
  const customerContext = await browser.newContext();
  const customer = await customerContext.newPage();
  const { email } = await registerViaApi(customer, 'console-acc', 'Elif');
  expect((await customer.request.get('/api/v1/user/orders')).status()).toBe(200);

  const support = await createOperator(request, 'support');
  await signIn(page, support);
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
  await expect(page.getByRole('link', { name: /open$/ })).toHaveAttribute(
    'href',
    '/admin/tickets?status=OPEN',
  );
  await atEachSize(page, (w) => checkLayout(page, `overview ${w}`));

  // The beginning of the address lists the hit; the operator opens it.
  await search(page, email.slice(0, email.indexOf('@')));
  await expect(page).toHaveURL(/\/admin\/search\?q=/);
  const accounts = page.getByRole('region', { name: 'Accounts' });
  await expect(accounts.getByRole('link', { name: email })).toBeVisible();
  await atEachSize(page, (w) => checkLayout(page, `search ${w}`));
  await accounts.getByRole('link', { name: email }).click();
  await expect(page).toHaveURL(/\/admin\/accounts\/acc_/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(email);
  await expect(page.getByTestId('live-sessions')).toContainText('1 live session');
  // Support adjusts no wallet: the form is not there (the server refuses it anyway).
  await expect(page.getByRole('form', { name: 'Adjust the wallet' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /the wallet$/ })).toHaveCount(0);

  // End sessions: asked first, then the customer's next request is refused.
  await page.getByRole('button', { name: 'End all sessions' }).click();
  await page.getByRole('button', { name: 'Yes, end sessions' }).click();
  await expect(page.getByRole('status')).toHaveText('Ended 1 session.');
  await expect(page.getByTestId('live-sessions')).toContainText('0 live sessions');
  expect((await customer.request.get('/api/v1/user/orders')).status()).toBe(401);

  // Suspend: sign-in is refused until the account is unsuspended.
  const profile = page.getByRole('region', { name: 'Profile' });
  await profile.getByRole('button', { name: 'Suspend' }).click();
  await profile.getByRole('button', { name: 'Cancel' }).click();
  await expect(profile.getByText('ACTIVE', { exact: true })).toBeVisible();
  await profile.getByRole('button', { name: 'Suspend' }).click();
  await profile.getByRole('button', { name: 'Yes, suspend' }).click();
  await expect(profile.getByText('SUSPENDED', { exact: true })).toBeVisible();
  const login = () =>
    customer.request.post('/api/v1/auth/login', { headers: sameOrigin, data: { email, password: PASSWORD } });
  expect((await login()).status()).toBe(403);
  await profile.getByRole('button', { name: 'Unsuspend' }).click();
  await profile.getByRole('button', { name: 'Yes, reactivate' }).click();
  await expect(profile.getByText('ACTIVE', { exact: true })).toBeVisible();
  expect((await login()).status()).toBe(200);

  // The account page at a phone's width and on a desktop: usable, accessible.
  await page.reload();
  await expect(page.getByTestId('live-sessions')).toContainText('1 live session');
  await atEachSize(page, (w) => checkLayout(page, `account ${w}`));
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('button', { name: 'End all sessions' }).scrollIntoViewIfNeeded();
  await page.getByRole('button', { name: 'End all sessions' }).click();
  await expect(page.getByRole('button', { name: 'Yes, end sessions' })).toBeInViewport();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await customerContext.close();
});

test('Finance credits a wallet with a reason; an exact e-mail opens the account at once', async ({
  page,
  browser,
  request,
}) => {
  const customerContext = await browser.newContext();
  const { email } = await registerViaApi(await customerContext.newPage(), 'console-wallet');
  await customerContext.close();

  const finance = await createOperator(request, 'finance');
  await signIn(page, finance);
  await search(page, email);
  await expect(page).toHaveURL(/\/admin\/accounts\/acc_/);
  await expect(page.getByTestId('wallet-balance')).toHaveText('US$0.00');

  const form = page.getByRole('form', { name: 'Adjust the wallet' });
  await form.getByLabel('Amount (USD)').fill('12.50');
  await form.getByRole('button', { name: 'Credit the wallet' }).click();
  await expect(form.getByRole('alert')).toContainText('Say why');
  await form.getByLabel(/^Reason/).fill('Goodwill for the outage in Rome');
  await form.getByRole('button', { name: 'Credit the wallet' }).click();
  await expect(form.getByRole('status')).toContainText('US$12.50');
  await expect(page.getByTestId('wallet-balance')).toHaveText('US$12.50');
  const transactions = page.getByRole('region', { name: 'Wallet transactions' });
  await expect(transactions.getByText('Goodwill for the outage in Rome')).toBeVisible();
  // Finance ends no sessions and suspends no one (accounts.manage is Support's and the Owner's).
  await expect(page.getByRole('button', { name: 'Suspend' })).toHaveCount(0);
  await atEachSize(page, (w) => checkLayout(page, `account as finance ${w}`));
});
