import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { ADMIN_TOKEN, baseURL } from './env';

export { ADMIN_TOKEN, baseURL };
export const PASSWORD = 'correct-horse-42';
export const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;

/** A distinct address per test: registration is rate limited per address. */
export function uniqueEmail(tag: string): string {
  return `${tag}-${randomBytes(5).toString('hex')}@example.com`;
}

/** Cookie-authenticated writes must come from our origin (CSRF rule). */
const sameOrigin = { origin: baseURL };

/** Registers through the API in the page's browser context (the session cookie is shared). */
export async function registerViaApi(
  page: Page,
  tag: string,
  firstName = 'Deniz',
): Promise<{ email: string }> {
  const email = uniqueEmail(tag);
  const res = await page.request.post('/api/v1/auth/register', {
    headers: { ...sameOrigin, 'accept-language': 'en' },
    data: { firstName, lastName: 'Kaya', email, password: PASSWORD },
  });
  expect(res.status(), await res.text()).toBe(200);
  // Registration answers in Turkish for a new account; the tests read English.
  await page.request.patch('/api/v1/user/profile', {
    headers: sameOrigin,
    data: { locale: 'en', preferredCurrency: 'USD' },
  });
  return { email };
}

/** Credits the logged-in wallet through the sandbox card page, without the browser UI. */
export async function fundWallet(page: Page, usd: number): Promise<void> {
  const session = await page.request.post('/api/v1/payments/card/create-session', {
    headers: sameOrigin,
    data: {
      amount: usd * 100,
      currency: 'USD',
      successUrl: `${baseURL}/wallet`,
      cancelUrl: `${baseURL}/wallet`,
    },
  });
  expect(session.status(), await session.text()).toBe(200);
  const { url } = (await session.json()) as { url: string };
  const done = await page.request.post(`${new URL(url).pathname}/complete`, {
    form: { outcome: 'paid' },
    maxRedirects: 0,
  });
  expect(done.status()).toBe(303);
}

/** Buys the first base plan of `code` with the wallet through the API; returns the order id. */
export async function buyWithWallet(page: Page, code: string): Promise<string> {
  const plan = await firstPlan(page.request, code);
  const res = await page.request.post('/api/v1/checkout', {
    headers: sameOrigin,
    data: { planId: plan.id, quantity: 1, paymentMethod: 'wallet' },
  });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { orderId: string }).orderId;
}

/** Ticks the checkout's "My phone supports eSIM and is unlocked" (no new eSIM is sold without it). */
export async function confirmPhone(page: Page): Promise<void> {
  await page.getByRole('checkbox', { name: 'My phone supports eSIM and is unlocked' }).check();
}

/**
 * No element reaches past the right edge of the viewport (issue 30 T7), beyond what a horizontal
 * scroll check sees: elements clipped inside a scrolling box (a code sample) are that box's
 * business, and visually hidden ones (1 px, clipped) are skipped.
 */
export async function expectNothingWiderThanViewport(page: Page, label: string): Promise<void> {
  const offenders = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const clipped = (el: Element) => {
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        const overflow = getComputedStyle(p).overflowX;
        if (overflow !== 'visible') return true;
      }
      return false;
    };
    return [...document.body.querySelectorAll('*')]
      .filter((el) => {
        const rect = el.getBoundingClientRect();
        if (rect.width <= 1 || rect.height <= 1) return false;
        return rect.right > width + 1 && !clipped(el);
      })
      .slice(0, 10)
      .map(
        (el) =>
          `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} (${Math.round(el.getBoundingClientRect().right)}px)`,
      );
  });
  expect(offenders, `elements wider than the viewport on ${label}`).toEqual([]);
}

export async function firstPlan(request: APIRequestContext, code: string): Promise<{ id: string }> {
  const res = await request.get(`/api/v1/destinations/${code}?locale=en&currency=USD`);
  const { destination } = (await res.json()) as {
    destination: { plans: { id: string; isTopUp: boolean }[] };
  };
  return destination.plans.find((p) => !p.isTopUp)!;
}

export async function adminGet<T>(request: APIRequestContext, path: string): Promise<T> {
  const res = await request.get(`/api/admin/v1${path}`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as T;
}

export async function adminPatch(request: APIRequestContext, path: string, data: unknown): Promise<void> {
  const res = await request.patch(`/api/admin/v1${path}`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    data,
  });
  expect(res.status(), await res.text()).toBe(200);
}

/** Clicks Pay (or Cancel) on the sandbox hosted payment page the app redirected to. */
export async function settleSandboxPayment(page: Page, outcome: 'Pay' | 'Cancel'): Promise<void> {
  await page.waitForURL(/\/sandbox\/(card|crypto)\//);
  await page.getByRole('button', { name: outcome, exact: true }).click();
}

/** axe-core on the current page: no serious or critical violation. */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  const bad = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(bad, `axe violations on ${label}`).toEqual([]);
}

export async function expectNoHorizontalScroll(page: Page, label: string): Promise<void> {
  const [scrollWidth, clientWidth] = await page.evaluate(() => [
    document.documentElement.scrollWidth,
    document.documentElement.clientWidth,
  ]);
  expect(scrollWidth, `horizontal scroll on ${label}`).toBeLessThanOrEqual(clientWidth);
}

const screenshotDir = join(fileURLToPath(new URL('.', import.meta.url)), 'screenshots');
mkdirSync(screenshotDir, { recursive: true });

/** A full-page screenshot; `fullPage: false` for what is on screen (a modal dialog over the page). */
export async function screenshot(page: Page, name: string, { fullPage = true } = {}): Promise<void> {
  const width = page.viewportSize()?.width ?? 0;
  // From the top: scrolled, the sticky header would be drawn in the middle of a full-page shot.
  if (fullPage) await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(screenshotDir, `${name}-${width}.png`), fullPage });
}

/** Runs `run` once at each of VIEWPORTS (390×844, 1280×800), the page resized in between. */
export async function atEachSize(page: Page, run: (width: number) => Promise<void>): Promise<void> {
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await run(viewport.width);
  }
}

/** Once fonts are in: no horizontal scroll, nothing wider than the viewport, no serious axe finding. */
export async function checkLayout(page: Page, label: string): Promise<void> {
  await page.evaluate(() => document.fonts.ready);
  await expectNoHorizontalScroll(page, label);
  await expectNothingWiderThanViewport(page, label);
  await expectAccessible(page, label);
}

/** Once the network is idle: checkLayout, then a full-page screenshot `name`. */
export async function checkLayoutAndShoot(page: Page, label: string, name: string): Promise<void> {
  await page.waitForLoadState('networkidle');
  await checkLayout(page, label);
  await screenshot(page, name);
}
