import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { walletTransactions } from '../../../src/db/schema/index.js';
import type { SellablePlan } from '../../../src/domain/catalog/catalog.service.js';
import { partnerPriceCents } from '../../../src/domain/pricing/partner-price.js';
import { centsToUsd } from '../../../src/lib/money.js';
import { ADMIN_TOKEN, buildTestApp, type TestApp } from '../../helpers/app.js';
import { pickPlan } from '../../helpers/catalog.js';
import { expectLedgerInvariant } from '../../helpers/ledger.js';
import { createPartner, partnerWithBothKeys, postOrder } from '../partner/helpers.js';
import { partnerTeam } from './helpers.js';

const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

describe('partner prices (issue 32 C5)', () => {
  let t: TestApp;
  let plan: SellablePlan;
  beforeAll(async () => {
    t = await buildTestApp();
    plan = await pickPlan(t.container);
  });
  afterAll(() => t.close());

  const pricing = (accountId: string, method: 'GET' | 'PUT' | 'DELETE' = 'GET', payload?: object) =>
    t.app.inject({
      method,
      url: `/api/admin/v1/accounts/${accountId}/pricing`,
      headers: admin,
      ...(payload ? { payload } : {}),
    });
  const planOf = (body: { plans: Array<{ id: string; priceUsd: number; retailPriceUsd?: number }> }) =>
    body.plans.find((p) => p.id === plan.id)!;
  const country = (headers: Record<string, string>) =>
    t.app.inject({ url: `/api/public/v1/destinations/${plan.destinationCode}`, headers });
  const expected = (rule: Parameters<typeof partnerPriceCents>[1]) =>
    partnerPriceCents({ retailCents: plan.effectivePriceCents, wholesaleCents: plan.wholesaleCents }, rule);
  const discount10 = { rule: 'discount' as const, percentBps: 1000, minMarginBps: 500 };

  it('lets an operator set, read and remove a rule, audited', async () => {
    const p = await createPartner(t);
    expect((await pricing(p.id)).json()).toEqual({ rule: null });
    const set = await pricing(p.id, 'PUT', { rule: 'markup', percent: 12.5 });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().rule).toMatchObject({ rule: 'markup', percent: 12.5, minMarginPercent: 5 });
    expect((await pricing(p.id)).json().rule).toMatchObject({ rule: 'markup', percent: 12.5 });
    expect((await pricing(p.id, 'DELETE')).statusCode).toBe(204);
    expect((await pricing(p.id)).json()).toEqual({ rule: null });

    const audit = await t.app.inject({ url: `/api/admin/v1/audit?target=${p.id}`, headers: admin });
    const actions = audit.json().entries ?? audit.json().audit ?? audit.json();
    const rows = (Array.isArray(actions) ? actions : Object.values(actions).flat()) as Array<{
      action: string;
      actor?: string | null;
    }>;
    expect(rows.map((r) => r.action)).toEqual(
      expect.arrayContaining(['account.pricing.update', 'account.pricing.delete']),
    );
  });

  it('refuses bad rules and unknown accounts', async () => {
    const p = await createPartner(t);
    expect((await pricing(p.id, 'PUT', { rule: 'discount', percent: 12.345 })).statusCode).toBe(400);
    expect((await pricing(p.id, 'PUT', { rule: 'discount', percent: 101 })).statusCode).toBe(400);
    expect((await pricing(p.id, 'PUT', { rule: 'cheap', percent: 1 })).statusCode).toBe(400);
    expect((await pricing('acc_nobody', 'PUT', { rule: 'discount', percent: 1 })).statusCode).toBe(404);
    const noToken = await t.app.inject({ url: `/api/admin/v1/accounts/${p.id}/pricing` });
    expect(noToken.statusCode).toBe(401);
  });

  it('shows the partner price in its catalogue only: not to another partner, not on the Mobile API', async () => {
    const priced = await createPartner(t);
    const other = await createPartner(t);
    const mobileBefore = (await t.app.inject({ url: `/api/v1/destinations/${plan.destinationCode}` })).body;
    // Both read once first: the cached retail entry must not be served to the priced partner after.
    expect(planOf((await country(priced.headers)).json()).priceUsd).toBe(
      centsToUsd(plan.effectivePriceCents),
    );
    expect(planOf((await country(other.headers)).json()).priceUsd).toBe(centsToUsd(plan.effectivePriceCents));

    await pricing(priced.id, 'PUT', { rule: 'discount', percent: 10 });
    const mine = planOf((await country(priced.headers)).json());
    expect(mine).toMatchObject({
      priceUsd: centsToUsd(expected(discount10)),
      retailPriceUsd: centsToUsd(plan.effectivePriceCents),
    });
    const list = await t.app.inject({ url: '/api/public/v1/destinations', headers: priced.headers });
    const listed = list.json().countries.flatMap((c: { plans: unknown[] }) => c.plans);
    expect(listed.find((p: { id: string }) => p.id === plan.id).priceUsd).toBe(
      centsToUsd(expected(discount10)),
    );

    const theirs = planOf((await country(other.headers)).json());
    expect(theirs.priceUsd).toBe(centsToUsd(plan.effectivePriceCents));
    expect(theirs.retailPriceUsd).toBeUndefined();
    const otherList = await t.app.inject({ url: '/api/public/v1/destinations', headers: other.headers });
    expect(otherList.body).not.toContain('retailPriceUsd');
    expect((await t.app.inject({ url: `/api/v1/destinations/${plan.destinationCode}` })).body).toBe(
      mobileBefore,
    );
  });

  it('charges the partner price for live and test orders (order amount and ledger row)', async () => {
    const { user, live, test } = await partnerWithBothKeys(t, 50_000);
    await pricing(user.id, 'PUT', { rule: 'discount', percent: 10 });
    const price = expected(discount10);
    expect(price).not.toBe(plan.effectivePriceCents);

    for (const [headers, livemode] of [
      [live, true],
      [test, false],
    ] as const) {
      const res = await postOrder(t, headers, { planId: plan.id, quantity: 2 });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().amountUsd).toBe(centsToUsd(price * 2));
      const [row] = await t.container.db
        .select()
        .from(walletTransactions)
        .where(and(eq(walletTransactions.orderId, res.json().id), eq(walletTransactions.livemode, livemode)));
      expect(row!.amountCents).toBe(-price * 2);
    }
    await expectLedgerInvariant(t.container);

    // The web checkout of the same account still pays retail.
    const web = await t.app.inject({
      method: 'POST',
      url: '/api/v1/checkout',
      headers: user.auth,
      payload: { planId: plan.id, quantity: 1, paymentMethod: 'wallet' },
    });
    expect(web.statusCode, web.body).toBe(200);
    const [webRow] = await t.container.db
      .select()
      .from(walletTransactions)
      .where(eq(walletTransactions.orderId, web.json().orderId));
    expect(webRow!.amountCents).toBe(-plan.effectivePriceCents);
  });

  it('prices a partner order placed without the key check (an automatic top-up) with the stored rule', async () => {
    const p = await createPartner(t, 50_000);
    await pricing(p.id, 'PUT', { rule: 'discount', percent: 10 });
    const placed = await t.container.orders.placeOrder({
      accountId: p.id,
      channel: 'partner',
      planId: plan.id,
      quantity: 1,
      paymentMethod: 'wallet',
    });
    expect(placed.order.amountCents).toBe(expected(discount10));
  });

  it('gives the dashboard the rule and a price list CSV, for every role', async () => {
    const team = await partnerTeam(t);
    await pricing(team.owner.id, 'PUT', { rule: 'markup', percent: 20, minMarginPercent: 7 });
    for (const member of [team.owner, team.admin, team.developer, team.finance, team.viewer]) {
      const rule = await t.app.inject({ url: team.url('/pricing'), headers: member.auth });
      expect(rule.statusCode).toBe(200);
      expect(rule.json().rule).toMatchObject({ rule: 'markup', percent: 20, minMarginPercent: 7 });
      const csv = await t.app.inject({ url: team.url('/prices.csv'), headers: member.auth });
      expect(csv.statusCode).toBe(200);
      expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    }
    const csv = (await t.app.inject({ url: team.url('/prices.csv'), headers: team.owner.auth })).body;
    const [header, ...lines] = csv.trim().split('\r\n');
    expect(header).toBe(
      'plan_id,name,destination,destination_code,data_mb,validity_days,retail_usd,partner_usd',
    );
    const line = lines.find((l) => l.startsWith(`${plan.id},`))!.split(',');
    const want = partnerPriceCents(
      { retailCents: plan.effectivePriceCents, wholesaleCents: plan.wholesaleCents },
      { rule: 'markup', percentBps: 2000, minMarginBps: 700 },
    );
    expect(line.at(-1)).toBe((want / 100).toFixed(2));
    expect(line.at(-2)).toBe((plan.effectivePriceCents / 100).toFixed(2));
    expect(
      (await t.app.inject({ url: team.url('/prices.csv'), headers: team.stranger.auth })).statusCode,
    ).toBe(404);
  });
});
