import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import {
  autoTopUpAttempts,
  autoTopUps,
  esims,
  orders,
  walletTransactions,
} from '../../../src/db/schema/index.js';
import type { AlertPort, TravellerAlert } from '../../../src/domain/alerts/ports.js';
import { reconcile } from '../../../src/domain/ops/reconcile.js';
import type { TestApp } from '../../helpers/app.js';
import { pickPlan } from '../../helpers/catalog.js';
import { createPartner, PARTNER_ROOT, postOrder } from '../../http/partner/helpers.js';

/** A recording AlertPort: what the traveller alerts service would have been asked to send. */
export function recordAlerts(t: TestApp) {
  const sent: Array<{ accountId: string; alert: TravellerAlert; dedupeKey: string }> = [];
  const port: AlertPort = {
    async send(_tx, accountId, alert, dedupeKey) {
      sent.push({ accountId, alert, dedupeKey });
    },
  };
  t.container.travellerAlerts.send = port.send;
  return sent;
}

/** A partner (funded with `balanceCents` after buying) with one TR eSIM of 1 GB. */
export async function partnerWithEsim(t: TestApp, balanceCents: number) {
  const plan = await pickPlan(t.container);
  const topUp = await pickPlan(t.container, { isTopUp: true });
  const p = await createPartner(t, plan.effectivePriceCents + balanceCents);
  const order = (await postOrder(t, p.headers, { planId: plan.id, quantity: 1 })).json();
  const esimId = order.esims[0].id as string;
  const iccid = order.esims[0].iccid as string;
  return { p, plan, topUp, esimId, iccid };
}

export function patchPartner(t: TestApp, headers: Record<string, string>, iccid: string, autoTopUp: object) {
  return t.app.inject({
    method: 'PATCH',
    url: `${PARTNER_ROOT}/esims/${iccid}`,
    headers,
    payload: { autoTopUp },
  });
}

/** A usage reading stored as every writer stores one: the row and the observers, one transaction. */
export async function report(t: TestApp, esimId: string, usedMb: number): Promise<void> {
  await t.container.db.transaction(async (tx) => {
    await tx.update(esims).set({ dataUsageMb: usedMb, status: 'ACTIVE' }).where(eq(esims.id, esimId));
    await t.container.esimChanges.changed(tx, esimId);
  });
}

export async function esimRow(t: TestApp, esimId: string) {
  const [row] = await t.container.db.select().from(esims).where(eq(esims.id, esimId));
  return row!;
}

export async function attemptsOf(t: TestApp, esimId: string) {
  return t.container.db
    .select()
    .from(autoTopUpAttempts)
    .where(eq(autoTopUpAttempts.esimId, esimId))
    .orderBy(autoTopUpAttempts.crossing);
}

export async function settingsRow(t: TestApp, esimId: string) {
  const [row] = await t.container.db.select().from(autoTopUps).where(eq(autoTopUps.esimId, esimId));
  return row!;
}

export async function topUpOrdersOf(t: TestApp, esimId: string) {
  return t.container.db.select().from(orders).where(eq(orders.topUpEsimId, esimId));
}

export async function purchasesOf(t: TestApp, accountId: string) {
  const rows = await t.container.db
    .select()
    .from(walletTransactions)
    .where(eq(walletTransactions.accountId, accountId));
  return rows.filter((r) => r.kind === 'purchase');
}

export async function expectReconcileClean(t: TestApp): Promise<void> {
  const report = await reconcile({ db: t.container.db, clock: t.clock });
  expect(report.problems).toEqual([]);
}
