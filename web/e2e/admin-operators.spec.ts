import { expect, test } from '@playwright/test';
import { createOperator, signIn } from './operator';

/** Issue 33 O1: named operators, their enrolment and sign-in. */

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
