import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, buildTestApp, type TestApp } from '../../helpers/app.js';
import { pickPlan } from '../../helpers/catalog.js';
import { createUser } from '../../helpers/factories.js';
import { adminPost, createPartner, postOrder } from '../partner/helpers.js';

/**
 * H20: `usedMb: "-Infinity"` on the sandbox usage route answered 500. Non-finite and huge
 * numbers, as JSON strings (coerced) or raw JSON, are a 400 in the operator error shape.
 */
let t: TestApp;
let ICCID: string;
beforeAll(async () => {
  t = await buildTestApp();
  // A real sandbox eSIM: the bad number must be refused before it reaches the provider.
  const plan = await pickPlan(t.container);
  const partner = await createPartner(t, plan.effectivePriceCents);
  const order = await postOrder(t, partner.headers, { planId: plan.id, quantity: 1 });
  ICCID = (order.json().esims[0] as { iccid: string }).iccid;
});
afterAll(() => t.close());

describe('POST /sandbox/esim-provider/usage with non-finite or huge numbers (H20)', () => {
  it.each([['-Infinity'], ['Infinity'], ['NaN'], ['1e308'], ['-1e308']])(
    'usedMb "%s" (a string) → 400 VALIDATION_ERROR',
    async (value) => {
      const res = await adminPost(t, '/sandbox/esim-provider/usage', { iccid: ICCID, usedMb: value });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR' } });
    },
  );

  it.each([['1e308'], ['-1e308'], ['1e999'], ['-1e999']])('usedMb %s (a JSON number) → 400', async (raw) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/v1/sandbox/esim-provider/usage',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      payload: `{"iccid":"${ICCID}","usedMb":${raw}}`,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR' } });
  });

  it('still sets a usage in range', async () => {
    const res = await adminPost(t, '/sandbox/esim-provider/usage', { iccid: ICCID, usedMb: 12 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ iccid: ICCID, dataUsageMb: 12 });
  });
});

describe('non-finite numbers on the other surfaces (H20)', () => {
  it('Partner: ?limit=Infinity → 400 in the Partner shape', async () => {
    const partner = await createPartner(t);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/public/v1/orders?limit=Infinity',
      headers: partner.headers,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      error: { code: 'VALIDATION_ERROR', message: 'querystring.limit must be a finite number' },
    });
  });

  it('Mobile: ?limit=-Infinity → 400 in the Mobile shape', async () => {
    const user = await createUser(t.container);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/user/orders?limit=-Infinity',
      headers: user.auth,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
  });
});
