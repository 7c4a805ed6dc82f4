import { expect, test } from '@playwright/test';
import {
  baseURL,
  checkLayout,
  firstPlan,
  fundWallet,
  registerViaApi,
  screenshot,
  VIEWPORTS,
} from './helpers';

/**
 * Issue 32 C3 and C7: a partner's developer makes a Partner API call with the key, finds it in
 * the request log by its request id, opens the events browser on the event it caused, and sees
 * the order on the console's overview (never on the personal /orders page). At 390×844 and
 * 1280×800: no horizontal scroll of the page (tables scroll in their own box), no serious or
 * critical axe violation.
 */
test.use({ locale: 'en-US' });

for (const viewport of VIEWPORTS) {
  test(`request log and events browser (${viewport.name})`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await page.goto('/');
    await registerViaApi(page, `logs-${viewport.name}`);
    await fundWallet(page, 20);
    const generated = await page.request.post('/api/v1/user/api-key/generate', {
      headers: { origin: baseURL },
    });
    expect(generated.status(), await generated.text()).toBe(200);
    const { key } = (await generated.json()) as { key: string };

    // A Partner API call with the key: an order, tagged with our own request id.
    const requestId = `e2e-${viewport.name}-${Date.now()}`;
    const plan = await firstPlan(page.request, 'FR');
    const order = await page.request.post('/api/public/v1/orders', {
      headers: { authorization: `Bearer ${key}`, 'x-request-id': requestId, 'idempotency-key': requestId },
      data: { planId: plan.id, quantity: 1 },
    });
    expect(order.status(), await order.text()).toBe(201);
    expect(order.headers()['x-request-id']).toBe(requestId);
    const { orderNumber } = (await order.json()) as { orderNumber: string };

    // The request log, found by the request id a support e-mail would quote.
    await page.goto('/partner/requests');
    await expect(page.getByRole('heading', { level: 1, name: 'Request log' })).toBeVisible();
    await page.getByLabel('Request id').fill(requestId);
    await page.getByRole('button', { name: 'Search' }).click();
    const row = page.getByTestId('request-row');
    // Entries are written in batches, about a second after the call.
    await expect(async () => {
      await page.getByRole('button', { name: 'Refresh' }).click();
      await expect(row).toHaveCount(1, { timeout: 1000 });
    }).toPass({ timeout: 15_000 });
    await expect(row).toContainText('POST');
    await expect(row).toContainText('/api/public/v1/orders');
    await expect(row).toContainText('201');
    await checkLayout(page, `request log ${viewport.name}`);
    await screenshot(page, 'partner-request-found');

    // The events browser: the order.completed event, its payload and deliveries.
    await page.goto('/partner/events');
    await expect(page.getByRole('heading', { level: 1, name: 'Events' })).toBeVisible();
    await page.getByLabel('Type').selectOption('order.completed');
    await page.getByRole('button', { name: 'Show', exact: true }).click();
    const event = page.getByTestId('event-row');
    await expect(event).toHaveCount(1);
    await event.getByRole('button').click();
    const detail = page.getByTestId('event-detail');
    await expect(detail).toContainText(orderNumber);
    await expect(detail).toContainText('No webhook endpoint was subscribed to this event.');
    await checkLayout(page, `events ${viewport.name}`);
    await screenshot(page, 'partner-event-detail');

    // The overview shows the Partner API order; the personal orders page does not (C7).
    await page.goto('/partner');
    await expect(page.getByTestId('partner-order-count')).toHaveText('1');
    await expect(page.getByTestId('partner-order')).toContainText(orderNumber);
    await checkLayout(page, `overview ${viewport.name}`);
    await page.goto('/orders');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByText(orderNumber)).toHaveCount(0);
  });
}
