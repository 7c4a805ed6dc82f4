import { expect, test, type Page } from '@playwright/test';
import { checkLayoutAndShoot, baseURL, confirmPhone, fundWallet, registerViaApi, VIEWPORTS } from './helpers';
import { COMPANY } from './env';

/**
 * Issue 30 T4 and T9: a visitor who sees euros is told the US$ amount charged and the rate's date
 * beside the pay button; every order and top-up has a receipt page with a PDF. At 390×844 and
 * 1280×800: no horizontal scroll, no serious or critical axe violation, screenshots.
 */
test.use({ locale: 'en-US' });

/** The PDF behind the page's "Download PDF" link, fetched with the page's session. */
async function expectPdf(page: Page): Promise<void> {
  const href = await page.getByRole('link', { name: 'Download PDF' }).getAttribute('href');
  expect(href).toMatch(/\/receipt\.pdf\?/);
  const res = await page.request.get(new URL(href!, baseURL).toString());
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toBe('application/pdf');
  expect((await res.body()).subarray(0, 5).toString()).toBe('%PDF-');
}

for (const viewport of VIEWPORTS) {
  test(`EUR checkout says "You pay US$…"; order and top-up receipts (${viewport.name})`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await page.goto('/');
    await registerViaApi(page, `receipt-${viewport.name}`);
    await page.request.patch('/api/v1/user/profile', {
      headers: { origin: baseURL },
      data: { preferredCurrency: 'EUR' },
    });
    await fundWallet(page, 20);

    await page.goto('/destinations/TR');
    const note = page.getByTestId('charge-note');
    await expect(note).toContainText(/You pay US\$\d+\.\d\d/);
    await expect(note).toContainText(/US\$1\.00 = €[\d.]+, rate of [A-Z][a-z]{2} \d{1,2}, \d{4}/);
    await expect(page.getByTestId('checkout-total')).toContainText('€');
    await checkLayoutAndShoot(page, `checkout EUR ${viewport.name}`, 'checkout-eur');

    const charged = (await note.locator('.you-pay').textContent())!.replace('You pay ', '');
    await confirmPhone(page);
    await page.getByRole('button', { name: 'Pay from wallet' }).click();
    await page.waitForURL(/\/orders\?order=/);
    await page.getByRole('link', { name: 'Receipt' }).click();
    await page.waitForURL(/\/orders\/ord_[^/]+\/receipt$/);

    const receipt = page.getByTestId('receipt');
    await expect(page.getByRole('heading', { level: 1, name: 'Receipt' })).toBeVisible();
    await expect(receipt).toContainText(COMPANY.name);
    await expect(receipt).toContainText(COMPANY.address);
    await expect(receipt).toContainText('Wallet balance');
    await expect(receipt).toContainText('Türkiye');
    await expect(page.getByTestId('receipt-total')).toHaveText(charged);
    await expect(page.getByTestId('receipt-display-total')).toContainText(/In your currency: €[\d.]+/);
    await expect(page.getByTestId('receipt-display-total')).toContainText(/rate of /);
    await expect(page).toHaveTitle(/^Receipt R-SVC-/);
    await expectPdf(page);
    await checkLayoutAndShoot(page, `order receipt ${viewport.name}`, 'receipt-order');

    // The top-up that funded the wallet: the wallet's row links its receipt.
    await page.goto('/wallet');
    await page
      .locator('[data-testid="transaction-row"], [data-testid="transaction-row-card"]')
      .filter({ hasText: 'Card top-up' })
      .filter({ visible: true })
      .getByRole('link', { name: 'Receipt' })
      .click();
    await page.waitForURL(/\/wallet\/receipts\/wtx_/);
    await expect(page.getByTestId('receipt')).toContainText('Wallet top-up');
    await expect(page.getByTestId('receipt')).toContainText('Card');
    await expect(page.getByTestId('receipt-total')).toHaveText('US$20.00');
    await expectPdf(page);
    await checkLayoutAndShoot(page, `top-up receipt ${viewport.name}`, 'receipt-topup');
  });
}
