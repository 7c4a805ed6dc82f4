import { and, desc, eq, or } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { esims } from '../../db/schema/index.js';
import type { Clock } from '../../lib/clock.js';
import { createSandboxEsimControls } from '../../providers/esim/sandbox/controls.js';
import { AppError } from '../errors.js';
import type { EsimRow, OrderService } from '../orders/orders.service.js';
import { resetTestWallet } from '../wallet/test-wallet.js';
import { armFailNextOrder, clearFailNextOrder, type InjectedFailure } from './test-provider.js';

/**
 * The test helpers of the Partner API (`/api/public/v1/test/…`, test keys only). Everything here
 * acts on test-mode state of one account: its test wallet, its next test order, its test eSIMs.
 */
export function createTestModeService(deps: { db: Db; clock: Clock; orders: OrderService }) {
  const { db, clock, orders } = deps;
  const sandbox = createSandboxEsimControls({ db, clock });

  return {
    /** Test wallet back to US$1,000.00; returns the balance in cents. */
    resetWallet: (accountId: string) => resetTestWallet(db, accountId, clock.now()),

    failNextOrder: (accountId: string, then: InjectedFailure) => armFailNextOrder(db, accountId, then),
    clearFailNextOrder: (accountId: string) => clearFailNextOrder(db, accountId),

    /**
     * Sets the data used by one of the account's test eSIMs (by eSIM id or ICCID) on the sandbox
     * and reads it back through the ordinary usage path, so everything that reacts to a provider
     * usage reading (status, events) sees it at once.
     */
    async setEsimUsage(accountId: string, esimIdOrIccid: string, usedMb: number): Promise<EsimRow> {
      const [esim] = await db
        .select()
        .from(esims)
        .where(
          and(
            eq(esims.accountId, accountId),
            eq(esims.livemode, false),
            or(eq(esims.id, esimIdOrIccid), eq(esims.iccid, esimIdOrIccid)),
          ),
        )
        .orderBy(desc(esims.createdAt))
        .limit(1);
      if (!esim) throw new AppError('ESIM_NOT_FOUND', 'No test-mode eSIM of yours has this id or ICCID');
      const profile = await sandbox.setUsage(esim.iccid, usedMb);
      if (!profile) throw new AppError('ESIM_NOT_FOUND', 'No test-mode eSIM of yours has this id or ICCID');
      const [fresh] = await orders.refreshUsage([{ ...esim, usageCheckedAt: null }]);
      return fresh!;
    },
  };
}

export type TestModeService = ReturnType<typeof createTestModeService>;
