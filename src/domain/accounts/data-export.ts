import type { Clock } from '../../lib/clock.js';
import type { PushDevice } from '../devices/devices.service.js';
import type { MailRecord } from '../mail/mailer.js';
import type { PushRecord } from '../push/push-messages.js';
import type { EsimRow, OrderRow, OrderService } from '../orders/orders.service.js';
import type { SupportService, TicketView } from '../support/support.service.js';
import type { WalletService, WalletTransaction } from '../wallet/wallet.service.js';
import type { AccountService, AccountView } from './accounts.service.js';

/** One mode's money and orders: live (the web app's and the Partner API's live key) or test. */
export interface ModeData {
  orders: OrderRow[];
  /** The eSIM ids of each order (a top-up order names the eSIM it topped up). */
  esimIdsByOrder: Map<string, string[]>;
  esims: EsimRow[];
  walletTransactions: WalletTransaction[];
}

/** Everything GET /user/export hands the account holder, before presentation. */
export interface AccountData {
  exportedAt: Date;
  account: AccountView;
  live: ModeData;
  /**
   * The Partner API's test mode (svc_test_sk_ keys): sandbox orders paid from the test wallet.
   * Kept apart from `live` so that made-up money and eSIMs are never read as real ones.
   */
  test: ModeData;
  tickets: TicketView[];
  /** The devices pushes go to, most recently seen first. */
  devices: PushDevice[];
  /** What was sent to the account's current address and its devices, newest first. */
  mails: MailRecord[];
  pushes: PushRecord[];
}

export interface DataExportDeps {
  clock: Clock;
  accounts: Pick<AccountService, 'viewById'>;
  orders: Pick<OrderService, 'listOrders' | 'listEsims' | 'esimIdsByOrder'>;
  wallet: Pick<WalletService, 'listAllTransactions'>;
  support: Pick<SupportService, 'listForAccount'>;
  devices: { list(accountId: string): Promise<PushDevice[]> };
  messages: {
    mailsTo(email: string): Promise<MailRecord[]>;
    pushesOf(accountId: string): Promise<PushRecord[]>;
  };
}

/**
 * The account holder's copy of their data (issue 30 T10), composed from the areas that own it:
 * each read is the owning service's own, with no page limit. The reads run one after another,
 * not in one snapshot: a purchase landing mid-export may show in one list and not yet in another,
 * which a download the holder can repeat tolerates. Only the account's own rows are read; every
 * read is keyed by the account id.
 */
export function createDataExport(deps: DataExportDeps) {
  async function modeData(accountId: string, livemode: boolean): Promise<ModeData> {
    const { orders } = await deps.orders.listOrders(accountId, { livemode });
    return {
      orders,
      esimIdsByOrder: await deps.orders.esimIdsByOrder(orders),
      // Stored usage only: an export asks no provider for fresh readings.
      esims: await deps.orders.listEsims(accountId, livemode),
      walletTransactions: await deps.wallet.listAllTransactions(accountId, livemode),
    };
  }

  return {
    async collect(accountId: string): Promise<AccountData> {
      const exportedAt = deps.clock.now();
      const account = await deps.accounts.viewById(accountId);
      return {
        exportedAt,
        account,
        live: await modeData(accountId, true),
        test: await modeData(accountId, false),
        tickets: await deps.support.listForAccount(accountId),
        devices: await deps.devices.list(accountId),
        mails: await deps.messages.mailsTo(account.account.email),
        pushes: await deps.messages.pushesOf(accountId),
      };
    },
  };
}

export type DataExport = ReturnType<typeof createDataExport>;
