import { expect, test, type Page } from '@playwright/test';
import { adminGet, atEachSize, baseURL, checkLayout, PASSWORD, registerViaApi, uniqueEmail } from './helpers';

/** Issue 32 C1/C4: test mode round trip, and a Developer invited to the team. */

const sameOrigin = { origin: baseURL };

async function accountId(page: Page): Promise<string> {
  const me = await page.request.get('/api/v1/auth/me');
  return ((await me.json()) as { user: { id: string } }).user.id;
}

test('test mode round trip: a test key shown once, the banner, and nothing of test in live', async ({
  page,
}) => {
  await registerViaApi(page, 'pc-mode');
  await page.goto('/partner/keys');
  await expect(page.getByRole('heading', { level: 1, name: 'API keys' })).toBeVisible();
  await expect(page.getByTestId('test-banner')).toHaveCount(0);

  await page.getByTestId('mode-test').click();
  await expect(page).toHaveURL(/\/partner\/keys\?mode=test$/);
  await expect(page.getByTestId('test-banner')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Test key' })).toBeVisible();
  await page.getByRole('button', { name: 'Generate key' }).click();
  const key = (await page.getByTestId('new-key').textContent())!;
  expect(key).toMatch(/^svc_test_sk_[0-9A-Za-z]{40}$/);
  await expect(page.getByTestId('key-prefix')).toHaveText(
    `svc_test_sk_${key.slice(12, 16)}…${key.slice(-4)}`,
  );
  await expect(page.getByTestId('quick-start')).toContainText(key);
  await atEachSize(page, (w) => checkLayout(page, `keys (test) ${w}`));

  await page.getByTestId('mode-live').click();
  await expect(page).toHaveURL(/\/partner\/keys$/);
  await expect(page.getByTestId('test-banner')).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Live key' })).toBeVisible();
  await expect(page.getByTestId('new-key')).toHaveCount(0);
  expect(await page.content()).not.toContain('svc_test_sk_');
  await atEachSize(page, (w) => checkLayout(page, `keys (live) ${w}`));

  // Back in test mode after a reload: the key is never shown again, only its prefix.
  await page.goto('/partner/keys?mode=test');
  await expect(page.getByTestId('key-prefix')).toBeVisible();
  expect(await page.content()).not.toContain(key);
});

test('the owner invites a Developer who rotates the key but cannot top up', async ({ page, browser }) => {
  await registerViaApi(page, 'pc-owner');
  const partnerId = await accountId(page);
  const made = await page.request.post('/api/v1/user/api-key/generate', { headers: sameOrigin, data: {} });
  expect(made.status()).toBe(200);
  const { key: firstKey } = (await made.json()) as { key: string };

  const devEmail = uniqueEmail('pc-dev');
  await page.goto('/partner/team');
  await page.getByLabel('E-mail').fill(devEmail);
  await page.getByRole('radio', { name: /^Developer/ }).check();
  await page.getByRole('button', { name: 'Send invitation' }).click();
  const link = (await page.getByTestId('invitation-link').textContent())!;
  expect(link).toMatch(/\/partner-invitations\/[A-Za-z0-9_-]+$/);
  await expect(page.getByTestId('invitation-row').first()).toContainText(devEmail);
  await atEachSize(page, (w) => checkLayout(page, `team ${w}`));

  // The same link went out by mail (the outbox, read through the admin API).
  const mail = await adminGet<{ messages: Array<{ text: string }> }>(
    page.request,
    `/mail?to=${encodeURIComponent(devEmail)}`,
  );
  expect(mail.messages[0]!.text).toContain(link);

  await page.goto('/partner/audit');
  await expect(page.getByTestId('audit-row').first()).toContainText('partner.invitation.create');
  await atEachSize(page, (w) => checkLayout(page, `audit ${w}`));

  // Signed in as someone else (the owner), the page says whom the invitation is for.
  await page.goto(new URL(link).pathname);
  await expect(page.getByTestId('invitation-problem')).toContainText(
    `This invitation was sent to ${devEmail}`,
  );
  await expect(page.getByRole('button', { name: 'Accept invitation' })).toHaveCount(0);

  // The developer, in another browser: preview, register, come back, accept.
  const devContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const dev = await devContext.newPage();
  await dev.goto(new URL(link).pathname);
  await expect(dev.getByTestId('invitation')).toContainText('Developer');
  await expect(dev.getByTestId('invitation')).toContainText(devEmail);
  await atEachSize(dev, (w) => checkLayout(dev, `invitation ${w}`));
  await dev.getByRole('link', { name: 'Create an account' }).click();
  await expect(dev).toHaveURL(/\/register\?next=%2Fpartner-invitations%2F/);
  await dev.getByLabel('First name').fill('Dev');
  await dev.getByLabel('Last name').fill('Eloper');
  await dev.getByLabel('Email').fill(devEmail);
  await dev.getByLabel('Password').fill(PASSWORD);
  await dev.getByRole('button', { name: 'Create account' }).click();
  await expect(dev).toHaveURL(/\/partner-invitations\//);
  await dev.getByRole('button', { name: 'Accept invitation' }).click();
  await expect(dev).toHaveURL(new RegExp(`/partner\\?partner=${partnerId}`));

  // The developer rotates the partner's live key.
  await dev.goto(`/partner/keys?partner=${partnerId}`);
  await expect(dev.getByText('Your role: Developer')).toBeVisible();
  await dev.getByRole('button', { name: 'Rotate key' }).click();
  await dev.getByRole('button', { name: 'Yes, rotate now' }).click();
  const rotated = (await dev.getByTestId('new-key').textContent())!;
  expect(rotated).toMatch(/^svc_live_sk_/);
  expect(rotated).not.toBe(firstKey);
  expect(
    (await dev.request.get('/api/public/v1/wallet', { headers: { 'x-api-key': rotated } })).status(),
  ).toBe(200);

  // No top-up for a Developer: no control in the console, and the API refuses.
  await dev.goto(`/partner?partner=${partnerId}`);
  await expect(dev.getByTestId('partner-topup')).toHaveCount(0);
  const topUp = await dev.request.post(`/api/v1/partners/${partnerId}/wallet/top-ups`, {
    headers: sameOrigin,
    data: { method: 'card', amount: 1000 },
  });
  expect(topUp.status()).toBe(403);
  expect(((await topUp.json()) as { code: string }).code).toBe('ROLE_FORBIDDEN');

  // The owner's audit log names who did it.
  await page.goto('/partner/audit');
  await expect(page.getByTestId('audit-row').first()).toContainText('partner.key.rotate');
  await expect(page.getByTestId('audit-row').first()).toContainText(devEmail);
  await devContext.close();
});
