import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { ADMIN_TOKEN, baseURL, firstPlan } from './helpers';

/** The sandbox eSIM provider refuses its next `failNext` orders (0: works again). */
export async function faults(request: APIRequestContext, failNext: number): Promise<void> {
  const res = await request.post('/api/admin/v1/sandbox/esim-provider/faults', {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    data: { failNext },
  });
  expect(res.status(), await res.text()).toBe(200);
}

/**
 * A customer's wallet order whose eSIM the provider refused: PROCESSING, retries pending. The
 * provider keeps failing (the background retry too, 30 s later) until the test calls faults(0).
 */
export async function failedOrder(customer: Page): Promise<string> {
  const plan = await firstPlan(customer.request, 'TR');
  await faults(customer.request, 100);
  const res = await customer.request.post('/api/v1/checkout', {
    headers: { origin: baseURL },
    data: { planId: plan.id, quantity: 1, paymentMethod: 'wallet' },
  });
  expect(res.status(), await res.text()).toBe(502);
  return ((await res.json()) as { orderId: string }).orderId;
}
