import { expect, test, type Page } from '@playwright/test';
import {
  ADMIN_TOKEN,
  adminGet,
  baseURL,
  expectAccessible,
  expectNoHorizontalScroll,
  registerViaApi,
  screenshot,
  uniqueEmail,
  VIEWPORTS,
} from './helpers';
import { COMPANY } from './env';

/**
 * Issue 30 T3: the legal pages from the footer of every page, the logged-out contact form, the
 * terms and refund policy beside the pay button, and a guest's thread behind a mailed link. Each
 * at 390×844 and 1280×800: no horizontal scroll, no serious or critical axe violation, screenshots.
 */
test.use({ locale: 'en-US' });

const LEGAL: [link: string, path: string, heading: string][] = [
  ['Terms of service', '/terms', 'Terms of service'],
  ['Privacy policy', '/privacy', 'Privacy policy'],
  ['Refund policy', '/refund-policy', 'Refund policy'],
  ['Contact', '/contact', 'Contact us'],
];

async function settle(page: Page, label: string, name: string): Promise<void> {
  await page.evaluate(() => document.fonts.ready);
  await page.waitForLoadState('networkidle');
  await expectNoHorizontalScroll(page, label);
  await expectAccessible(page, label);
  await screenshot(page, name);
}

test('the footer of the storefront opens each legal page, with the company filled in', async ({ page }) => {
  test.setTimeout(180_000);
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    for (const [link, path, heading] of LEGAL) {
      await page.goto('/');
      const footer = page.getByRole('contentinfo');
      await expect(footer.getByTestId('footer-company')).toHaveText(
        `© ${new Date().getFullYear()} ${COMPANY.name}`,
      );
      await footer
        .getByRole('navigation', { name: 'Legal and contact' })
        .getByRole('link', { name: link })
        .click();
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await expect(page).toHaveTitle(`${heading} · Roam eSIM`);
      await expect(page.locator('.legal-text')).toContainText(COMPANY.name);
      await expect(
        page.locator('.legal-text').getByRole('link', { name: COMPANY.supportEmail }).first(),
      ).toHaveAttribute('href', `mailto:${COMPANY.supportEmail}`);
      await settle(page, `${path} at ${viewport.width}px`, `legal${path.replace('/', '-')}`);
    }
  }
  // A link inside a text moves within the app, and the Turkish text follows the language.
  await page.goto('/terms');
  await page.locator('.legal-text').getByRole('link', { name: 'Refund policy' }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Refund policy' })).toBeVisible();
  await page.getByLabel('Language').first().selectOption('tr');
  await expect(page.getByRole('heading', { level: 1, name: 'İade politikası' })).toBeVisible();
  await expect(page.locator('.legal-text')).toContainText(COMPANY.address);
});

test('the contact form works logged out', async ({ page }) => {
  test.setTimeout(120_000);
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await page.goto('/contact');
    await expect(page.getByRole('heading', { name: 'Send us a message' })).toBeVisible();
    // No session: this browser context never registered or logged in.
    expect(await page.context().cookies()).toEqual([]);
    await settle(page, `contact at ${viewport.width}px`, 'contact-form');

    const email = uniqueEmail('contact');
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Your name').fill('Zeynep Demir');
    await page.getByLabel('Subject', { exact: true }).fill('Which plan for a week in Italy?');
    await page
      .getByLabel('Message', { exact: true })
      .fill('Hello! I travel to Rome and Milan for 8 days. Which plan do you suggest?');
    await page.getByRole('button', { name: 'Send message' }).click();
    await expect(page.getByRole('status')).toContainText(`we will answer by e-mail at ${email}`);
    await settle(page, `contact sent at ${viewport.width}px`, 'contact-sent');

    const { tickets } = await adminGet<{
      tickets: { email: string; accountId: string | null; subject: string }[];
    }>(page.request, '/tickets?status=OPEN');
    expect(tickets.find((ticket) => ticket.email === email)).toMatchObject({
      accountId: null,
      subject: 'Which plan for a week in Italy?',
    });
  }
});

test('checkout shows the terms and the refund policy beside the pay button', async ({ page, context }) => {
  test.setTimeout(120_000);
  await registerViaApi(page, 'checkout-legal');
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await page.goto('/destinations/TR');
    const pay = page.getByRole('button', { name: 'Pay from wallet' });
    await expect(pay).toBeVisible();
    const legal = page.getByTestId('checkout-legal');
    await expect(legal).toHaveText(
      'By paying you agree to our Terms of service (opens in a new tab) and Refund policy (opens in a new tab).',
    );
    await expect(legal.getByRole('link', { name: /Terms of service/ })).toHaveAttribute('href', '/terms');
    await expect(legal.getByRole('link', { name: /Refund policy/ })).toHaveAttribute(
      'href',
      '/refund-policy',
    );
    // Right under the button, in the same column.
    const button = (await pay.boundingBox())!;
    const text = (await legal.boundingBox())!;
    expect(text.y - (button.y + button.height)).toBeGreaterThanOrEqual(0);
    expect(text.y - (button.y + button.height)).toBeLessThan(40);
    expect(Math.abs(text.x - button.x)).toBeLessThan(2);
    await settle(page, `checkout at ${viewport.width}px`, 'checkout-legal');
  }
  // A new tab, so that the chosen plan stays.
  const [terms] = await Promise.all([
    context.waitForEvent('page'),
    page
      .getByTestId('checkout-legal')
      .getByRole('link', { name: /Terms of service/ })
      .click(),
  ]);
  await expect(terms.getByRole('heading', { level: 1, name: 'Terms of service' })).toBeVisible();
  await terms.close();
  await expect(page).toHaveURL(/\/destinations\/TR$/);
});

test('a guest reads the reply behind the mailed link and answers', async ({ page }) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('guest');
  const created = await page.request.post('/api/v1/support/contact', {
    headers: { 'accept-language': 'en' },
    data: {
      email,
      name: 'Can Öztürk',
      subject: 'My order email did not arrive',
      message: 'I paid for a Greece plan an hour ago but received nothing. Could you check?',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { ticket } = (await created.json()) as { ticket: { id: string } };
  const replied = await page.request.post(`/api/admin/v1/tickets/${ticket.id}/messages`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    data: {
      message: 'Hello Can, we found no order for this address. Which address did you use at checkout?',
    },
  });
  expect(replied.status(), await replied.text()).toBe(201);
  const { messages } = await adminGet<{ messages: { text: string }[] }>(
    page.request,
    `/mail?to=${encodeURIComponent(email)}`,
  );
  const link = new RegExp(`${baseURL}/support/guest/[A-Za-z0-9_-]+`).exec(messages[0]!.text)?.[0];
  expect(link, messages[0]!.text).toBeTruthy();

  for (const viewport of VIEWPORTS) {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await page.goto(new URL(link!).pathname);
    await expect(
      page.getByRole('heading', { level: 2, name: 'My order email did not arrive' }),
    ).toBeVisible();
    await expect(page.locator('.message')).toHaveCount(viewport.width === 390 ? 2 : 3);
    await expect(page.locator('.message.staff')).toContainText('we found no order for this address');
    await settle(page, `guest thread at ${viewport.width}px`, 'guest-thread');
    if (viewport.width === 390) {
      await page.getByLabel('Your reply').fill('I used my work address, can@work.example.');
      await page.getByRole('button', { name: 'Send reply' }).click();
      await expect(page.locator('.message')).toHaveCount(3);
      await expect(page.locator('.thread-head .badge')).toHaveText('Open');
    }
  }

  // A wrong or replaced link says so and leads to the contact form.
  await page.goto('/support/guest/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
  await expect(page.getByRole('alert')).toContainText('This link is not valid');
  await page.getByRole('link', { name: 'Write to us' }).click();
  await expect(page).toHaveURL(/\/contact$/);
});
