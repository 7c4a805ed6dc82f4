import { expect, test, type Page } from '@playwright/test';
import { checkLayoutAndShoot, buyWithWallet, fundWallet, registerViaApi } from './helpers';

/**
 * Issue 30 T11: the switcher offers all five languages, and German (the longest words) and French
 * fit a 390 px phone: header, buttons and the install steps, logged out and logged in.
 */
test.use({ locale: 'en-US' });

const PHONE = { width: 390, height: 844 };

/** The language switcher sits in the phone menu: open it, pick, and the page follows. */
async function switchTo(page: Page, language: string, menuName: string) {
  await page.getByRole('button', { name: menuName }).click();
  await page.locator('#pref-lang').selectOption(language);
}

test('the switcher lists the five languages, each in itself', async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('#pref-lang option')).toHaveText([
    'English',
    'Türkçe',
    'Deutsch',
    'Français',
    'Español',
  ]);
  // What an hreflang alternate links to: ?lang= picks the language for the visit.
  await page.goto('/?lang=es');
  await expect(
    page.getByRole('heading', { level: 1, name: 'Conectado dondequiera que aterrice' }),
  ).toBeVisible();
  await expect(page.locator('#pref-lang')).toHaveValue('es');
});

test('German and French fit a phone: storefront, plan page, legal text, sign-up', async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize(PHONE);
  await page.goto('/');
  await switchTo(page, 'de', 'Menu');
  await expect(page.getByRole('heading', { level: 1, name: 'Online, wo immer Sie landen' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  // The menu stays open after the switch: its German links and buttons must fit too.
  await expect(page.getByRole('link', { name: 'Registrieren' })).toBeVisible();
  await checkLayoutAndShoot(page, 'storefront de menu at 390px', 'lang-de-menu');

  await page.goto('/destinations/TR');
  await expect(page.getByRole('heading', { level: 1, name: 'Türkei' })).toBeVisible();
  await expect(page.getByText('Datentarif wählen')).toBeVisible();
  await checkLayoutAndShoot(page, 'destination de at 390px', 'lang-de-destination');

  // The choice is remembered and the legal text follows it.
  await page.goto('/refund-policy');
  await expect(page.getByRole('heading', { level: 1, name: 'Erstattungsrichtlinie' })).toBeVisible();
  await checkLayoutAndShoot(page, 'refund policy de at 390px', 'lang-de-refund-policy');

  await page.goto('/register');
  await expect(page.getByRole('heading', { name: 'Konto erstellen' })).toBeVisible();
  await checkLayoutAndShoot(page, 'register de at 390px', 'lang-de-register');

  await switchTo(page, 'fr', 'Menü');
  await expect(page.getByRole('heading', { name: 'Créez votre compte' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  await page.goto('/destinations/TR');
  await expect(page.getByRole('heading', { level: 1, name: 'Turquie' })).toBeVisible();
  await checkLayoutAndShoot(page, 'destination fr at 390px', 'lang-fr-destination');
});

test('logged in in German: header, eSIM install steps and account fit a phone', async ({ page }) => {
  test.setTimeout(180_000);
  await registerViaApi(page, 'lang-de', 'Annemarie');
  await fundWallet(page, 25);
  await buyWithWallet(page, 'DE');
  await page.setViewportSize(PHONE);
  await page.goto('/esims');
  await switchTo(page, 'de', 'Menu');
  await expect(page.getByRole('heading', { level: 1, name: 'Meine eSIMs' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Abmelden' })).toBeVisible();
  await checkLayoutAndShoot(page, 'esims de menu at 390px', 'lang-de-esims-menu');
  // The account keeps the choice: the API now answers in German too.
  const me = await page.request.get('/api/v1/auth/me');
  expect(((await me.json()) as { user: { locale: string } }).user.locale).toBe('de');

  await page.getByRole('link', { name: 'Installationsschritte und Details' }).first().click();
  await expect(page.getByRole('heading', { name: 'Schritt für Schritt' })).toBeVisible();
  await expect(page.getByText('Auf einem Android-Telefon')).toBeVisible();
  await expect(page.getByText(/Schalten Sie bei der Ankunft Datenroaming/)).toBeAttached();
  await checkLayoutAndShoot(page, 'esim detail de at 390px', 'lang-de-esim');

  await page.goto('/account');
  await expect(page.getByRole('heading', { name: 'Konto löschen' })).toBeVisible();
  await checkLayoutAndShoot(page, 'account de at 390px', 'lang-de-account');
});
