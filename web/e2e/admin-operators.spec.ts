import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { atEachSize, checkLayout } from './helpers';
import { ADMIN_TOKEN } from './env';
import { codeAt, createOperator, nextCode, signIn, type TestOperator } from './operator';

/** Issue 33 O1: named operators, their enrolment and sign-in. */

const PASSWORD = 'owner-horse-battery-42';
const STEP_MS = 30_000;

test('the fixture gives a page an enrolled operator’s console session', async ({ page, request }) => {
  const support = await createOperator(request, 'support');
  await signIn(page, support);
  const me = await page.request.get('/api/admin/v1/operator/me');
  expect(((await me.json()) as { operator: { email: string; role: string } }).operator).toMatchObject({
    email: support.email,
    role: 'support',
  });
  // A second sign-in at once needs a code not yet used: the fixture takes the next step's.
  await signIn(page, support);
});

async function fillSignIn(page: Page, email: string, password: string, code: string): Promise<void> {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Code', { exact: true }).fill(code);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

test('an owner enrols by QR code, keeps the recovery codes, invites Support, signs out and back in', async ({
  page,
  request,
}) => {
  // Eight layout and axe checks (four pages at two sizes) on a shared machine.
  test.slow();
  // The first Owner: `npm run operator -- create` on a stopped service; here the admin token.
  const email = `owner-${randomBytes(4).toString('hex')}@ops.example`;
  const invited = await request.post('/api/admin/v1/operators', {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    data: { email, role: 'owner' },
  });
  expect(invited.status(), await invited.text()).toBe(201);
  const { enrolmentUrl } = (await invited.json()) as { enrolmentUrl: string };
  expect(enrolmentUrl).toMatch(/\/admin\/enrol#[\w-]{43}$/);

  await page.goto(new URL(enrolmentUrl).pathname + new URL(enrolmentUrl).hash);
  await expect(page.getByRole('heading', { level: 1, name: 'Enrol in the console' })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  const qr = page.getByRole('img', { name: 'QR code to scan with your authenticator app' });
  await expect(qr).toBeVisible();
  expect(await qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await atEachSize(page, (w) => checkLayout(page, `enrol ${w}`));
  const secret = (await page.getByTestId('enrol-secret').textContent())!.replace(/\s/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);

  await page.getByLabel('Your name').fill('Olive Owner');
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Password again').fill('something else');
  await page.getByLabel('Code from the app').fill('123456');
  await page.getByRole('button', { name: 'Enrol and sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('The two passwords differ.');
  await page.getByLabel('Password again').fill(PASSWORD);
  const enrolStep = Math.floor(Date.now() / STEP_MS);
  await page.getByLabel('Code from the app').fill(codeAt(secret, enrolStep));
  await page.getByRole('button', { name: 'Enrol and sign in' }).click();

  await expect(page.getByRole('heading', { name: 'Save your recovery codes' })).toBeVisible();
  const codes = page.getByTestId('recovery-codes').getByRole('listitem');
  await expect(codes).toHaveCount(10);
  await expect(codes.first()).toHaveText(/^[a-z2-9]{4}-[a-z2-9]{4}$/);
  await atEachSize(page, (w) => checkLayout(page, `recovery codes ${w}`));
  await page.getByRole('button', { name: 'I have saved them' }).click();

  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByTestId('operator-who')).toHaveText('Olive Owner · Owner');
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Operators' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Operators' })).toBeVisible();

  const supportEmail = `support-${randomBytes(4).toString('hex')}@ops.example`;
  const invite = page.getByRole('region', { name: 'Invite an operator' });
  await invite.getByLabel('E-mail').fill(supportEmail);
  await invite.getByLabel('Name (optional)').fill('Sam Support');
  await invite.getByLabel('Role').selectOption('support');
  await invite.getByRole('button', { name: 'Invite' }).click();
  const link = page.getByTestId('enrolment-link');
  await expect(link).toContainText(`Enrolment link for ${supportEmail}`);
  await expect(page.getByLabel('Enrolment link', { exact: true })).toHaveValue(/\/admin\/enrol#[\w-]{43}$/);
  const row = page.getByTestId(`operator-${supportEmail}`);
  await expect(row).toContainText('Invited');
  await expect(row.getByLabel(`Role of ${supportEmail}`)).toHaveValue('support');
  await atEachSize(page, (w) => checkLayout(page, `operators ${w}`));

  // The owner's own sessions: this browser's.
  await page.getByRole('button', { name: `Sessions of ${email}` }).click();
  await expect(page.getByTestId('operator-sessions').getByRole('row')).toHaveCount(2);
  await atEachSize(page, (w) => checkLayout(page, `operator sessions ${w}`));

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to the console' })).toBeVisible();
  await atEachSize(page, (w) => checkLayout(page, `sign-in ${w}`));

  // A wrong code is refused with one message; the code field is emptied for the next try.
  await fillSignIn(page, email, PASSWORD, '000000');
  await expect(page.getByRole('alert')).toContainText('The e-mail address, password or code is not right');
  await expect(page.getByLabel('Code', { exact: true })).toHaveValue('');

  // Signed out, a console URL shows the sign-in; signing in opens the page asked for.
  await page.goto('/admin/operators');
  const owner: TestOperator = {
    id: '',
    email,
    name: 'Olive Owner',
    role: 'owner',
    password: PASSWORD,
    totpSecret: secret,
    recoveryCodes: [],
    lastStep: enrolStep,
  };
  await fillSignIn(page, email, PASSWORD, await nextCode(owner));
  await expect(page.getByRole('heading', { level: 1, name: 'Operators' })).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/operators$/);
});

test('an unknown or used enrolment link says so', async ({ page, request }) => {
  await page.goto('/admin/enrol#not-a-real-token-000000000000000000000000000');
  await expect(page.getByRole('alert')).toContainText('unknown, already used or expired');
  const op = await createOperator(request, 'readonly');
  expect(op.recoveryCodes).toHaveLength(10);
});

test('every console page sets a title of its own, in the console’s name', async ({ page, request }) => {
  await page.goto('/admin/orders');
  await expect(page).toHaveTitle('Sign in · Roam Ops');
  await signIn(page, await createOperator(request, 'owner'));
  const nav = page.getByRole('navigation', { name: 'Console' }).getByRole('link');
  // allTextContents does not wait: the console renders after its session check.
  await expect(nav.nth(5)).toBeVisible();
  const labels = await nav.allTextContents();
  expect(labels.length).toBeGreaterThan(5);
  // Each page's heading and title are its navigation label, so no two pages share a title.
  expect(new Set(labels).size).toBe(labels.length);
  for (const label of labels) {
    await page
      .getByRole('navigation', { name: 'Console' })
      .getByRole('link', { name: label, exact: true })
      .click();
    await expect(page.getByRole('heading', { level: 1, name: label, exact: true })).toBeVisible();
    await expect(page).toHaveTitle(`${label} · Roam Ops`);
  }
});
