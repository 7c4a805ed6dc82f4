import { expect, test } from '@playwright/test';
import { atEachSize, buyWithWallet, checkLayout, fundWallet, registerViaApi } from './helpers';

/**
 * Issue 31 L1: "Notify me when data runs low" on the eSIM page. Chromium here reaches no push
 * service, so the subscription itself may fail: what is checked is the control, its layout, and
 * that the service worker the build emits is served and registers under the page's CSP.
 */
test.use({ locale: 'en-US' });

test('the eSIM page offers notifications and registers the service worker', async ({ page, context }) => {
  await registerViaApi(page, 'push');
  await fundWallet(page, 20);
  await buyWithWallet(page, 'TR');
  const res = await page.request.get('/api/v1/user/esims?channel=web');
  const { iccid } = ((await res.json()) as { esims: Array<{ iccid: string }> }).esims[0]!;
  await page.goto(`/esims/${iccid}`);
  const optIn = page.getByRole('button', { name: 'Notify me when data runs low' });
  await atEachSize(page, async (width) => {
    await expect(page.getByRole('heading', { name: 'Notifications' })).toBeVisible();
    await expect(optIn).toBeVisible();
    await checkLayout(page, `esim page with notifications at ${width}`);
  });

  await context.grantPermissions(['notifications']);
  await optIn.click();
  await expect
    .poll(() =>
      page.evaluate(async () =>
        (await navigator.serviceWorker.getRegistrations()).map(
          (r) => (r.active ?? r.waiting ?? r.installing)?.scriptURL ?? '',
        ),
      ),
    )
    .toEqual([expect.stringMatching(/\/assets\/sw-[\w-]+\.js$/)]);
  // Either the push service answered (the browser is now a WEB device of the account) or the
  // failure is shown beside the control; never both, never silence.
  const on = page.getByText('Notifications are on in this browser.');
  const failed = page.getByRole('alert');
  await expect(on.or(failed)).toBeVisible();
  const devices = (await (await page.request.get('/api/v1/user/push-devices')).json()) as {
    devices: Array<{ platform: string }>;
  };
  expect(devices.devices.map((d) => d.platform)).toEqual((await on.isVisible()) ? ['WEB'] : []);
});
