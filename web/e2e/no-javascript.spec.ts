import { expect, test } from '@playwright/test';

/**
 * Issue 30 T8: the storefront and a destination read without JavaScript (server-rendered from
 * the catalog), and the app takes over the same page without moving it.
 */
test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the storefront lists destinations and a destination shows its plans and prices', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const list = page.getByTestId('destination-list');
    await expect(list.getByRole('link').first()).toBeVisible();
    await list.getByRole('link', { name: /Türkiye/ }).click();
    await expect(page).toHaveURL(/\/destinations\/TR$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Türkiye' })).toBeVisible();
    await expect(page).toHaveTitle(/^eSIM for Türkiye from \$\d+\.\d\d$/);
    await expect(page.locator('.plan-price').first()).toHaveText(/^\$\d+\.\d\d$/);
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link').click();
    await page.getByRole('link', { name: 'All countries' }).click();
    await expect(page).toHaveURL(/\/\?filter=all$/);
    await expect(page.getByTestId('destination-list').getByRole('link').nth(20)).toBeAttached();
  });

  test('the Turkish page reads in Turkish and keeps the language in its links', async ({ page }) => {
    await page.goto('/destinations/DE?lang=tr');
    await expect(page.getByRole('heading', { level: 1, name: 'Almanya' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'tr');
    await expect(
      page.getByRole('navigation', { name: /./ }).first().getByRole('link').first(),
    ).toHaveAttribute('href', '/?lang=tr');
  });
});

test('the app takes over the server-rendered destination without moving it', async ({ page }) => {
  await page.goto('/destinations/TR');
  // The app's own checkout (radios) has replaced the server's list.
  await expect(page.getByRole('radio').first()).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Türkiye' })).toBeVisible();
  // Cumulative layout shift of the load, takeover included (0.1 is "good" for Core Web Vitals).
  const shift = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let total = 0;
        new PerformanceObserver((list) => {
          for (const e of list.getEntries() as Array<
            PerformanceEntry & { value: number; hadRecentInput: boolean }
          >)
            if (!e.hadRecentInput) total += e.value;
        }).observe({ type: 'layout-shift', buffered: true });
        setTimeout(() => resolve(total), 300);
      }),
  );
  expect(shift).toBeLessThan(0.1);
});
