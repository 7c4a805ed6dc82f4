import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { atEachSize, baseURL, buyWithWallet, checkLayout, fundWallet, registerViaApi } from './helpers';
import { failedOrder, faults } from './failed-orders';
import { createOperator, nextCode, signIn, type TestOperator } from './operator';

/**
 * Issue 33 "Done when": the first Owner, created by `npm run operator -- create` before the e2e
 * server started (web/playwright.config.ts), enrols and signs in with a TOTP code and invites a
 * Support operator; Support finds a customer by ICCID, answers their ticket with an internal note
 * beside the reply, retries their failed order and is refused a wallet adjustment; Finance
 * refunds an order; the audit log names both.
 */

const NOTE = 'Checked with the provider: profile released, first attempt timed out.';
const REPLY = 'Your eSIM is on its way: we retried the order for you.';

test.afterEach(async ({ request }) => {
  await faults(request, 0);
});

/** The link `npm run operator -- create` printed when the e2e server's data directory was made. */
function firstOwnerLink(): string {
  const printed = readFileSync(join(process.env.E2E_DATA_DIR!, 'first-owner.txt'), 'utf8');
  const link = /https?:\/\/\S+\/admin\/enrol#[\w-]+/.exec(printed)?.[0];
  expect(link, printed).toBeTruthy();
  return link!;
}

/** The enrolment page as a person uses it: the secret they would scan, a password, the first code. */
async function enrol(page: Page, link: string, name: string, password: string): Promise<TestOperator> {
  const url = new URL(link);
  await page.goto(url.pathname + url.hash);
  await expect(page.getByRole('heading', { level: 1, name: 'Enrol in the console' })).toBeVisible();
  const secret = (await page.getByTestId('enrol-secret').textContent())!.replace(/\s/g, '');
  const operator: TestOperator = {
    id: '',
    email: '',
    name,
    role: 'owner',
    password,
    totpSecret: secret,
    recoveryCodes: [],
    lastStep: 0,
  };
  await page.getByLabel('Your name').fill(name);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Password again').fill(password);
  await page.getByLabel('Code from the app').fill(await nextCode(operator));
  await page.getByRole('button', { name: 'Enrol and sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Save your recovery codes' })).toBeVisible();
  await page.getByRole('button', { name: 'I have saved them' }).click();
  await expect(page.getByTestId('operator-who')).toContainText(name);
  return operator;
}

test('first Owner by the command, Support works a customer, Finance refunds, the audit log names both', async ({
  browser,
  page,
  request,
}) => {
  test.slow();
  // A traveller with an eSIM, two orders the provider refused, and a ticket about one of them.
  const customerContext = await browser.newContext({ baseURL });
  const customer = await customerContext.newPage();
  const { email: customerEmail } = await registerViaApi(customer, 'journey', 'Deniz');
  await fundWallet(customer, 40);
  await buyWithWallet(customer, 'TR');
  const esims = (await (await customer.request.get('/api/v1/user/esims')).json()) as {
    esims: Array<{ iccid: string }>;
  };
  const iccid = esims.esims[0]!.iccid;
  const toRetry = await failedOrder(customer);
  const toRefund = await failedOrder(customer);
  const opened = await customer.request.post('/api/v1/support/tickets', {
    headers: { origin: baseURL },
    data: {
      subject: 'My second eSIM never came',
      category: 'esim',
      message: 'Paid but nothing arrived.',
    },
  });
  expect(opened.status(), await opened.text()).toBe(201);

  // Finance refunds the other order while the provider still refuses it (a background retry
  // could otherwise complete it first).
  const finance = await createOperator(request, 'finance');
  const financeContext = await browser.newContext({ baseURL });
  const financePage = await financeContext.newPage();
  await signIn(financePage, finance, `/admin/orders/${toRefund}`);
  await financePage.getByRole('button', { name: 'Refund' }).click();
  await financePage.getByRole('button', { name: 'Confirm refund' }).click();
  await expect(financePage.getByTestId('order-action-result')).toContainText('Refunded');
  await financeContext.close();

  // The first Owner: the link from the command, enrolment, then a sign-in with a TOTP code.
  const owner = await enrol(page, firstOwnerLink(), 'First Owner', 'first-owner-horse-42');
  owner.email = 'first-owner@e2e.example';
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByLabel('E-mail').fill(owner.email);
  await page.getByLabel('Password', { exact: true }).fill(owner.password);
  await page.getByLabel('Code', { exact: true }).fill(await nextCode(owner));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('operator-who')).toHaveText('First Owner · Owner');

  // The Owner invites Support in the console; Support enrols through the link in a browser of their own.
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Operators' }).click();
  const invite = page.getByRole('region', { name: 'Invite an operator' });
  const supportEmail = `sam-${Date.now()}@ops.example`;
  await invite.getByLabel('E-mail').fill(supportEmail);
  await invite.getByLabel('Role').selectOption('support');
  await invite.getByRole('button', { name: 'Invite' }).click();
  const supportLink = await page.getByLabel('Enrolment link', { exact: true }).inputValue();
  const supportContext = await browser.newContext({ baseURL });
  const supportPage = await supportContext.newPage();
  await enrol(supportPage, supportLink, 'Sam Support', 'sam-support-horse-42');
  await expect(supportPage.getByTestId('operator-who')).toHaveText('Sam Support · Support');

  // Support finds the customer by ICCID: one exact hit opens the account.
  await supportPage.getByLabel('Search accounts, orders, eSIMs and payments').fill(iccid);
  await supportPage.getByLabel('Search accounts, orders, eSIMs and payments').press('Enter');
  await expect(supportPage).toHaveURL(/\/admin\/accounts\/acc_/);
  await expect(supportPage.getByText(customerEmail).first()).toBeVisible();
  const accountUrl = supportPage.url();
  const accountId = /acc_\w+/.exec(accountUrl)![0];
  // No wallet adjustment for Support: not offered, and refused by the server.
  await expect(supportPage.getByRole('form', { name: 'Adjust the wallet' })).toHaveCount(0);
  const refused = await supportPage.request.post(`/api/admin/v1/accounts/${accountId}/wallet/adjustments`, {
    headers: { origin: baseURL, 'idempotency-key': `journey-${Date.now()}` },
    data: { amountUsd: 5, reason: 'Goodwill' },
  });
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('ROLE_FORBIDDEN');

  // The ticket: an internal note beside the reply.
  await supportPage.getByRole('link', { name: 'My second eSIM never came' }).click();
  await supportPage.getByLabel('Internal note', { exact: true }).check();
  await supportPage.locator('#ticket-text').fill(NOTE);
  await supportPage.getByRole('button', { name: 'Add internal note' }).click();
  await expect(supportPage.locator('.ticket-note', { hasText: NOTE })).toContainText(
    'the customer never sees this',
  );
  await supportPage.getByLabel('Reply to customer').check();
  await supportPage.locator('#ticket-text').fill(REPLY);
  await supportPage.getByRole('button', { name: 'Send reply' }).click();
  await expect(supportPage.locator('.ticket-msg-staff', { hasText: REPLY })).toBeVisible();
  await atEachSize(supportPage, (w) => checkLayout(supportPage, `journey ticket ${w}`));

  // The failed order: retried once the provider is back.
  await supportPage.goto(`/admin/orders/${toRetry}`);
  await expect(supportPage.getByRole('button', { name: 'Refund' })).toHaveCount(0);
  await faults(request, 0);
  await supportPage.getByRole('button', { name: 'Retry fulfilment' }).click();
  await expect(supportPage.getByTestId('order-action-result')).toContainText('the order is complete');
  await supportContext.close();

  // The customer sees the reply, never the note.
  const thread = await (await customer.request.get('/api/v1/support/tickets')).text();
  expect(thread).toContain(REPLY);
  expect(thread).not.toContain(NOTE);
  await customerContext.close();

  // The Owner's audit log names both.
  await page.goto('/admin/audit');
  const retryRow = page.getByRole('row').filter({ hasText: 'order.retry' }).filter({ hasText: toRetry });
  await expect(retryRow).toContainText(supportEmail);
  const refundRow = page.getByRole('row').filter({ hasText: 'order.refund' }).filter({ hasText: toRefund });
  await expect(refundRow).toContainText(finance.email);
  await atEachSize(page, (w) => checkLayout(page, `journey audit ${w}`));
});
