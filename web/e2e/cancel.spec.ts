import { expect, test } from '@playwright/test';
import {
  buyWithWallet,
  checkLayout,
  checkLayoutAndShoot,
  fundWallet,
  registerViaApi,
  screenshot,
  VIEWPORTS,
} from './helpers';

/**
 * Issue 31 L4: cancel an unused eSIM from its order page → the eSIM is cancelled, the order
 * refunded, the whole amount back in the wallet. At 390×844 and 1280×800: the confirmation
 * dialog and the page after it, no horizontal scroll, no serious or critical axe violation.
 */
test.use({ locale: 'en-US' });

for (const viewport of VIEWPORTS) {
  test(`cancel an unused eSIM → wallet refunded (${viewport.name})`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await page.goto('/');
    await registerViaApi(page, `cancel-${viewport.name}`);
    await fundWallet(page, 20);
    const orderId = await buyWithWallet(page, 'TR');

    await page.goto('/wallet');
    const balance = page.getByTestId('wallet-balance');
    await expect(balance).not.toHaveText('$20.00');
    const before = await balance.textContent();

    await page.goto(`/orders?order=${orderId}`);
    await expect(page.getByTestId('order-message')).toHaveText('All set! Install your eSIM below.');
    await expect(page.getByText('get the full amount back to your wallet')).toBeVisible();
    await page.getByRole('button', { name: 'Cancel and refund' }).click();

    const dialog = page.getByRole('dialog', { name: 'Cancel this order?' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText('stops working for good');
    await expect(dialog).toContainText('also if you paid by card or crypto');
    await checkLayout(page, `cancel dialog ${viewport.name}`);
    await screenshot(page, 'cancel-dialog', { fullPage: false });

    // "Keep the order" closes it and changes nothing.
    await dialog.getByRole('button', { name: 'Keep the order' }).click();
    await expect(dialog).toBeHidden();
    await page.getByRole('button', { name: 'Cancel and refund' }).click();
    await dialog.getByRole('button', { name: 'Yes, cancel and refund' }).click();

    await expect(page.getByRole('status')).toContainText(
      /Order cancelled: \$\d+\.\d\d was returned to your wallet/,
    );
    await expect(page.getByTestId('order-message')).toHaveText('This order was refunded to your wallet.');
    await expect(page.getByTestId('esim-card').first()).toContainText(/Cancelled/i);
    await checkLayoutAndShoot(page, `order cancelled ${viewport.name}`, 'order-cancelled');

    await page.goto('/wallet');
    await expect(balance).toHaveText('$20.00');
    expect(before).not.toBe('$20.00');
    // The newest wallet row (a table row on a desktop, a card on a phone) is the refund.
    await expect(
      page
        .locator('[data-testid="transaction-row"], [data-testid="transaction-row-card"]')
        .filter({ visible: true })
        .first(),
    ).toContainText('Refund');

    // Refunded: no button any more.
    await page.goto(`/orders?order=${orderId}`);
    await expect(page.getByTestId('order-message')).toHaveText('This order was refunded to your wallet.');
    await expect(page.getByRole('button', { name: 'Cancel and refund' })).toHaveCount(0);
  });
}
