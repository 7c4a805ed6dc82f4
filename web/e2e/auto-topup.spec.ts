import { expect, test } from '@playwright/test';
import { atEachSize, buyWithWallet, checkLayout, fundWallet, registerViaApi } from './helpers';

/**
 * Issue 31 L5: the auto top-up switch on the eSIM page: choose the top-up plan, the threshold and
 * the monthly maximum, save, and find them again after a reload; fine at 390 and 1280 px.
 */
test.use({ locale: 'en-US' });

test('the eSIM page turns auto top-up on with a plan, a threshold and a monthly maximum', async ({
  page,
}) => {
  await registerViaApi(page, 'autotopup');
  await fundWallet(page, 20);
  await buyWithWallet(page, 'TR');
  const res = await page.request.get('/api/v1/user/esims?channel=web');
  const { iccid } = ((await res.json()) as { esims: Array<{ iccid: string }> }).esims[0]!;

  await page.goto(`/esims/${iccid}`);
  const section = page.getByRole('region', { name: 'Auto top-up' });
  await expect(section).toBeVisible();
  const toggle = section.getByRole('switch', { name: 'Top up automatically' });
  await expect(toggle).not.toBeChecked();
  const plan = section.getByLabel('Top-up plan');
  await expect(plan.locator('option')).not.toHaveCount(0);
  await expect(plan.locator('option').first()).toHaveText(/ for /);
  await toggle.check();
  await section.getByLabel('When this much is used').selectOption('90');
  await section.getByLabel('At most per month').selectOption('3');
  await section.getByRole('button', { name: 'Save' }).click();
  await expect(section.getByRole('status')).toHaveText('Auto top-up saved.');

  const saved = await page.request.get(`/api/v1/user/esims/${iccid}`);
  expect(((await saved.json()) as { esim: { autoTopUp: object } }).esim.autoTopUp).toMatchObject({
    enabled: true,
    planId: expect.stringMatching(/topup/i),
    whenPercentUsed: 90,
    maxPerMonth: 3,
  });

  await page.reload();
  await expect(section.getByRole('switch', { name: 'Top up automatically' })).toBeChecked();
  await expect(section.getByLabel('When this much is used')).toHaveValue('90');
  await atEachSize(page, async (width) => {
    await section.scrollIntoViewIfNeeded();
    await checkLayout(page, `eSIM page with auto top-up at ${width}`);
  });
});
