import { expect, test } from '@playwright/test';
import {
  adminGet,
  adminPatch,
  baseURL,
  buyWithWallet,
  confirmPhone,
  firstPlan,
  fundWallet,
  PASSWORD,
  registerViaApi,
  settleSandboxPayment,
  uniqueEmail,
} from './helpers';

test.use({ locale: 'en-US' });

test('browse → register → top up by card → buy with the wallet → the eSIM with QR and usage', async ({
  page,
}) => {
  await page.goto('/');
  await expect(page.getByTestId('destination-list').getByRole('link').first()).toBeVisible();
  await page.getByLabel('Search destinations').fill('japon');
  await expect(page.getByRole('heading', { name: 'Results for “japon”' })).toBeVisible();
  await expect(page.getByTestId('destination-list').getByRole('link')).toHaveCount(1);
  await page.getByRole('link', { name: /Japan/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Japan' })).toBeVisible();
  await page.getByRole('link', { name: 'Log in to buy' }).click();
  await expect(page).toHaveURL(/\/login\?next=%2Fdestinations%2FJP/);
  await page.getByRole('main').getByRole('link', { name: 'Sign up' }).click();

  const email = uniqueEmail('journey');
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Last name').fill('Lovelace');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/destinations\/JP$/);

  // An empty wallet: the API's INSUFFICIENT_BALANCE appears beside the checkout form.
  await confirmPhone(page);
  await page.getByRole('button', { name: 'Pay from wallet' }).click();
  await expect(page.getByRole('alert')).toContainText('wallet balance is too low');
  await page.getByRole('link', { name: 'Top up your wallet' }).click();

  await page.getByRole('button', { name: '$10' }).click();
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await settleSandboxPayment(page, 'Pay');
  await expect(page).toHaveURL(/\/wallet\?topup=paid/);
  await expect(page.getByTestId('wallet-balance')).toHaveText('$10.00');
  await expect(page.getByRole('table')).toContainText('Deposit');

  await page.goto('/destinations/JP');
  await confirmPhone(page);
  await page.getByRole('button', { name: 'Pay from wallet' }).click();
  await expect(page).toHaveURL(/\/orders\?order=/);
  await expect(page.getByTestId('order-message')).toHaveText('All set! Install your eSIM below.');
  const card = page.getByTestId('esim-card');
  await expect(card.getByRole('img', { name: /QR code/ })).toBeVisible();
  await expect
    .poll(() =>
      card.getByRole('img', { name: /QR code/ }).evaluate((img: HTMLImageElement) => img.naturalWidth),
    )
    .toBeGreaterThan(0);
  await expect(card.getByTestId('lpa')).toHaveText(/^LPA:1\$/);
  await expect(card.getByRole('link', { name: 'Install on iPhone' })).toHaveAttribute(
    'href',
    /^https:\/\/esimsetup\.apple\.com\//,
  );
  await expect(card.getByRole('progressbar', { name: 'Data used' })).toBeVisible();

  await page.getByRole('link', { name: 'My eSIMs' }).click();
  await expect(page.getByTestId('esim-card')).toHaveCount(1);
  await expect(page.getByTestId('iccid')).toHaveText(/^\d{18,22}F?$/);
  await page.getByRole('button', { name: 'Refresh usage' }).click();
  await expect(page.getByRole('button', { name: 'Refresh usage' })).toBeEnabled();
  await expect(page.getByRole('progressbar')).toHaveAttribute('aria-valuetext', /of .* used/);
});

test('card checkout: hosted page → back to the order page until it completes', async ({ page }) => {
  await registerViaApi(page, 'card');
  await page.goto('/destinations/TR');
  await page.getByRole('radio', { name: 'Card' }).check();
  await confirmPhone(page);
  await page.getByRole('button', { name: 'Continue to card payment' }).click();
  await settleSandboxPayment(page, 'Pay');
  await expect(page).toHaveURL(/\/orders\?return=.*outcome=paid/);
  await expect(page.getByTestId('order-message')).toHaveText('All set! Install your eSIM below.');
  await expect(page.locator('.order-head .badge')).toHaveText('Completed');
  await expect(page.getByTestId('esim-card')).toHaveCount(1);
});

test('crypto checkout: cancelled, then paid', async ({ page }) => {
  await registerViaApi(page, 'crypto');
  await page.goto('/destinations/DE');
  await page.getByRole('radio', { name: 'Crypto' }).check();
  await confirmPhone(page);
  await page.getByRole('button', { name: 'Continue to crypto payment' }).click();
  await settleSandboxPayment(page, 'Cancel');
  // A crypto invoice has one return URL for every outcome; the order page shows the state.
  await expect(page).toHaveURL(/\/orders\?return=/);
  await expect(page.getByTestId('order-message')).toBeVisible();
  await expect(page.locator('.order-head .badge')).toHaveText(/Cancelled|Awaiting payment/);

  await page.goto('/destinations/DE');
  await page.getByRole('radio', { name: 'Crypto' }).check();
  await confirmPhone(page);
  await page.getByRole('button', { name: 'Continue to crypto payment' }).click();
  await settleSandboxPayment(page, 'Pay');
  await expect(page.locator('.order-head .badge')).toHaveText('Completed');
  await expect(page.getByTestId('esim-card')).toHaveCount(1);
  await page.goto('/orders');
  await expect(page.getByRole('table')).toContainText('Completed');
});

test('forgot → mail → reset → login', async ({ page, context }) => {
  const { email } = await registerViaApi(page, 'reset');
  await context.clearCookies();
  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  // The login form has an Email field too: fill only once the reset form has replaced it.
  await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('status')).toContainText(email);

  // The mail is sent by the background worker: wait for it.
  let messages: { text: string }[] = [];
  await expect
    .poll(async () => {
      ({ messages } = await adminGet<{ messages: { text: string }[] }>(
        page.request,
        `/mail?to=${encodeURIComponent(email)}`,
      ));
      return messages.length;
    })
    .toBeGreaterThan(0);
  const link = /https?:\/\/\S+\/reset-password\?token=[A-Za-z0-9_-]+/.exec(messages[0]!.text)?.[0];
  expect(link, messages[0]!.text).toBeTruthy();
  const { pathname, search } = new URL(link!);
  await page.goto(pathname + search);
  await page.getByLabel('New password', { exact: true }).fill('brand-new-secret-7');
  await page.getByLabel('Repeat the new password').fill('brand-new-secret-7');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page).toHaveURL(/\/login\?reset=done/);
  await expect(page.getByRole('status')).toContainText('password was changed');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('brand-new-secret-7');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/esims$/);

  // The link works once.
  await page.goto(pathname + search);
  await expect(page.getByRole('alert')).toContainText('invalid or has expired');
});

test('change password', async ({ page, context }) => {
  const { email } = await registerViaApi(page, 'chpw');
  await page.goto('/account');
  const form = page.locator('section', { has: page.getByRole('heading', { name: 'Password' }) });
  await form.getByLabel('Current password').fill('not-my-password');
  await form.getByLabel('New password', { exact: true }).fill('another-secret-9');
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(form.getByRole('alert')).toHaveText('The current password is not correct.');
  await form.getByLabel('Current password').fill(PASSWORD);
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(form.getByRole('status')).toContainText('Password changed');

  await context.clearCookies();
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('another-secret-9');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/esims$/);
});

// 1×1 PNG
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

test('profile: names, currency, language; avatar with a preview', async ({ page }) => {
  await registerViaApi(page, 'profile');
  await page.goto('/account');
  const profile = page.locator('section', { has: page.getByRole('heading', { name: 'Profile' }) });
  await profile.getByLabel('First name').fill('Zeynep');
  await profile.getByLabel('Currency for prices').selectOption('EUR');
  await profile.getByRole('button', { name: 'Save' }).click();
  await expect(profile.getByRole('status')).toHaveText('Saved.');
  await expect(page.locator('.avatar-link')).toContainText('Zeynep');

  const avatar = page.locator('section', { has: page.getByRole('heading', { name: 'Profile picture' }) });
  // The client refuses a file the API would refuse…
  await avatar
    .getByLabel('Choose an image')
    .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hi') });
  await expect(avatar.getByRole('alert')).toHaveText('Choose a PNG, JPEG, WebP or GIF image.');
  // …and shows the API's answer when the bytes are not the declared image type.
  await avatar
    .getByLabel('Choose an image')
    .setInputFiles({ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('not really a png') });
  await avatar.getByRole('button', { name: 'Upload picture' }).click();
  await expect(avatar.getByRole('alert')).toBeVisible();
  await avatar
    .getByLabel('Choose an image')
    .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG });
  await expect(avatar.getByTestId('avatar-preview')).toHaveAttribute('src', /^data:image\/png;base64,/);
  await avatar.getByRole('button', { name: 'Upload picture' }).click();
  await expect(avatar.getByRole('status')).toHaveText('Picture updated.');
  await expect(avatar.getByTestId('avatar-preview')).toHaveAttribute('src', /\/api\/v1\/avatars\//);
  await expect(page.locator('.avatar-link img')).toHaveAttribute('src', /\/api\/v1\/avatars\//);

  // Turkish from the profile: the whole UI follows, prices in euros.
  await profile.getByLabel('Language').selectOption('tr');
  await profile.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Hesap');
  await page.getByRole('link', { name: 'Ülkeler' }).first().click();
  await expect(page.getByTestId('destination-list')).toContainText('€');
  await expect(page.getByTestId('destination-list')).toContainText('Almanya');
});

test('delete account: 409 with a balance, explained; success at zero', async ({ page, context }) => {
  await registerViaApi(page, 'delrich');
  await fundWallet(page, 5);
  await page.goto('/account');
  const zone = page.locator('section', { has: page.getByRole('heading', { name: 'Delete account' }) });
  await zone.getByLabel('I understand this cannot be undone.').check();
  await zone.getByRole('button', { name: 'Delete my account' }).click();
  await expect(zone.getByRole('alert')).toHaveText(
    'Your wallet is not empty, so the account cannot be deleted yet.',
  );
  await expect(zone.getByTestId('delete-blocked')).toContainText('$5.00');

  await context.clearCookies();
  await registerViaApi(page, 'delzero');
  await page.goto('/account');
  await zone.getByLabel('I understand this cannot be undone.').check();
  await zone.getByRole('button', { name: 'Delete my account' }).click();
  await expect(page).toHaveURL(/\/\?deleted=1$/);
  await expect(page.getByRole('status')).toHaveText('Your account was deleted. Safe travels!');
  await expect(page.getByRole('link', { name: 'Log in' })).toBeVisible();
  const me = await page.request.get('/api/v1/auth/me');
  expect(await me.json()).toEqual({ user: null });
});

test('support: create, reply, reopen', async ({ page }) => {
  await registerViaApi(page, 'support');
  await page.goto('/support');
  await page.getByLabel('Subject').fill('eSIM does not connect');
  await page.getByLabel('Topic').selectOption('esim');
  await page.getByLabel('Message').fill('I installed it but see no signal.');
  await page.getByRole('button', { name: 'Send ticket' }).click();
  await expect(page).toHaveURL(/\/support\?ticket=/);
  const ticketId = new URL(page.url()).searchParams.get('ticket')!;
  await expect(page.getByRole('heading', { name: 'eSIM does not connect' })).toBeVisible();
  await expect(page.locator('.message')).toHaveCount(1);

  await page.getByLabel('Your reply').fill('Roaming is on, too.');
  await page.getByRole('button', { name: 'Send reply' }).click();
  await expect(page.locator('.message')).toHaveCount(2);

  await adminPatch(page.request, `/tickets/${ticketId}`, { status: 'CLOSED' });
  await page.reload();
  await expect(page.locator('.thread-head .badge')).toHaveText('Closed');
  await expect(page.getByText('This ticket is closed; replying reopens it.')).toBeVisible();
  await page.getByLabel('Your reply').fill('It happened again.');
  await page.getByRole('button', { name: 'Reply and reopen' }).click();
  await expect(page.locator('.thread-head .badge')).toHaveText('Open');
  await expect(page.locator('.message')).toHaveCount(3);
});

test('partner: generate a key → Partner API order → shown in the dashboard; the key is never shown again', async ({
  page,
}) => {
  await registerViaApi(page, 'partner');
  await fundWallet(page, 20);
  // The old /api-keys page sends people to the partner console's keys page.
  await page.goto('/api-keys');
  await expect(page).toHaveURL(/\/partner\/keys$/);
  await expect(page.getByText('No key of this mode yet.')).toBeVisible();
  await page.getByRole('button', { name: 'Generate key' }).click();
  const key = (await page.getByTestId('new-key').textContent())!;
  expect(key).toMatch(/^svc_live_sk_[0-9A-Za-z]{40}$/);
  await expect(page.getByText('Copy it now: it is shown only once')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Copy key' })).toBeVisible();
  await expect(page.getByTestId('key-prefix')).toHaveText(
    `svc_live_sk_${key.slice(12, 16)}…${key.slice(-4)}`,
  );

  const plan = await firstPlan(page.request, 'FR');
  const order = await page.request.post('/api/public/v1/orders', {
    headers: { authorization: `Bearer ${key}` },
    data: { planId: plan.id, quantity: 1 },
  });
  expect(order.status(), await order.text()).toBeLessThan(300);
  const { orderNumber } = (await order.json()) as { orderNumber: string };

  await page.goto('/partner');
  await expect(page.getByTestId('partner-order-count')).toHaveText('1');
  await expect(page.getByTestId('partner-order')).toContainText(orderNumber);
  await expect(page.getByTestId('partner-order').getByRole('progressbar')).toBeVisible();
  // The personal eSIM list shows web orders only (issue 28 H12): the partner's eSIM is not there.
  await page.goto('/esims');
  await expect(page.getByText('You have no eSIMs yet.')).toBeVisible();
  await expect(page.getByTestId('esim-card')).toHaveCount(0);

  await page.goto('/partner/keys');
  await page.reload();
  await expect(page.getByTestId('key-prefix')).toHaveText(/^svc_live_sk_/);
  await expect(page.getByTestId('new-key')).toHaveCount(0);
  expect(await page.content()).not.toContain(key);

  // Rotation asks first, then shows the new key once.
  await page.getByRole('button', { name: 'Rotate key' }).click();
  await page.getByRole('button', { name: 'Yes, rotate now' }).click();
  const rotated = (await page.getByTestId('new-key').textContent())!;
  expect(rotated).not.toBe(key);
  const old = await page.request.get('/api/public/v1/wallet', {
    headers: { authorization: `Bearer ${key}` },
  });
  expect(old.status()).toBe(401);
});

test('every API error appears beside its form', async ({ page, context }) => {
  // Login: wrong password.
  const { email } = await registerViaApi(page, 'errors');
  await context.clearCookies();
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('wrong-password');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.locator('form').getByRole('alert')).toHaveText('Wrong email or password.');

  // Register: address taken.
  await page.goto('/register');
  await page.getByLabel('First name').fill('Ali');
  await page.getByLabel('Last name').fill('Veli');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.locator('form').getByRole('alert')).toHaveText(
    'An account with this email already exists. Log in instead.',
  );

  // Reset with a bad token.
  await page.goto('/reset-password?token=not-a-real-token');
  await expect(page.getByRole('alert')).toContainText('invalid or has expired');

  // Top-up below the minimum: the API's validation message, beside the form.
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/esims$/);
  await page.goto('/wallet');
  await page.getByLabel('Amount in US dollars').fill('1');
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(page.locator('form.topup').getByRole('alert')).toBeVisible();
  await expect(page).toHaveURL(/\/wallet$/);

  // Top-up by ICCID that is not ours.
  await fundWallet(page, 10);
  await page.goto('/destinations/TR?iccid=8901234567890123456');
  await expect(page.getByLabel('ICCID of the eSIM to top up')).toHaveValue('8901234567890123456');
  await page.getByRole('button', { name: 'Pay from wallet' }).click();
  await expect(page.locator('form.checkout').getByRole('alert')).toBeVisible();

  // Unknown destination.
  await page.goto('/destinations/XX');
  await expect(page.getByRole('alert')).toHaveText('We do not sell eSIMs for this destination.');
});

test('top-up by ICCID from the eSIM card', async ({ page }) => {
  await registerViaApi(page, 'topup');
  await fundWallet(page, 30);
  await buyWithWallet(page, 'TR');
  await page.goto('/esims');
  const iccid = (await page.getByTestId('iccid').textContent())!;
  await page.getByRole('link', { name: 'Top up' }).click();
  await expect(page).toHaveURL(new RegExp(`/destinations/TR\\?iccid=${iccid}`));
  await expect(page.getByLabel('ICCID of the eSIM to top up')).toHaveValue(iccid);
  await page.getByRole('button', { name: 'Pay from wallet' }).click();
  await expect(page).toHaveURL(/\/orders\?order=/);
  await expect(page.locator('.order-head .badge')).toHaveText('Completed');
  await expect(page.getByRole('heading', { name: 'Topped-up eSIM' })).toBeVisible();
  expect(baseURL).toContain('127.0.0.1');
});
