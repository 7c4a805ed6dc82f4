import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { orders, plans, sandboxSettings } from '../../db/schema/index.js';
import type { Clock } from '../../lib/clock.js';
import { sandboxListPackages } from '../../providers/esim/sandbox/catalogue.js';
import { createSandboxProfiles } from '../../providers/esim/sandbox/profiles.js';
import { EsimProviderError, type EsimProvider, type ProviderPackage } from '../../providers/esim/types.js';

/**
 * The provider of test-mode orders: the built-in sandbox, whatever ESIM_PROVIDER is. Two
 * differences from the live sandbox:
 * - it provisions every plan the catalog sells: a package code outside the sandbox catalogue
 *   (e.g. an eSIM Access plan) is sized from the plan row;
 * - its failures are the partner's own: the operator's `failNext` (admin API) never touches test
 *   orders, and `POST /api/public/v1/test/orders/fail-next` arms a failure for one account's next
 *   test order only (state in sandbox_settings, so it is shared by every instance).
 */

export type InjectedFailure = 'complete' | 'refund';

const TEST_FAULT_SETTING = 'testmode.esim.failNext';
const failNextName = (accountId: string) => `testmode.failNext:${accountId}`;
const failOrderName = (orderId: string) => `testmode.failOrder:${orderId}`;
const CODES: Record<InjectedFailure, number> = { complete: 1, refund: 2 };

/** Arms (or replaces) the failure of the account's next test order. */
export async function armFailNextOrder(db: Db, accountId: string, then: InjectedFailure): Promise<void> {
  const value = CODES[then];
  await db
    .insert(sandboxSettings)
    .values({ name: failNextName(accountId), value })
    .onConflictDoUpdate({ target: sandboxSettings.name, set: { value } });
}

/** Disarms it; true when one was armed. */
export async function clearFailNextOrder(db: Db, accountId: string): Promise<boolean> {
  const removed = await db
    .delete(sandboxSettings)
    .where(eq(sandboxSettings.name, failNextName(accountId)))
    .returning();
  return removed.length > 0;
}

export function createTestModeEsimProvider(deps: { db: Db; clock: Clock; latencyMs: number }): EsimProvider {
  const { db } = deps;

  async function planPackage(code: string): Promise<ProviderPackage | undefined> {
    const [plan] = await db.select().from(plans).where(eq(plans.providerPackageCode, code));
    if (!plan) return undefined;
    return {
      packageCode: plan.providerPackageCode,
      name: plan.title,
      description: plan.description,
      coverage: plan.coverage,
      scope: plan.scope,
      dataAmountMb: plan.dataAmountMb,
      durationDays: plan.durationDays,
      isTopUp: plan.isTopUp,
      wholesaleCents: plan.wholesaleCents,
      activationPolicy: plan.activationPolicy,
      topUpSupported: plan.topUpSupported,
    };
  }

  const sandbox = createSandboxProfiles({
    ...deps,
    resolvePackage: planPackage,
    faultSetting: TEST_FAULT_SETTING,
  });

  /**
   * `complete`: this attempt fails with a retryable outage, the background retry succeeds.
   * `refund`: every attempt of this order fails for good, so the first background run refunds it.
   */
  async function injectedFailure(orderId: string): Promise<void> {
    const [doomed] = await db
      .select()
      .from(sandboxSettings)
      .where(eq(sandboxSettings.name, failOrderName(orderId)));
    if (doomed) throw refused();
    const [order] = await db
      .select({ accountId: orders.accountId })
      .from(orders)
      .where(eq(orders.id, orderId));
    if (!order) return;
    const [armed] = await db
      .delete(sandboxSettings)
      .where(eq(sandboxSettings.name, failNextName(order.accountId)))
      .returning();
    if (!armed) return;
    if (armed.value === CODES.refund) {
      await db
        .insert(sandboxSettings)
        .values({ name: failOrderName(orderId), value: 1 })
        .onConflictDoNothing();
      throw refused();
    }
    throw new EsimProviderError(
      'unavailable',
      'test mode: fulfillment failure requested (POST /test/orders/fail-next); the retry will succeed',
      true,
    );
  }

  return {
    name: 'sandbox',
    listPackages: async () => sandboxListPackages(),
    ...sandbox,
    async issueProfiles(request) {
      await injectedFailure(request.orderId);
      return sandbox.issueProfiles(request);
    },
    async topUp(request) {
      await injectedFailure(request.orderId);
      return sandbox.topUp(request);
    },
  };
}

function refused(): EsimProviderError {
  return new EsimProviderError(
    'rejected',
    'test mode: fulfillment failure requested (POST /test/orders/fail-next, then: refund)',
    false,
  );
}
