import { expect, test } from '@playwright/test';
import { adminGet, atEachSize, checkLayout, fundWallet, registerViaApi } from './helpers';
import { failedOrder, faults } from './failed-orders';
import { createOperator, signIn } from './operator';

/**
 * Issue 33 O2: a failed order retried by Support from the order page, a refund by Finance, the
 * audit log naming both; the orders list and its filters at 390 and 1280 px.
 */

// Whatever a test left behind, the next spec finds a working provider.
test.afterEach(async ({ request }) => {
  await faults(request, 0);
});

test('Support retries a failed order; Finance refunds one; the audit log names both', async ({
  browser,
  page,
  request,
}) => {
  const customerContext = await browser.newContext();
  const customer = await customerContext.newPage();
  await registerViaApi(customer, 'ops-order');
  await fundWallet(customer, 30);
  const retried = await failedOrder(customer);
  const refunded = await failedOrder(customer);
  await customerContext.close();

  const support = await createOperator(request, 'support');
  const finance = await createOperator(request, 'finance');

  // Finance refunds one after confirming (while the provider still fails).
  await signIn(page, finance, `/admin/orders/${refunded}`);
  await expect(page.getByRole('heading', { level: 1, name: /^Order SVC-/ })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Retry fulfilment' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Refund' }).click();
  await expect(page.getByRole('group', { name: 'Confirm the refund' })).toBeVisible();
  await page.getByRole('button', { name: 'Confirm refund' }).click();
  await expect(page.getByTestId('order-action-result')).toContainText('Refunded');
  const timeline = page.getByTestId('order-timeline');
  await expect(timeline).toContainText('Operator refunded the order');
  await expect(timeline.getByTestId('timeline-actor')).toContainText(finance.email);
  await expect(timeline).toContainText(/Refunded \d+\.\d\d USD to the wallet/);
  await expect(page.getByRole('button', { name: 'Refund' })).toHaveCount(0);
  await atEachSize(page, (w) => checkLayout(page, `order (refunded) ${w}`));

  // Support: the order page shows the failure and no Refund; a retry completes it.
  await signIn(page, support, `/admin/orders/${retried}`);
  await expect(timeline).toContainText('Provider call 1 while placing the order: failed');
  await expect(page.getByRole('button', { name: 'Refund' })).toHaveCount(0);
  await atEachSize(page, (w) => checkLayout(page, `order (failed) ${w}`));
  // The provider is back: the retry gets the eSIM.
  await faults(page.request, 0);
  await page.getByRole('button', { name: 'Retry fulfilment' }).click();
  await expect(page.getByTestId('order-action-result')).toHaveText(
    'The provider issued the eSIM: the order is complete.',
  );
  await expect(page.locator('.admin-page-head')).toContainText('COMPLETED');
  await expect(timeline).toContainText('Operator retried fulfilment');
  await expect(timeline.getByTestId('timeline-actor')).toContainText(support.email);
  await expect(timeline).toContainText(/Provider call \d+ by an operator: eSIM issued/);
  await expect(page.getByRole('button', { name: 'Retry fulfilment' })).toHaveCount(0);
  await expect(page.getByTestId('order-customer')).toHaveAttribute('href', /^\/admin\/accounts\/acc_/);

  // The audit log, through the operator API, names each operator.
  type Entry = { action: string; actor: string | null; actorEmail: string | null };
  const audit = async (orderId: string) =>
    (await adminGet<{ entries: Entry[] }>(page.request, `/audit?target=${orderId}`)).entries;
  expect(await audit(retried)).toEqual([
    expect.objectContaining({
      action: 'order.retry',
      actor: `operator:${support.id}`,
      actorEmail: support.email,
    }),
  ]);
  expect(await audit(refunded)).toEqual([
    expect.objectContaining({
      action: 'order.refund',
      actor: `operator:${finance.id}`,
      actorEmail: finance.email,
    }),
  ]);
});

test('the orders list filters by state and failure, in the URL, at 390 and 1280 px', async ({
  browser,
  page,
  request,
}) => {
  const customerContext = await browser.newContext();
  const customer = await customerContext.newPage();
  await registerViaApi(customer, 'ops-list');
  await fundWallet(customer, 30);
  // The provider keeps failing throughout: the order stays PROCESSING with its failed attempt.
  const failed = await failedOrder(customer);
  const me = await customer.request.get('/api/v1/auth/me');
  const accountId = ((await me.json()) as { user: { id: string } }).user.id;
  await customerContext.close();

  const reader = await createOperator(request, 'readonly');
  await signIn(page, reader, `/admin/orders?accountId=${accountId}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Orders' })).toBeVisible();
  const rows = page.locator('.records-table [data-testid="order-row"]');
  await expect(rows).toHaveCount(1);

  // The overview's link: failed fulfilment, whatever the state now.
  await page.goto(`/admin/orders?status=FAILED&accountId=${accountId}`);
  await expect(page.getByLabel('State', { exact: true })).toHaveValue('FAILED');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('PROCESSING');
  // The overview links a UTC day as two instants: the date fields show that day.
  const day = new Date().toISOString().slice(0, 10);
  const next = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString();
  await page.goto(
    `/admin/orders?accountId=${accountId}&from=${encodeURIComponent(`${day}T00:00:00.000Z`)}&to=${encodeURIComponent(next)}`,
  );
  await expect(page.getByLabel('From (UTC)')).toHaveValue(day);
  await expect(page.getByLabel('To (UTC, included)')).toHaveValue(day);
  await expect(rows).toHaveCount(1);

  await page.getByLabel('State', { exact: true }).selectOption('COMPLETED');
  await expect(page).toHaveURL(/status=COMPLETED/);
  await expect(page.getByTestId('orders-empty')).toBeVisible();
  await page.getByLabel('State', { exact: true }).selectOption('PROCESSING');
  await expect(rows).toHaveCount(1);
  await page.getByLabel('Payment', { exact: true }).selectOption('card');
  await expect(page.getByTestId('orders-empty')).toBeVisible();
  await page.getByLabel('Payment', { exact: true }).selectOption('wallet');
  await expect(rows).toHaveCount(1);
  await atEachSize(page, async (w) => {
    await checkLayout(page, `orders ${w}`);
    const visible = w < 640 ? page.getByTestId('order-row-card') : rows;
    await expect(visible).toHaveCount(1);
  });

  await rows.first().getByRole('link', { name: /^SVC-/ }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/orders/${failed}$`));
  // Read-only: neither action.
  await expect(page.getByRole('button', { name: 'Retry fulfilment' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Refund' })).toHaveCount(0);
});

test('jobs, outboxes and reconcile pages open and pass axe', async ({ page, request }) => {
  const finance = await createOperator(request, 'finance');
  await signIn(page, finance, '/admin/reconcile');
  await page.getByRole('button', { name: 'Run reconcile' }).click();
  await expect(page.getByTestId('reconcile-report')).toBeVisible();
  await expect(page.getByTestId('reconcile-check').first()).toBeVisible();
  await atEachSize(page, (w) => checkLayout(page, `reconcile ${w}`));

  await page.goto('/admin/jobs');
  await expect(page.getByRole('heading', { level: 1, name: 'Jobs' })).toBeVisible();
  await atEachSize(page, (w) => checkLayout(page, `jobs ${w}`));

  await page.goto('/admin/outboxes');
  await expect(page.getByRole('heading', { level: 1, name: 'Mail & push' })).toBeVisible();
  await expect(page.getByTestId('mail-row').first()).toBeVisible();
  await atEachSize(page, (w) => checkLayout(page, `outboxes ${w}`));
});
