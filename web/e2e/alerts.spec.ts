import { randomBytes } from 'node:crypto';
import { expect, test, type APIRequestContext } from '@playwright/test';
import {
  ADMIN_TOKEN,
  adminGet,
  baseURL,
  buyWithWallet,
  checkLayoutAndShoot,
  fundWallet,
  registerViaApi,
  VIEWPORTS,
} from './helpers';

/**
 * Issue 31's done-when journey: an eSIM's usage passes 80 % (the sandbox provider reports it, as
 * eSIM Access's DATA_USAGE would) → the traveller's alert is in the push outbox (with the eSIM's
 * ICCID and page) and in the mail outbox → the mail's link opens that eSIM's page → "Top up" buys
 * a top-up from the wallet. Run at 390×844 and 1280×800.
 */
test.use({ locale: 'en-US' });

interface RecordedPush {
  title: string;
  body: string;
  data: Record<string, string>;
}
interface Mail {
  subject: string;
  text: string;
}

async function adminPost(request: APIRequestContext, path: string, data: unknown): Promise<void> {
  const res = await request.post(`/api/admin/v1${path}`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    data,
  });
  expect(res.status(), await res.text()).toBe(200);
}

for (const viewport of VIEWPORTS) {
  test(`usage passes 80 % → push and mail alert → top-up from its link (${viewport.name})`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    const { email } = await registerViaApi(page, `alert-${viewport.name}`);
    await fundWallet(page, 30);
    await buyWithWallet(page, 'TR');
    const me = (await (await page.request.get('/api/v1/auth/me')).json()) as { user: { id: string } };
    // A phone of this account, registered as the app does at launch.
    const device = await page.request.post('/api/v1/user/push-devices', {
      headers: { origin: baseURL },
      data: { platform: 'ANDROID', pushToken: `e2e-${randomBytes(12).toString('hex')}`, appVersion: '1.0.0' },
    });
    expect(device.status(), await device.text()).toBeLessThan(300);
    const { esims } = (await (await page.request.get('/api/v1/user/esims')).json()) as {
      esims: Array<{ iccid: string; totalVolume: number }>;
    };
    const { iccid, totalVolume } = esims[0]!;

    await adminPost(page.request, '/sandbox/esim-provider/usage', {
      iccid,
      usedMb: Math.ceil(totalVolume * 0.85),
    });

    // The push: once, to the device, naming the eSIM and opening its page.
    await expect
      .poll(
        async () =>
          (await adminGet<{ pushes: RecordedPush[] }>(page.request, `/push?accountId=${me.user.id}`)).pushes,
        { timeout: 30_000 },
      )
      .toEqual([
        expect.objectContaining({
          title: '80 % of your eSIM data used',
          data: expect.objectContaining({ iccid, url: `/esims/${iccid}` }),
        }),
      ]);

    // The mail, with the link to the same page.
    const mail = async () =>
      (
        await adminGet<{ messages: Mail[] }>(page.request, `/mail?to=${encodeURIComponent(email)}`)
      ).messages.find((m) => m.subject.includes('80 %'));
    await expect.poll(mail, { timeout: 30_000 }).toBeTruthy();
    const link = (await mail())!.text.match(/https?:\/\/\S+\/esims\/\w+/)?.[0];
    expect(link).toContain(`/esims/${iccid}`);

    // The link opens the eSIM's page, its usage past 80 %; top up from there.
    await page.goto(new URL(link!).pathname);
    await expect(page.getByText(iccid).first()).toBeVisible();
    await checkLayoutAndShoot(page, `eSIM page from the alert ${viewport.name}`, 'alert-esim');
    await page.getByRole('link', { name: 'Top up', exact: true }).first().click();
    await expect(page).toHaveURL(new RegExp(`/destinations/TR\\?iccid=${iccid}`));
    await page.getByRole('button', { name: 'Pay from wallet' }).click();
    await expect(page).toHaveURL(/\/orders\?order=/);
    await expect(page.locator('.order-head .badge')).toHaveText('Completed');
    await expect(page.getByRole('heading', { name: 'Topped-up eSIM' })).toBeVisible();
  });
}
