import { expect, test, type Browser, type Page } from '@playwright/test';
import { buyWithWallet, fundWallet, registerViaApi, screenshot, VIEWPORTS } from './helpers';

/**
 * Issue 30 T1/T2: an eSIM's own page and its hosted install page. Both codes with Copy buttons,
 * the install page logged out, the order of its parts by device, and a replaced link.
 */
test.use({ locale: 'en-US' });

const UA = {
  android:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
  iphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
};

interface Esim {
  iccid: string;
  smdpAddress: string;
  matchingId: string;
  installUrl: string;
}

async function buyOne(page: Page): Promise<Esim> {
  await registerViaApi(page, 'install');
  await fundWallet(page, 20);
  await buyWithWallet(page, 'TR');
  const res = await page.request.get('/api/v1/user/esims?channel=web');
  return ((await res.json()) as { esims: Esim[] }).esims[0]!;
}

/** A new browser context: no session cookie, the device's user agent and a phone's or a computer's screen. */
async function visitor(
  browser: Browser,
  userAgent?: string,
  viewport: { width: number; height: number } = VIEWPORTS[0],
) {
  const context = await browser.newContext({
    locale: 'en-US',
    viewport: { width: viewport.width, height: viewport.height },
    ...(userAgent ? { userAgent } : {}),
  });
  return { context, page: await context.newPage() };
}

const sectionOrder = (page: Page) =>
  page
    .locator('[data-install-section]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-install-section')));

test('the eSIM page: both codes with Copy, steps, usage and Top up, at 390 and 1280', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const esim = await buyOne(page);
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await page.goto('/esims');
    await page.getByRole('link', { name: 'Install steps and details' }).click();
    await expect(page).toHaveURL(new RegExp(`/esims/${esim.iccid}$`));
    await expect(page.getByTestId('smdp')).toHaveText(esim.smdpAddress);
    await expect(page.getByTestId('matching-id')).toHaveText(esim.matchingId);
    await expect(page.getByTestId('lpa')).toHaveText(`LPA:1$${esim.smdpAddress}$${esim.matchingId}`);
    await expect(page.getByRole('progressbar', { name: 'Data used' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Top up' })).toHaveAttribute('href', /\?iccid=/);
    await expect(
      page.getByText('On arrival, turn on data roaming for this line', { exact: false }),
    ).toBeVisible();
    await expect(page.getByTestId('install-url')).toHaveText(esim.installUrl);

    await page.getByRole('button', { name: 'Copy SM-DP+ address' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(esim.smdpAddress);
    await page.getByRole('button', { name: 'Copy activation code' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(esim.matchingId);
  }
  // The list shows the two codes too.
  await page.goto('/esims');
  const card = page.getByTestId('esim-card');
  await expect(card.getByTestId('smdp')).toHaveText(esim.smdpAddress);
  await expect(card.getByTestId('matching-id')).toHaveText(esim.matchingId);
  await expect(card.getByRole('button', { name: 'Copy activation code' })).toBeVisible();
});

test('the install page, logged out: first what suits the device; a replaced link is not found', async ({
  page,
  browser,
}) => {
  const esim = await buyOne(page);
  const path = new URL(esim.installUrl).pathname;

  for (const viewport of VIEWPORTS) {
    const { context, page: anonymous } = await visitor(browser, undefined, viewport);
    await anonymous.goto(path);
    await expect(anonymous.getByRole('heading', { level: 1, name: 'Install your eSIM' })).toBeVisible();
    await expect(anonymous.getByText('Türkiye · 1 GB · 7 days')).toBeVisible();
    await expect(anonymous.getByTestId('smdp')).toHaveText(esim.smdpAddress);
    await expect(anonymous.getByTestId('matching-id')).toHaveText(esim.matchingId);
    await expect(anonymous.getByRole('button', { name: 'Copy SM-DP+ address' })).toBeVisible();
    await expect(anonymous.getByRole('button', { name: 'Copy activation code' })).toBeVisible();
    await expect(anonymous.getByRole('progressbar', { name: 'Data used' })).toBeVisible();
    await expect(anonymous.getByRole('link', { name: 'Top up' })).toHaveAttribute(
      'href',
      `/destinations/TR?iccid=${esim.iccid}`,
    );
    // A computer: the QR code first, to scan with the phone; both step lists open.
    expect(await sectionOrder(anonymous)).toEqual(['qr', 'codes', 'oneTap', 'steps']);
    await expect(anonymous.getByRole('img', { name: /QR code/ })).toBeVisible();
    await expect(anonymous.locator('details[open]')).toHaveCount(2);
    await context.close();
  }

  const android = await visitor(browser, UA.android);
  await android.page.goto(path);
  await expect(android.page.getByTestId('matching-id')).toBeVisible();
  expect(await sectionOrder(android.page)).toEqual(['codes', 'steps', 'qr', 'oneTap']);
  await expect(android.page.locator('details[open] summary')).toHaveText(['On an Android phone']);
  await expect(android.page.getByText('tap Use a code instead', { exact: false })).toBeVisible();
  await screenshot(android.page, 'install-android');
  await android.context.close();

  const iphone = await visitor(browser, UA.iphone);
  await iphone.page.goto(path);
  await expect(iphone.page.getByTestId('matching-id')).toBeVisible();
  expect(await sectionOrder(iphone.page)).toEqual(['oneTap', 'codes', 'steps', 'qr']);
  await expect(iphone.page.getByRole('link', { name: 'Install on iPhone' })).toHaveAttribute(
    'href',
    /^https:\/\/esimsetup\.apple\.com\/esim_qrcode_provisioning\?carddata=LPA:1\$/,
  );
  await expect(iphone.page.locator('details[open] summary')).toHaveText(['On an iPhone']);
  await screenshot(iphone.page, 'install-iphone');
  await iphone.context.close();

  // The owner replaces the link: the old one is not found, the new one works.
  await page.goto(`/esims/${esim.iccid}`);
  await page.getByRole('button', { name: 'Replace link' }).click();
  await expect(page.getByRole('status')).toHaveText('New link ready. The old one no longer works.');
  const fresh = await page.getByTestId('install-url').textContent();
  expect(fresh).not.toBe(esim.installUrl);
  for (const viewport of VIEWPORTS) {
    const { context, page: anonymous } = await visitor(browser, undefined, viewport);
    await anonymous.goto(path);
    await expect(
      anonymous.getByRole('heading', { level: 1, name: 'This install link does not work' }),
    ).toBeVisible();
    await screenshot(anonymous, 'install-not-found');
    await anonymous.goto(new URL(fresh!).pathname);
    await expect(anonymous.getByTestId('matching-id')).toHaveText(esim.matchingId);
    await context.close();
  }
});
