import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { atEachSize, checkLayout, registerViaApi } from './helpers';

test.use({ locale: 'en-US' });

/**
 * Issue 32 C2: a partner's developer adds an endpoint whose receiver fails, sees why in the
 * delivery log, fixes the receiver and resends; the log shows the success. The e2e server runs
 * with WEBHOOK_ALLOW_PRIVATE_URLS=true (playwright.config.ts), so a loopback receiver is allowed.
 */
test('webhook endpoint: create → delivery fails → log shows it → fix → resend succeeds', async ({ page }) => {
  const hits: Array<{ id: string }> = [];
  const receiver = { status: 500, body: '{"error":"database unavailable"}' };
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      hits.push({ id: String(req.headers['webhook-id']) });
      res.writeHead(receiver.status, { 'content-type': 'application/json' });
      res.end(receiver.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  try {
    await registerViaApi(page, 'webhooks');
    await page.goto('/partner/webhooks');
    await expect(page.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible();
    await expect(page.getByText('No endpoint in this mode yet.')).toBeVisible();

    // Create: the catalogue's types with their descriptions, then the secret once.
    await page.getByLabel('URL').fill(url);
    await page.getByLabel('Description (optional)').fill('e2e receiver');
    await page.getByLabel('All events, including types added later').uncheck();
    await expect(page.getByText("An order's eSIMs were issued.")).toBeVisible();
    await page.getByRole('checkbox', { name: /order\.completed/ }).check();
    await page.getByLabel('All events, including types added later').check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await expect(page.getByTestId('new-secret')).toContainText('whsec_');
    await expect(page.getByRole('button', { name: 'Copy the signing secret' })).toBeVisible();
    await atEachSize(page, (w) => checkLayout(page, `webhooks list at ${w}`));

    // The endpoint page: a test event fails, and the log says how.
    await page.getByRole('link', { name: `Open ${url}` }).click();
    await expect(page.getByTestId('endpoint-url')).toHaveText(url);
    await page.getByRole('button', { name: 'Send test event' }).click();
    await expect(page.getByText('Test event queued')).toBeVisible();
    const row = page.getByTestId('delivery-row').first();
    await expect(row.getByTestId('delivery-result')).toHaveText('HTTP 500', { timeout: 15_000 });
    await expect(row).toContainText('ping');
    await row.getByText('Show (first 1 KB)').click();
    await expect(row).toContainText('database unavailable');
    await atEachSize(page, (w) => checkLayout(page, `webhook endpoint at ${w}`));

    // Fix the receiver, resend: the same webhook-id arrives and the log shows the success.
    receiver.status = 200;
    receiver.body = '{"ok":true}';
    await row.getByRole('button', { name: /^Resend ping/ }).click();
    await expect(page.getByTestId('delivery-row').first()).toHaveAttribute('data-status', 'succeeded', {
      timeout: 15_000,
    });
    await expect(page.getByTestId('delivery-row').first().getByTestId('delivery-result')).toHaveText(
      'HTTP 200',
    );
    expect(hits.length).toBeGreaterThanOrEqual(2);
    expect(new Set(hits.map((h) => h.id)).size).toBe(1);

    // Disable and enable, rotate (the 24 h overlap is explained), then delete.
    await page.getByRole('button', { name: 'Disable' }).click();
    await expect(page.getByTestId('endpoint-status')).toHaveText('Disabled');
    await page.getByRole('button', { name: 'Enable' }).click();
    await expect(page.getByTestId('endpoint-status')).toHaveText('Enabled');
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await expect(page.getByText(/For 24 hours every delivery is signed with both/)).toBeVisible();
    await page.getByRole('button', { name: 'Rotate now' }).click();
    await expect(page.getByTestId('new-secret')).toContainText('whsec_');
    await expect(page.getByText(/The previous secret still signs deliveries until/)).toBeVisible();
    await page.getByRole('button', { name: 'Delete endpoint' }).click();
    await page.getByRole('button', { name: 'Yes, delete' }).click();
    await expect(page).toHaveURL(/\/partner\/webhooks$/);
    await expect(page.getByText('No endpoint in this mode yet.')).toBeVisible();
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});
