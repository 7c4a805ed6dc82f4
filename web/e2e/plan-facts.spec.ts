import { expect, test, type Page } from '@playwright/test';
import { atEachSize, checkLayout, buyWithWallet, fundWallet, registerViaApi, screenshot } from './helpers';

/**
 * Issue 30 T5: each plan shows data, validity, when the days start, whether it takes top-ups and,
 * for regional and global plans, a searchable list of its countries; orders and eSIMs name plans
 * as people do. At 390×844 and 1280×800.
 */
test.use({ locale: 'en-US' });

/** The text of the fact under `term` in the plan's facts. */
const fact = (page: Page, term: string) =>
  page
    .getByTestId('plan-facts')
    .locator('div', { has: page.getByRole('term').filter({ hasText: new RegExp(`^${term}$`) }) })
    .getByRole('definition');

test('a country plan: data, validity, first connection, top-ups; they follow the chosen plan', async ({
  page,
}) => {
  await atEachSize(page, async (width) => {
    await page.goto('/destinations/TR');
    const facts = page.getByTestId('plan-facts');
    await expect(facts.getByRole('heading', { name: 'About Türkiye · 1 GB · 7 days' })).toBeVisible();
    await expect(fact(page, 'Data')).toHaveText('1 GB');
    await expect(fact(page, 'Validity')).toHaveText('7 days');
    await expect(fact(page, 'Validity starts')).toContainText('When it first connects to a network');
    await expect(fact(page, 'Top-ups')).toHaveText('Can be topped up with more data later');
    await expect(fact(page, 'Works in')).toHaveText('Türkiye');
    await expect(facts.getByRole('button', { name: /countries/ })).toHaveCount(0);

    await page.getByRole('radio', { name: /^3 GB/ }).check();
    await expect(fact(page, 'Data')).toHaveText('3 GB');
    await expect(fact(page, 'Validity')).toHaveText('15 days');
    await checkLayout(page, `plan facts TR at ${width}px`);
    await screenshot(page, `plan-facts-country-${width}`);
  });
});

test('a global plan: from installation, no top-ups, its countries behind a searchable disclosure', async ({
  page,
}) => {
  await atEachSize(page, async (width) => {
    await page.goto('/destinations/GLOBAL');
    await expect(fact(page, 'Validity starts')).toContainText('When you install the eSIM');
    await expect(fact(page, 'Top-ups')).toHaveText('Cannot be topped up: buy a new plan for more data');
    await expect(fact(page, 'Works in')).toHaveText(/^\d{3} countries$/);

    const toggle = page.getByRole('button', { name: /^Show all \d+ countries$/ });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await toggle.click();
    await expect(page.getByRole('button', { name: 'Hide the countries' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    const list = page.getByRole('list', { name: 'Covered countries' });
    await expect(list.getByRole('listitem').nth(100)).toBeAttached();

    const search = page.getByRole('searchbox', { name: 'Search the covered countries' });
    await search.fill('japan');
    await expect(list.getByRole('listitem')).toHaveText(['Japan']);
    await expect(page.getByTestId('plan-facts').getByRole('status')).toHaveText(/^1 of \d+ countries$/);
    // Enter searches; it never submits the checkout around it.
    await search.press('Enter');
    await expect(page).toHaveURL(/\/destinations\/GLOBAL$/);
    await search.fill('cote');
    await expect(list.getByRole('listitem')).toHaveText([/Côte d’Ivoire|Côte d'Ivoire/]);
    await checkLayout(page, `plan facts GLOBAL at ${width}px`);
    await screenshot(page, `plan-facts-global-${width}`);
  });
});

test('orders and eSIMs name the plan as people do, never by id', async ({ page }) => {
  test.setTimeout(120_000);
  await registerViaApi(page, 'plan-names');
  await fundWallet(page, 20);
  await buyWithWallet(page, 'TR');
  await atEachSize(page, async () => {
    await page.goto('/orders');
    // The table on a wide screen, the cards on a phone: whichever is shown names the plan.
    await expect(page.getByText('Türkiye · 1 GB · 7 days').filter({ visible: true }).first()).toBeVisible();
    await page.goto('/esims');
    await expect(page.getByRole('heading', { name: 'Türkiye · 1 GB · 7 days' })).toBeVisible();
    await expect(page.getByText(/TR · 1GB · 7D/)).toHaveCount(0);
  });
});
