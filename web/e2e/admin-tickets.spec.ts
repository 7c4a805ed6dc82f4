import { expect, test } from '@playwright/test';
import { atEachSize, baseURL, checkLayout, registerViaApi } from './helpers';
import { createOperator, signIn } from './operator';

/**
 * Issue 33 O2: a Support operator works a ticket in the console: takes it, writes an internal note
 * and a reply; the customer sees the reply and never the note. Then the catalogue and the audit
 * log, which names the operator.
 */
const NOTE = 'Provider says the profile is fine; likely roaming off.';
const REPLY = 'Please turn on data roaming for the eSIM line.';

test('Support takes a ticket, notes and replies; the customer sees the reply, never the note', async ({
  page,
  browser,
  request,
}) => {
  // A customer opens a ticket from the app (API), in a browser context of their own.
  const customerContext = await browser.newContext({ baseURL });
  const customer = await customerContext.newPage();
  await registerViaApi(customer, 'ticket-console', 'Ayşe');
  const subject = `No data in Lisbon ${Date.now()}`;
  const opened = await customer.request.post('/api/v1/support/tickets', {
    headers: { origin: baseURL },
    data: { subject, category: 'esim', message: 'Full bars, but no data at all.' },
  });
  expect(opened.status(), await opened.text()).toBe(201);
  const ticketId = ((await opened.json()) as { ticket: { id: string } }).ticket.id;

  const support = await createOperator(request, 'support');
  await signIn(page, support, '/admin/tickets');

  // The inbox: Open tab, then only unassigned tickets.
  await expect(page.getByRole('heading', { name: 'Tickets', level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Open', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await page.getByLabel('Show').selectOption('unassigned');
  const row = page.getByRole('row').filter({ hasText: subject });
  await expect(row).toContainText('Unassigned');
  await atEachSize(page, (w) => checkLayout(page, `ticket inbox ${w}`));

  await row.getByRole('link', { name: subject }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/tickets/${ticketId}$`));
  await expect(page.getByRole('heading', { name: subject, level: 1 })).toBeVisible();

  // Take it.
  await page.getByRole('button', { name: 'Assign to me' }).click();
  await expect(page.getByTestId('ticket-assignee')).toHaveText(`${support.name} (you)`);

  // An internal note, then a reply.
  await page.getByLabel('Internal note', { exact: true }).check();
  await page.locator('#ticket-text').fill(NOTE);
  await page.getByRole('button', { name: 'Add internal note' }).click();
  const note = page.locator('.ticket-note', { hasText: NOTE });
  await expect(note).toContainText('Internal note — the customer never sees this');
  await expect(note).toContainText(support.name);

  await page.getByLabel('Reply to customer').check();
  await page.locator('#ticket-text').fill(REPLY);
  await page.getByRole('button', { name: 'Send reply' }).click();
  await expect(page.locator('.ticket-msg-staff', { hasText: REPLY })).not.toHaveClass(/ticket-note/);
  await expect(page.getByText('Waiting for customer').first()).toBeVisible();
  await atEachSize(page, (w) => checkLayout(page, `ticket ${w}`));

  // The customer's view: the reply is there, the note is not (API and the web app's page).
  const mine = await customer.request.get('/api/v1/support/tickets');
  const body = await mine.text();
  expect(body).toContain(REPLY);
  expect(body).not.toContain(NOTE);
  await customer.goto(`/support?ticket=${ticketId}`);
  await expect(customer.getByText(REPLY)).toBeVisible();
  await expect(customer.getByText(NOTE)).toHaveCount(0);
  await customerContext.close();

  // The inbox's "Assigned to me" under "Waiting for customer" has it now.
  await page.goto('/admin/tickets?tab=waiting&who=me');
  await expect(page.getByRole('row').filter({ hasText: subject })).toContainText(support.name);

  // The audit log names the operator for the assignment, the note and the reply.
  await page.goto(`/admin/audit?target=${ticketId}`);
  for (const action of ['ticket.assign', 'ticket.note', 'ticket.reply'])
    await expect(page.getByRole('row').filter({ hasText: action })).toContainText(support.email);
  await atEachSize(page, (w) => checkLayout(page, `audit log ${w}`));
});

test('Catalog syncs now and sees the result; Support reads the catalogue without the switches', async ({
  page,
  request,
}) => {
  const catalog = await createOperator(request, 'catalog');
  await signIn(page, catalog, '/admin/catalog');
  await page.getByRole('button', { name: 'Sync now' }).click();
  await expect(page.getByTestId('sync-result')).toContainText(/added, \d+ updated, \d+ disabled/);
  await expect(page.getByRole('columnheader', { name: 'Markup' })).toBeVisible();
  await atEachSize(page, (w) => checkLayout(page, `catalog ${w}`));

  const support = await createOperator(request, 'support');
  await page.context().clearCookies();
  await signIn(page, support, '/admin/catalog');
  await expect(page.getByRole('columnheader', { name: 'Wholesale' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sync now' })).toHaveCount(0);
  await expect(page.getByRole('checkbox').first()).toBeDisabled();
});
