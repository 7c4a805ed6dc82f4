import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import {
  ADMIN_TOKEN,
  atEachSize,
  baseURL,
  checkLayout,
  fundWallet,
  registerViaApi,
  screenshot,
} from './helpers';

/**
 * Issue 32 C5/C6: an operator gives a partner a price rule, the partner's order through the
 * Partner API is charged the partner price, and the billing page shows it and hands out the
 * statement, at 390×844 and 1280×800.
 */
test('a partner price applied to an order, seen on the overview and billing; statement CSV', async ({
  page,
}) => {
  await registerViaApi(page, 'billing');
  await fundWallet(page, 50);
  const generated = await page.request.post('/api/v1/user/api-key/generate', {
    headers: { origin: baseURL },
  });
  expect(generated.status()).toBe(200);
  const key = ((await generated.json()) as { key: string }).key;
  const partners = (await (await page.request.get('/api/v1/partners')).json()) as {
    partners: { id: string }[];
  };
  const partnerId = partners.partners[0]!.id;

  const rule = await page.request.put(`/api/admin/v1/accounts/${partnerId}/pricing`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    data: { rule: 'discount', percent: 10 },
  });
  expect(rule.status(), await rule.text()).toBe(200);

  const api = { 'x-api-key': key };
  const country = (await (
    await page.request.get('/api/public/v1/destinations/TR', { headers: api })
  ).json()) as {
    plans: { id: string; isTopUp: boolean; priceUsd: number; retailPriceUsd?: number }[];
  };
  const plan = country.plans.find((p) => !p.isTopUp)!;
  expect(plan.retailPriceUsd).toBeDefined();
  expect(plan.priceUsd).toBeLessThan(plan.retailPriceUsd!);
  const order = await page.request.post('/api/public/v1/orders', {
    headers: api,
    data: { planId: plan.id, quantity: 1 },
  });
  expect(order.status(), await order.text()).toBe(201);
  const placed = (await order.json()) as { id: string; amountUsd: number };
  expect(placed.amountUsd).toBe(plan.priceUsd);
  const price = `$${plan.priceUsd.toFixed(2)}`;

  await page.goto('/partner');
  await expect(page.getByTestId('partner-order').first()).toContainText(price);

  await page.goto('/partner/billing');
  await expect(page.getByRole('heading', { name: 'Billing', level: 1 })).toBeVisible();
  await expect(page.getByTestId('billing-orders')).toContainText(price);
  await expect(page.getByTestId('price-rule')).toContainText('10% off the retail price');

  const month = new Date().toISOString().slice(0, 7);
  const downloading = page.waitForEvent('download');
  await page.getByTestId(`statement-${month}-csv`).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`statement-${month}-live.csv`);
  const csv = await readFile(await download.path(), 'utf8');
  expect(csv).toContain(`,order,`);
  expect(csv).toContain(placed.id);
  expect(csv).toContain(`-${plan.priceUsd.toFixed(2)}`);

  await atEachSize(page, async (width) => {
    await page.goto('/partner/billing');
    await expect(page.getByTestId('statements')).toBeVisible();
    await expect(page.getByTestId('price-rule')).toBeVisible();
    await checkLayout(page, `partner billing at ${width}px`);
    await screenshot(page, 'partner-billing');
  });
});
