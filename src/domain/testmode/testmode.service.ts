import { and, desc, eq, or } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { esims } from '../../db/schema/index.js';
import type { Clock } from '../../lib/clock.js';
import { createSandboxEsimControls } from '../../providers/esim/sandbox/controls.js';
import { parseSandboxNotification } from '../../providers/esim/sandbox/index.js';
import type { ProviderNotifications } from '../events/provider-notifications.js';
import { AppError } from '../errors.js';
import type { EsimRow, OrderService } from '../orders/orders.service.js';
import { resetTestWallet } from '../wallet/test-wallet.js';
import { armFailNextOrder, clearFailNextOrder, type InjectedFailure } from './test-provider.js';

/**
 * The test helpers of the Partner API (`/api/public/v1/test/…`, test keys only). Everything here
 * acts on test-mode state of one account: its test wallet, its next test order, its test eSIMs.
 */
export function createTestModeService(deps: {
  db: Db;
  clock: Clock;
  orders: OrderService;
  /** Where the sandbox's lifecycle notifications are applied: the live provider path. */
  notifications: Pick<ProviderNotifications, 'apply'>;
}) {
  const { db, clock, orders } = deps;
  // The sandbox's notifications are applied before the helper answers (not by a job), so
  // the answer, the events and the alerts are there at once, exactly as a live webhook leaves them.
  const lifecycle = createSandboxEsimControls({
    db,
    clock,
    notify: async (...bodies) => {
      for (const body of bodies)
        for (const notification of parseSandboxNotification(body))
          await deps.notifications.apply('sandbox', notification);
    },
  });

  async function ownTestEsim(accountId: string, esimIdOrIccid: string): Promise<EsimRow> {
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
    return esim;
  }

  async function reread(esim: EsimRow): Promise<EsimRow> {
    const [fresh] = await db.select().from(esims).where(eq(esims.id, esim.id));
    return fresh ?? esim;
  }

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
      const esim = await ownTestEsim(accountId, esimIdOrIccid);
      // Its DATA_USAGE and ESIM_STATUS reports are applied as live ones (usage, install state).
      const profile = await lifecycle.setUsage(esim.iccid, usedMb);
      if (!profile) throw new AppError('ESIM_NOT_FOUND', 'No test-mode eSIM of yours has this id or ICCID');
      const [fresh] = await orders.refreshUsage([{ ...esim, usageCheckedAt: null }]);
      return fresh!;
    },

    /**
     * The traveller installed the test eSIM: the sandbox reports ESIM_STATUS with smdpStatus
     * INSTALLATION, applied like a live webhook (esim.status_changed INSTALLED).
     */
    async installEsim(accountId: string, esimIdOrIccid: string): Promise<EsimRow> {
      const esim = await ownTestEsim(accountId, esimIdOrIccid);
      await lifecycle.setInstallState(esim.iccid, 'INSTALLED');
      return reread(esim);
    },

    /**
     * The test eSIM's validity ends in `daysLeft` days (VALIDITY_USAGE): 3 or 1 announce
     * esim.expiring; 0 expires it now (ESIM_STATUS …_EXPIRED: status EXPIRED).
     */
    async expireEsim(accountId: string, esimIdOrIccid: string, daysLeft: 3 | 1 | 0): Promise<EsimRow> {
      const esim = await ownTestEsim(accountId, esimIdOrIccid);
      await lifecycle.setExpiry(esim.iccid, daysLeft);
      return reread(esim);
    },
  };
}

export type TestModeService = ReturnType<typeof createTestModeService>;
