import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { atEachSize, baseURL, checkLayout, fundWallet, registerViaApi } from './helpers';

/**
 * Issue 32 C4/C6: a Finance member of a partner's team downloads the month's statement and never
 * sees a key: not on any page of the console, not from the API.
 */
const sameOrigin = { origin: baseURL };

test('a Finance member downloads a statement but never sees a key', async ({ page, browser }) => {
  // The partner: a key (the integration) and money moved this month.
  await registerViaApi(page, 'pc-fin-owner');
  await fundWallet(page, 25);
  const made = await page.request.post('/api/v1/user/api-key/generate', { headers: sameOrigin, data: {} });
  expect(made.status()).toBe(200);
  const { key, apiKeyPrefix } = (await made.json()) as { key: string; apiKeyPrefix: string };
  const partnerId = (
    (await (await page.request.get('/api/v1/partners')).json()) as {
      partners: { id: string }[];
    }
  ).partners[0]!.id;

  // The accountant has an account of their own; the owner invites that address as Finance.
  const financeContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const finance = await financeContext.newPage();
  const { email } = await registerViaApi(finance, 'pc-fin');
  const invited = await page.request.post(`/api/v1/partners/${partnerId}/invitations`, {
    headers: sameOrigin,
    data: { email, role: 'finance' },
  });
  expect(invited.status(), await invited.text()).toBe(201);
  const { path } = (await invited.json()) as { path: string };
  await finance.goto(path);
  await finance.getByRole('button', { name: 'Accept invitation' }).click();
  await expect(finance).toHaveURL(new RegExp(`/partner\\?partner=${partnerId}`));

  // The statement of this month, as CSV, from the billing page.
  await finance.goto(`/partner/billing?partner=${partnerId}`);
  await expect(finance.getByText('Your role: Finance')).toBeVisible();
  const month = new Date().toISOString().slice(0, 7);
  const downloading = finance.waitForEvent('download');
  await finance.getByTestId(`statement-${month}-csv`).click();
  const csv = await readFile(await (await downloading).path(), 'utf8');
  expect(csv).toContain('25.00');

  // No key anywhere: no Keys tab, the Keys page refuses, the API refuses, no page shows a prefix.
  await expect(finance.getByRole('link', { name: 'API keys' })).toHaveCount(0);
  const secretFree = async () => {
    const html = await finance.content();
    expect(html).not.toContain(key);
    expect(html).not.toContain(apiKeyPrefix);
    expect(html).not.toContain('svc_live_sk_');
  };
  for (const section of ['/partner', '/partner/billing', '/partner/team', '/partner/keys']) {
    await finance.goto(`${section}?partner=${partnerId}`);
    await expect(finance.getByRole('heading', { level: 1 })).toBeVisible();
    await secretFree();
  }
  await expect(finance.getByTestId('role-forbidden')).toBeVisible();
  await expect(finance.getByTestId('key-prefix')).toHaveCount(0);
  const keys = await finance.request.get(`/api/v1/partners/${partnerId}/keys`);
  expect(keys.status()).toBe(403);
  expect(((await keys.json()) as { code: string }).code).toBe('ROLE_FORBIDDEN');

  await finance.goto(`/partner/billing?partner=${partnerId}`);
  await atEachSize(finance, (w) => checkLayout(finance, `billing as finance ${w}`));
  await financeContext.close();
});
