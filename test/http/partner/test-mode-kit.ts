import type { SellablePlan } from '../../../src/domain/catalog/catalog.service.js';
import type { TestApp } from '../../helpers/app.js';
import { createUser, type TestUser } from '../../helpers/factories.js';
import { PARTNER_ROOT } from './helpers.js';

/** Test mode's shared calls (test-mode.test.ts, test-mode-helpers.test.ts). */
export const GENERATE = '/api/v1/user/api-key/generate';

export interface Partner {
  user: TestUser;
  live: Record<string, string>;
  test: Record<string, string>;
  liveKey: string;
  testKey: string;
}

/** `ctx` is read at call time: the app and plan are made in the suite's beforeAll. */
export function testModeKit(ctx: () => { t: TestApp; plan: SellablePlan }) {
  const generate = (user: TestUser, payload?: object, on: TestApp = ctx().t) =>
    on.app.inject({ method: 'POST', url: GENERATE, headers: user.auth, ...(payload ? { payload } : {}) });

  /** An account with a live balance and both keys, made through the Mobile API like a user would. */
  async function partner(liveCents = 10_000, on: TestApp = ctx().t): Promise<Partner> {
    const user = await createUser(on.container, { balanceCents: liveCents });
    const liveKey = (await generate(user, undefined, on)).json().key as string;
    const testKey = (await generate(user, { mode: 'test' }, on)).json().key as string;
    return { user, liveKey, testKey, live: { 'x-api-key': liveKey }, test: { 'x-api-key': testKey } };
  }

  const get = (url: string, headers: Record<string, string>) =>
    ctx().t.app.inject({ url: `${PARTNER_ROOT}${url}`, headers });
  const post = (url: string, headers: Record<string, string>, payload?: object, on: TestApp = ctx().t) =>
    on.app.inject({
      method: 'POST',
      url: `${PARTNER_ROOT}${url}`,
      headers,
      ...(payload ? { payload } : {}),
    });
  const order = (
    headers: Record<string, string>,
    payload: object = { planId: ctx().plan.id, quantity: 1 },
    on: TestApp = ctx().t,
  ) => post('/orders', headers, payload, on);
  const mobile = (url: string, user: TestUser) =>
    ctx().t.app.inject({ url: `/api/v1${url}`, headers: user.auth });
  const testBalance = async (p: Partner) => (await get('/wallet', p.test)).json().balanceUsd as number;

  async function runJobsAfter(ms: number) {
    ctx().t.clock.advance(ms);
    await ctx().t.container.worker.runDue();
  }

  return { generate, partner, get, post, order, mobile, testBalance, runJobsAfter };
}
